import {
  getCountries,
  getCountryCallingCode,
  Metadata,
  type PhoneNumber,
  parsePhoneNumberFromString,
} from "libphonenumber-js"

/**
 * The national-number pattern of each country, by calling code: the whole of its plan, whatever
 * the type. The default (`min`) metadata's `isValid()` checks each number type only for calling
 * codes several countries share (`+1`, `+44`, `+7`…) and the plan's general pattern elsewhere, and
 * the UK's types leave out the ranges kept for drama (`07700 900xxx`), so `isValid()` alone turns
 * down the contract's own `+44 (0) 7700 900456`. Built on first use: a service that never reads a
 * number pays nothing for it.
 */
let plans: ReadonlyMap<string, ReadonlyArray<RegExp>> | undefined

const plansByCallingCode = (): ReadonlyMap<string, ReadonlyArray<RegExp>> => {
  if (plans !== undefined) return plans
  const built = new Map<string, Array<RegExp>>()
  const metadata = new Metadata()
  for (const country of getCountries()) {
    metadata.selectNumberingPlan(country)
    const plan = metadata.numberingPlan
    const pattern = plan !== undefined && "nationalNumberPattern" in plan ? plan.nationalNumberPattern : undefined
    const source = typeof pattern === "function" ? pattern.call(plan) : undefined
    if (typeof source !== "string") continue
    const code = getCountryCallingCode(country)
    built.set(code, [...(built.get(code) ?? []), new RegExp(`^(?:${source})$`)])
  }
  plans = built
  return built
}

/**
 * A parsed number some country's number plan has: a valid number, or one of a length the plan
 * uses that its general pattern allows (a range not yet assigned, a fictional one such as the UK's
 * 07700 900xxx or the North American 555-01xx). A national number read with a country that does
 * not have it (`(415) 555-0110` in GB, `+1 123 456 7890`: no area code starts with 1) is not, nor
 * one with an unknown calling code.
 */
export const isInPlan = (number: PhoneNumber): boolean =>
  number.isValid() ||
  (number.isPossible() &&
    (plansByCallingCode().get(number.countryCallingCode) ?? []).some((pattern) => pattern.test(number.nationalNumber)))

/** International digits (no `+`) that some country's number plan has (`isInPlan`). */
export const inPlan = (digits: string): boolean => {
  const number = parsePhoneNumberFromString(`+${digits}`)
  return number !== undefined && isInPlan(number)
}

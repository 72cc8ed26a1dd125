import { isInPlan } from "@parley/number-plan"
import {
  type CountryCode,
  getCountryCallingCode,
  isSupportedCountry,
  parsePhoneNumberFromString,
} from "libphonenumber-js"

/**
 * Reads one recipient number as a person or a file gives it (docs/contract.md §9 "Numbers"), with the
 * organization's country: `(415) 555-0110` in the US → `14155550110`. A number written with `+` or
 * the `00` international prefix is read as international; any other is read first as a national
 * number of the country and, when the country's plan does not have it, as international digits
 * without the `+` (`447700900456` from a GB list in a US organization), so lists exported as bare
 * international digits keep working. "Has it" is `@parley/number-plan`'s `isInPlan`, the rule the
 * assistant uses for the numbers visitors write: a valid number, or a possible length the plan's
 * general pattern allows (new or fictional ranges such as 07700 900xxx and 555-01xx still count;
 * `(415) 555-0110` in GB and `+1 123 456 7890` do not, a length check alone let them through).
 */
export type ReadNumber = { readonly digits: string } | { readonly error: string }

const SHAPE = /^\+?[0-9 ().\-/]{1,40}$/

export const readPhoneNumber = (input: string, country: string): ReadNumber => {
  const written = input.trim()
  if (written === "") return { error: "is empty" }
  if (!SHAPE.test(written)) return { error: "is not a phone number (digits, spaces, + ( ) . - only)" }
  const digits = written.replace(/\D/g, "")
  if (digits.length < 7 || digits.length > 15) return { error: "must have 7–15 digits" }
  const nanp = nanpDigits(written, digits, country)
  if (nanp !== undefined) return { digits: nanp }
  // As written when it has its `+`: libphonenumber reads a formatted number ~5× faster than bare digits.
  if (written.startsWith("+")) return international(written) ?? notInPlan(written)
  if (digits.startsWith("00")) return international(`+${digits.slice(2)}`) ?? notInPlan(written)
  const national = parsePhoneNumberFromString(written, country as CountryCode)
  if (national !== undefined && isInPlan(national)) return { digits: national.number.slice(1) }
  return international(`+${digits}`) ?? notInPlan(written, country)
}

const nanpCountries = new Map<string, boolean>()
const inNanp = (country: string): boolean => {
  let known = nanpCountries.get(country)
  if (known === undefined) {
    known = isSupportedCountry(country) && getCountryCallingCode(country as CountryCode) === "1"
    nanpCountries.set(country, known)
  }
  return known
}

/**
 * The North American plan's numbers without libphonenumber's 20–50 µs each (a 100,000-recipient
 * campaign is mostly these in a US organization): `+1` and ten digits, or — in a country of the
 * plan — ten digits or `1` and ten, the area code starting 2–9. The plan's national numbers are all
 * ten digits and its general pattern takes every ten digits whose area code starts 2–9, so
 * `isInPlan` has each of them; `phone-number.test.ts` compares 20,000 random ones with the slow
 * path. Anything else goes to libphonenumber.
 */
const nanpDigits = (written: string, digits: string, country: string): string | undefined => {
  const national =
    digits.length === 11 && digits[0] === "1" && (written.startsWith("+") || inNanp(country))
      ? digits.slice(1)
      : digits.length === 10 && !written.startsWith("+") && inNanp(country)
        ? digits
        : undefined
  // An area code never starts with 0 or 1 (`011…` is the plan's international prefix): those go to libphonenumber.
  return national === undefined || national[0] === "0" || national[0] === "1" ? undefined : `1${national}`
}

const international = (withPlus: string): { digits: string } | undefined => {
  const parsed = parsePhoneNumberFromString(withPlus)
  return parsed !== undefined && isInPlan(parsed) ? { digits: parsed.number.slice(1) } : undefined
}

const notInPlan = (written: string, country?: string): { error: string } => ({
  error:
    country === undefined
      ? `${written} is not a number in any country's plan`
      : `${written} is not a number in ${country}'s plan nor an international one`,
})

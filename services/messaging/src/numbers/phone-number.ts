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
 * number of the country and, when the country's plan finds it impossible, as international digits
 * without the `+` (`447700900456` from a GB list in a US organization), so lists exported as bare
 * international digits keep working. "Possible" is libphonenumber's length-and-plan check, not
 * "assigned today", so new or fictional ranges still count.
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
  if (written.startsWith("+")) return international(written) ?? impossible(written)
  if (digits.startsWith("00")) return international(`+${digits.slice(2)}`) ?? impossible(written)
  const national = parsePhoneNumberFromString(written, country as CountryCode)
  if (national?.isPossible() === true) return { digits: national.number.slice(1) }
  return international(`+${digits}`) ?? impossible(written, country)
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
 * plan — ten digits or `1` and ten, the area code starting 2–9. "Possible" is a length check, and the plan's national numbers
 * are all ten digits, so libphonenumber reads them the same (`phone-number.test.ts` compares 20,000
 * random ones); anything else goes to it.
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
  return parsed?.isPossible() === true ? { digits: parsed.number.slice(1) } : undefined
}

const impossible = (written: string, country?: string): { error: string } => ({
  error:
    country === undefined
      ? `${written} is not a possible international number`
      : `${written} is not a possible number in ${country} nor an international one`,
})

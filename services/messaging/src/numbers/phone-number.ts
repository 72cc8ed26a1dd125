import { type CountryCode, parsePhoneNumberFromString } from "libphonenumber-js"

/**
 * Reads one recipient number as a person or a file gives it (CONTRACT.md §9 "Numbers"), with the
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
  if (written.startsWith("+") || digits.startsWith("00")) {
    return international(written.startsWith("+") ? digits : digits.slice(2)) ?? impossible(written)
  }
  const national = parsePhoneNumberFromString(written, country as CountryCode)
  if (national?.isPossible() === true) return { digits: national.number.slice(1) }
  return international(digits) ?? impossible(written, country)
}

const international = (digits: string): { digits: string } | undefined => {
  const parsed = parsePhoneNumberFromString(`+${digits}`)
  return parsed?.isPossible() === true ? { digits: parsed.number.slice(1) } : undefined
}

const impossible = (written: string, country?: string): { error: string } => ({
  error:
    country === undefined
      ? `${written} is not a possible international number`
      : `${written} is not a possible number in ${country} nor an international one`,
})

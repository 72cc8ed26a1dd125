/**
 * A phone number as Parley stores it — international digits (docs/contract.md §1) — written the way
 * people read it: `447700900456` → "+44 7700 900456". Apart from `format.ts` on purpose: the numbering
 * plans (libphonenumber-js's smallest metadata, the one the services read numbers with) load only with
 * the screens that show numbers, not with the console's first page.
 */
import { parsePhoneNumberFromString } from "libphonenumber-js/min"

export const readablePhone = (digits: string): string => {
  if (!/^[0-9]{7,15}$/.test(digits)) return digits
  // A number no plan knows (too short for its country, say) still reads as international digits.
  return parsePhoneNumberFromString(`+${digits}`)?.formatInternational() ?? `+${digits}`
}

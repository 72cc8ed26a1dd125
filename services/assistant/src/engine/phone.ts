/**
 * Finds a phone number in a visitor's message: 7–15 digits written with an optional leading `+`,
 * spaces, dashes, dots or parentheses (CONTRACT.md §8), normalised to digits only.
 *
 * Numbers that are something else are taken out before looking: calendar dates (2026-11-24,
 * 24.11.2026, 11/24/2026), clock times (10:30), money ($1,250.00, 300 EUR) and references that a
 * word names as one (order #12345678, invoice 2026-0042, ticket no. 99812345). What remains is cut
 * into runs of digit groups joined by single separators; a run with 7–15 digits is a phone.
 */

const MIN_DIGITS = 7
const MAX_DIGITS = 15

/** The first plausible calendar date shape, so that phone-like runs of dates are never leads. */
const isCalendarDate = (year: number, month: number, day: number): boolean =>
  month >= 1 && month <= 12 && day >= 1 && day <= 31 && year >= 0

const BLANK = " | "

const REMOVALS: ReadonlyArray<readonly [RegExp, (match: string, ...groups: Array<string>) => string]> = [
  // References named by a word: the number after it is an identifier, not a phone.
  [
    /\b(?:order|invoice|inv|ref|reference|tracking|ticket|confirmation|account|acct|po|sku|receipt)\b\s*(?:no\.?|number|num|nr|#|:)?\s*[:#]?\s*[A-Za-z]{0,4}[\d][\d\s./-]*/gi,
    () => BLANK,
  ],
  [/#\s*\d[\d\s-]*/g, () => BLANK],
  // ISO dates and day-month-year / month-day-year dates with -, . or /.
  [
    /(?<!\d)(\d{4})[-./](\d{1,2})[-./](\d{1,2})(?!\d)/g,
    (match, y = "", m = "", d = "") => (isCalendarDate(Number(y), Number(m), Number(d)) ? BLANK : match),
  ],
  [
    /(?<!\d)(\d{1,2})[-./](\d{1,2})[-./](\d{2}|\d{4})(?!\d)/g,
    (match, a = "", b = "") =>
      isCalendarDate(2000, Number(b), Number(a)) || isCalendarDate(2000, Number(a), Number(b)) ? BLANK : match,
  ],
  // Clock times.
  [/(?<!\d)\d{1,2}:\d{2}(?::\d{2})?(?!\d)/g, () => BLANK],
  // Money: a currency sign before, or a currency word after.
  [/[$€£¥₹]\s?\d[\d,.\s]*/g, () => BLANK],
  // Starting only at the beginning of a number keeps this linear on a long run of digits.
  [/(?<![\d,.])\d[\d,.]*\s?(?:usd|eur|gbp|dollars?|euros?|pounds?|bucks|k)\b/gi, () => BLANK],
]

/** Digit groups joined by one separator each, optionally led by `+` and with parentheses. */
const CANDIDATE = /\+?\(?\d+\)?(?:[ .-]?\(?\d+\)?)*/g

export const digitsOf = (text: string): string => text.replace(/\D+/g, "")

export const isPhoneDigits = (digits: string): boolean =>
  digits.length >= MIN_DIGITS && digits.length <= MAX_DIGITS && /^\d+$/.test(digits)

/** The first phone number in `text`, digits only, or `undefined`. */
export const extractPhone = (text: string): string | undefined => {
  let cleaned = text
  for (const [pattern, replace] of REMOVALS) cleaned = cleaned.replace(pattern, replace as never)
  for (const match of cleaned.matchAll(CANDIDATE)) {
    const raw = match[0]
    const start = match.index ?? 0
    // Glued to letters ("ABC1234567", "1234567x") it is a code, not a phone number.
    const before = cleaned[start - 1] ?? " "
    const after = cleaned[start + raw.length] ?? " "
    if (/[A-Za-z_]/.test(before) || /[A-Za-z_%]/.test(after)) continue
    const digits = digitsOf(raw)
    if (isPhoneDigits(digits)) return digits
  }
  return undefined
}

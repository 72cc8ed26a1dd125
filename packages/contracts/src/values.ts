import { CalendarDate, ClockTime, Count, IsoTimestamp, PhoneDigits } from "@parley/webhooks"

export { CalendarDate, ClockTime, Count, IsoTimestamp, PhoneDigits }

/**
 * A phone number as Parley stores it: every non-digit dropped (`+1 (415) 555-0100` →
 * `14155550100`). Whether the result is a plausible number (7–15 digits) is the caller's rule.
 */
export const normalizePhone = (input: string): string => input.replace(/\D+/g, "")

/** The current instant as docs/contract.md writes timestamps: ISO 8601 UTC with milliseconds. */
export const isoTimestamp = (date: Date | number): IsoTimestamp => new Date(date).toISOString()

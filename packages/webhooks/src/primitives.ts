import { Schema } from "effect"

/**
 * The value types that Parley's payloads are made of. Each carries an `expected` text so that a
 * decoding failure says what was wanted ("Expected digits only, got ...") rather than "<filter>".
 */

const ISO_MS_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

/** ISO 8601 UTC with milliseconds, e.g. `2026-11-22T09:30:00.000Z`, naming a real instant. */
export const IsoTimestamp = Schema.String.check(
  Schema.makeFilter(
    // Parsed once (every payload decodes several of these): a rolled-over date fails the round trip.
    (s: string) => {
      if (!ISO_MS_UTC.test(s)) return false
      const time = Date.parse(s)
      return !Number.isNaN(time) && new Date(time).toISOString() === s
    },
    { expected: "an ISO 8601 UTC timestamp with milliseconds (2026-11-22T09:30:00.000Z)" },
  ),
).annotate({ identifier: "IsoTimestamp" })
export type IsoTimestamp = typeof IsoTimestamp.Type

/** A phone number as Parley stores and sends it: digits only, no `+`, spaces or punctuation. */
export const PhoneDigits = Schema.String.check(
  Schema.isPattern(/^[0-9]{1,20}$/u, { expected: "a phone number of digits only (14155550100)" }),
).annotate({ identifier: "PhoneDigits" })
export type PhoneDigits = typeof PhoneDigits.Type

/** A calendar date `YYYY-MM-DD`. */
export const CalendarDate = Schema.String.check(
  Schema.makeFilter(
    (s: string) => {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false
      const time = Date.parse(`${s}T00:00:00.000Z`)
      // Date.parse rolls 2026-02-30 over to March: only a real date survives the round trip.
      return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === s
    },
    { expected: "a date YYYY-MM-DD" },
  ),
).annotate({ identifier: "CalendarDate" })

/** A wall-clock time `HH:MM` (24-hour). */
export const ClockTime = Schema.String.check(
  Schema.isPattern(/^([01]\d|2[0-3]):[0-5]\d$/u, { expected: "a time HH:MM" }),
).annotate({ identifier: "ClockTime" })

/** A whole number of zero or more. */
export const Count = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0, { expected: "an integer ≥ 0" }))

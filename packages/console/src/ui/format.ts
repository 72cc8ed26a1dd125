/** Dates and numbers as the reader's browser writes them. */
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" })
const dateTimeSeconds = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "medium" })

export const formatTime = (iso: string | null | undefined, fallback = "—"): string =>
  iso === null || iso === undefined || iso === "" ? fallback : dateTime.format(new Date(iso))

export const formatTimePrecise = (iso: string | null | undefined, fallback = "—"): string =>
  iso === null || iso === undefined || iso === "" ? fallback : dateTimeSeconds.format(new Date(iso))

/** A calendar day (`2026-12-01`, no time zone: the business's own day) with its weekday: "Tue, Dec 1, 2026". */
const calendarDay = new Intl.DateTimeFormat(undefined, {
  weekday: "short",
  year: "numeric",
  month: "short",
  day: "numeric",
  timeZone: "UTC",
})

export const formatDay = (date: string): string =>
  /^\d{4}-\d{2}-\d{2}$/.test(date) ? calendarDay.format(new Date(`${date}T00:00:00Z`)) : date

/** A wall-clock time (`14:30`, the business's own) as the browser writes times elsewhere: "2:30 PM" in en-US. */
const clockTime = new Intl.DateTimeFormat(undefined, { hour: "numeric", minute: "2-digit", timeZone: "UTC" })

export const formatClock = (time: string): string =>
  /^([01]\d|2[0-3]):[0-5]\d$/.test(time) ? clockTime.format(new Date(`1970-01-01T${time}:00Z`)) : time

export const formatNumber = (n: number): string => n.toLocaleString()

/**
 * A count as the API sends it. Some counts are `Schema.Number` in the contract, whose JSON form
 * also allows "Infinity" and "NaN"; a count is never that, so anything but a finite number reads 0.
 */
export const count = (n: number | string): number => (typeof n === "number" && Number.isFinite(n) ? n : 0)

/** A count with its noun in the right number: "1 duplicate", "2 duplicates", "0 duplicates". */
export const countOf = (n: number, one: string, many: string): string => `${formatNumber(n)} ${n === 1 ? one : many}`

/**
 * A provider's code (`REJECTED`, `INVALID_FORMAT`, `PENDING_DELETION`) in words: "invalid format".
 * `NONE` (the provider's "no reason") reads as nothing.
 */
export const codeInWords = (code: string): string => (code === "NONE" ? "" : code.toLowerCase().replaceAll("_", " "))

/** The same with a capital first letter, for a status on its own: "Rejected", "Pending deletion". */
export const statusInWords = (code: string): string => {
  const words = codeInWords(code)
  return words.charAt(0).toUpperCase() + words.slice(1)
}

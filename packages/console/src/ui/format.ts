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

export const formatNumber = (n: number): string => n.toLocaleString()

/** Digits-only phone numbers (docs/contract.md §1) with a leading `+` for reading. */
export const formatPhone = (digits: string): string => (/^[0-9]+$/.test(digits) ? `+${digits}` : digits)

/**
 * A count as the API sends it. Some counts are `Schema.Number` in the contract, whose JSON form
 * also allows "Infinity" and "NaN"; a count is never that, so anything but a finite number reads 0.
 */
export const count = (n: number | string): number => (typeof n === "number" && Number.isFinite(n) ? n : 0)

/**
 * Instants Parley reads from outside — a page cursor's position, a replay's `since` — before they
 * reach Postgres. A string of the right form can still be no instant at all (`2026-02-30`, `24:00`,
 * year `0000`, which Postgres does not have) or one past what Postgres or JavaScript can hold
 * (`+275760-09-13T00:00:00.000Z`); sent on, each of those was a 500 from the database rather than
 * the 400 docs/contract.md §1 gives a value that fails validation. This is the one strict reading.
 */

/**
 * Four-digit years from 0001 to 9999: what ISO 8601 writes without an agreed extension, and well
 * inside both Postgres' timestamptz range (4713 BC to 294276 AD) and JavaScript's Date (±275760).
 */
export const EarliestInstant = new Date("0001-01-01T00:00:00.000Z")
export const LatestInstant = new Date("9999-12-31T23:59:59.999Z")

/**
 * `YYYY-MM-DD`, then `T` (ISO 8601) or a space (Postgres' own `timestamptz::text`), `hh:mm:ss`, an
 * optional fraction, and a zone: `Z`, `±hh`, `±hhmm` or `±hh:mm`.
 */
const INSTANT = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:Z|([+-])(\d{2})(?::?(\d{2}))?)$/u

const daysIn = (year: number, month: number): number =>
  month === 2
    ? (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
      ? 29
      : 28
    : [4, 6, 9, 11].includes(month)
      ? 30
      : 31

/**
 * The instant `text` names, or undefined when it names none: every field within its calendar range
 * (no 30 February, no hour 24, no leap second, a zone of at most ±15:59 as Postgres allows) and the
 * instant itself between `EarliestInstant` and `LatestInstant` once its zone is applied. The
 * fraction beyond milliseconds is dropped from the Date; a caller that needs it keeps `text`, which
 * Postgres then reads as exactly this instant.
 */
export const parseInstant = (text: string): Date | undefined => {
  const parts = INSTANT.exec(text)
  if (parts === null) return undefined
  const [year, month, day, hour, minute, second] = parts.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ]
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return undefined
  if (hour > 23 || minute > 59 || second > 59) return undefined
  const offsetHours = Number(parts[9] ?? 0)
  const offsetMinutes = Number(parts[10] ?? 0)
  if (offsetHours > 15 || offsetMinutes > 59) return undefined
  const sign = parts[8] === "-" ? -1 : 1
  const millis = Number((parts[7] ?? "").padEnd(3, "0").slice(0, 3))
  const local = new Date(0)
  // setUTCFullYear, not Date.UTC: Date.UTC reads the years 0–99 as 1900–1999.
  local.setUTCFullYear(year, month - 1, day)
  local.setUTCHours(hour, minute, second, millis)
  const instant = new Date(local.getTime() - sign * (offsetHours * 60 + offsetMinutes) * 60_000)
  if (instant.getTime() < EarliestInstant.getTime() || instant.getTime() > LatestInstant.getTime()) return undefined
  return instant
}

/** Whether `text` names an instant `parseInstant` takes. */
export const isInstant = (text: string): boolean => parseInstant(text) !== undefined

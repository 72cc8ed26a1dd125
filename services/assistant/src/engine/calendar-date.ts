/**
 * Calendar arithmetic on `YYYY-MM-DD` strings (wall dates with no time zone), done in UTC so no
 * daylight-saving shift can move a day.
 */

export const addDays = (date: string, days: number): string => {
  const at = new Date(`${date}T00:00:00.000Z`)
  at.setUTCDate(at.getUTCDate() + days)
  return at.toISOString().slice(0, 10)
}

/** 0 = Sunday … 6 = Saturday. */
export const weekdayOf = (date: string): number => new Date(`${date}T00:00:00.000Z`).getUTCDay()

export const isValidDate = (date: string): boolean => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return false
  const at = Date.parse(`${date}T00:00:00.000Z`)
  return !Number.isNaN(at) && new Date(at).toISOString().slice(0, 10) === date
}

const pad = (n: number): string => String(n).padStart(2, "0")

export const dateOf = (year: number, month: number, day: number): string | undefined => {
  const date = `${String(year).padStart(4, "0")}-${pad(month)}-${pad(day)}`
  return isValidDate(date) ? date : undefined
}

export const timeOf = (hour: number, minute: number): string | undefined =>
  hour >= 0 && hour <= 23 && minute >= 0 && minute <= 59 ? `${pad(hour)}:${pad(minute)}` : undefined

/** "09:30" → 570. */
export const minutesOf = (time: string): number => {
  const [h = "0", m = "0"] = time.split(":")
  return Number(h) * 60 + Number(m)
}

export const timeFromMinutes = (minutes: number): string => `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`

/** Formatters per time zone: building an Intl.DateTimeFormat costs far more than using one. */
const wallClocks = new Map<string, Intl.DateTimeFormat>()

const wallClockFormat = (timeZone: string): Intl.DateTimeFormat => {
  let format = wallClocks.get(timeZone)
  if (format === undefined) {
    format = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    })
    if (wallClocks.size > 500) wallClocks.clear()
    wallClocks.set(timeZone, format)
  }
  return format
}

/** The wall date and time now in `timeZone` (an IANA name). */
export const wallClockIn = (timeZone: string, now: Date): { date: string; time: string } => {
  const parts = wallClockFormat(timeZone).formatToParts(now)
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "00"
  return { date: `${part("year")}-${part("month")}-${part("day")}`, time: `${part("hour")}:${part("minute")}` }
}

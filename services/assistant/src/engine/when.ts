import { addDays, dateOf, timeOf, weekdayOf } from "./calendar-date.ts"

/**
 * The date and time a visitor names, relative to `today` (the organization's wall date):
 * dates as `2026-11-24`, "today", "tomorrow", "day after tomorrow", a weekday ("Friday", "next
 * Friday": the next one after today), "24 November", "Nov 24th" (this year, or next year when that
 * day has passed); times as `14:30`, `2:30pm`, `10 am`, "noon", or "the first/earliest" one offered.
 */

export interface NamedWhen {
  readonly date?: string
  readonly time?: string
  /** "the first one", "earliest": the earliest free slot of the date in play. */
  readonly earliest: boolean
}

const WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

const MONTH_NAME =
  "(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
const DAY_MONTH = new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH_NAME}\\b`, "i")
const MONTH_DAY = new RegExp(`\\b${MONTH_NAME}\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b`, "i")

const monthIndex = (name: string): number => MONTHS.indexOf(name.slice(0, 3).toLowerCase()) + 1

const inComingYear = (today: string, month: number, day: number): string | undefined => {
  const year = Number(today.slice(0, 4))
  const thisYear = dateOf(year, month, day)
  if (thisYear !== undefined && thisYear >= today) return thisYear
  return dateOf(year + 1, month, day)
}

export const findDate = (text: string, today: string): string | undefined => {
  const iso = /\b(\d{4})-(\d{2})-(\d{2})\b/.exec(text)
  if (iso !== null) return dateOf(Number(iso[1]), Number(iso[2]), Number(iso[3]))
  const lower = text.toLowerCase()
  if (/\bday after tomorrow\b/.test(lower)) return addDays(today, 2)
  if (/\btomorrow\b/.test(lower)) return addDays(today, 1)
  if (/\btoday\b/.test(lower)) return today
  const dayMonth = DAY_MONTH.exec(text)
  if (dayMonth?.[1] !== undefined && dayMonth[2] !== undefined) {
    return inComingYear(today, monthIndex(dayMonth[2]), Number(dayMonth[1]))
  }
  const monthDay = MONTH_DAY.exec(text)
  if (monthDay?.[1] !== undefined && monthDay[2] !== undefined) {
    return inComingYear(today, monthIndex(monthDay[1]), Number(monthDay[2]))
  }
  const weekday = new RegExp(`\\b(${WEEKDAYS.join("|")})\\b`).exec(lower)
  if (weekday?.[1] !== undefined) {
    const target = WEEKDAYS.indexOf(weekday[1])
    const ahead = (target - weekdayOf(today) + 7) % 7 || 7
    return addDays(today, ahead)
  }
  return undefined
}

export const findTime = (text: string): string | undefined => {
  const lower = text.toLowerCase()
  const meridiem = /\b(\d{1,2})(?::(\d{2}))?\s*([ap])\.?\s?m\b\.?/.exec(lower)
  if (meridiem !== null) {
    const hour = Number(meridiem[1])
    if (hour < 1 || hour > 12) return undefined
    const base = hour % 12
    return timeOf(meridiem[3] === "p" ? base + 12 : base, Number(meridiem[2] ?? "0"))
  }
  const clock = /(?<![\d:])(\d{1,2}):(\d{2})(?![\d:])/.exec(lower)
  if (clock !== null) return timeOf(Number(clock[1]), Number(clock[2]))
  if (/\bnoon\b|\bmidday\b/.test(lower)) return "12:00"
  return undefined
}

export const findWhen = (text: string, today: string): NamedWhen => {
  const date = findDate(text, today)
  const time = findTime(text)
  return {
    ...(date === undefined ? {} : { date }),
    ...(time === undefined ? {} : { time }),
    earliest: /\b(?:earliest|soonest|(?:the\s+)?first\s+(?:one|slot|time|available|free))\b/i.test(text),
  }
}

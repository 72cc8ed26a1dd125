import { type CountryCode, parsePhoneNumberFromString } from "libphonenumber-js"
import type { Language } from "../text.ts"

/**
 * Dates, times and lists as the visitor's language and the organization's country write them,
 * through `Intl` (never an ISO string or a zone id in a reply): "Thursday, December 3" and
 * "10:30 AM" in the US, "jueves, 3 de diciembre" and "10:30" in Spain, "Donnerstag, 3. Dezember".
 * Dates are wall dates of the organization, so they are formatted as UTC noon of that day.
 */
export interface Formats {
  readonly language: Language
  date(date: string): string
  weekday(date: string): string
  time(time: string): string
  times(times: ReadonlyArray<string>, max?: number): string
  list(items: ReadonlyArray<string>): string
  /** A choice: "haircut or colour", "corte o color", "Beratung oder Einführung". */
  either(items: ReadonlyArray<string>): string
  /** "10:00 AM–6:00 PM" */
  range(open: string, close: string): string
  /**
   * International digits as people write the number: nationally when it is of the organization's
   * country ("(415) 555-0100" in the US, "06 12 34 56 78" in France), else internationally ("+44 7700
   * 900456"); digits the number plan does not know are shown as they are, with their "+".
   */
  phone(digits: string): string
}

const cache = new Map<string, Formats>()

const localeOf = (language: Language, country: string): string => {
  try {
    const [locale] = Intl.getCanonicalLocales(`${language}-${country}`)
    return locale !== undefined && Intl.DateTimeFormat.supportedLocalesOf([locale]).length > 0 ? locale : language
  } catch {
    return language
  }
}

/** How many times a list of free times names before "and N more". */
export const TIMES_SHOWN = 8

const MORE: Readonly<Record<Language, (n: number) => string>> = {
  en: (n) => `${n} more`,
  es: (n) => `${n} más`,
  de: (n) => `${n} weitere`,
  fr: (n) => `${n} autres`,
  pt: (n) => `mais ${n}`,
}

export const formatsFor = (language: Language, country: string): Formats => {
  const key = `${language}-${country}`
  const cached = cache.get(key)
  if (cached !== undefined) return cached
  const locale = localeOf(language, country)
  const dateFormat = new Intl.DateTimeFormat(locale, {
    weekday: "long",
    day: "numeric",
    month: "long",
    timeZone: "UTC",
  })
  const weekdayFormat = new Intl.DateTimeFormat(locale, { weekday: "long", timeZone: "UTC" })
  const timeFormat = new Intl.DateTimeFormat(locale, { hour: "numeric", minute: "2-digit", timeZone: "UTC" })
  const listFormat = new Intl.ListFormat(locale, { style: "long", type: "conjunction" })
  const choiceFormat = new Intl.ListFormat(locale, { style: "long", type: "disjunction" })
  const noon = (date: string) => new Date(`${date}T12:00:00.000Z`)
  const time = (value: string) => timeFormat.format(new Date(`1970-01-01T${value}:00.000Z`))
  const formats: Formats = {
    language,
    date: (date) => dateFormat.format(noon(date)),
    weekday: (date) => weekdayFormat.format(noon(date)),
    time,
    times: (values, max = TIMES_SHOWN) =>
      values.length <= max
        ? listFormat.format(values.map(time))
        : listFormat.format([...values.slice(0, max).map(time), MORE[language](values.length - max)]),
    list: (items) => listFormat.format(items),
    either: (items) => choiceFormat.format(items),
    range: (open, close) => `${time(open)}–${time(close)}`,
    phone: (digits) => {
      const parsed = parsePhoneNumberFromString(`+${digits}`)
      if (parsed === undefined || !parsed.isPossible()) return `+${digits}`
      // National only where the plan knows how the country writes it (with its trunk prefix).
      const national = parsed.country === (country as CountryCode) ? parsed.formatNational() : ""
      return /\D/.test(national) && !national.startsWith(parsed.nationalNumber)
        ? national
        : parsed.formatInternational()
    },
  }
  cache.set(key, formats)
  return formats
}

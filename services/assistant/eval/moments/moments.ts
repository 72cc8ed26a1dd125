/**
 * The same requests played at every hour that matters (issue #23): each weekday of a week at 08:30
 * (before opening), 12:15 (midday), 19:30 (after closing) and 00:10 (just after midnight), in the
 * organization's own zone, over a week that crosses a month end (31 October → 1 November 2026) and
 * daylight-saving changes (Europe on 25 October, the United States on 1 November), in the five
 * languages. Each conversation asks for "today at 15:00", "tomorrow at 10", "the day after tomorrow
 * at 11" or "<the weekday three days ahead> at 10"; the expected booking is computed here from the moment, so a
 * relative word read against the wrong day, zone or clock books the wrong slot and fails.
 */
import { addDays, weekdayOf } from "../../src/engine/calendar-date.ts"
import type { Conversation, ExpectedLead, Lang, Moment } from "../corpus/index.ts"
import type { World } from "../corpus/world.ts"

const OPEN: ReadonlyArray<ReadonlyArray<string>> = [["09:00", "18:00"]]
const hours = { mon: OPEN, tue: OPEN, wed: OPEN, thu: OPEN, fri: OPEN, sat: OPEN, sun: [] }

const business = (timezone: string, country: string, language: Lang): World => ({
  settings: { timezone, country, services: ["consultation"], slotMinutes: 30, capacity: 1, hours },
  profile: { businessName: "Clockwork Clinic", languages: [language], faqs: [] },
})

interface Phrasebook {
  readonly world: World
  readonly phone: string
  readonly digits: string
  readonly intro: (phone: string) => string
  readonly today: string
  readonly tomorrow: string
  readonly dayAfter: string
  /** "on <weekday> at 10", the weekday (0 = Sunday) given. */
  readonly onWeekday: (weekday: number) => string
  readonly closed: string
}

const BOOKS: Record<Lang, Phrasebook> = {
  en: {
    world: business("America/New_York", "US", "en"),
    phone: "415 555 0100",
    digits: "14155550100",
    intro: (phone) => `I'm Ana, ${phone}.`,
    today: "Can I book a consultation today at 3pm?",
    tomorrow: "Can I book a consultation tomorrow at 10am?",
    dayAfter: "Can I book a consultation the day after tomorrow at 11am?",
    onWeekday: (d) =>
      `Can I book a consultation on ${["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"][d]} at 10am?`,
    closed: "closed",
  },
  es: {
    world: business("Europe/Madrid", "ES", "es"),
    phone: "612 345 678",
    digits: "34612345678",
    intro: (phone) => `Soy Ana, ${phone}.`,
    today: "Quiero reservar una consulta hoy a las 15:00",
    tomorrow: "Quiero reservar una consulta mañana a las 10",
    dayAfter: "Quiero reservar una consulta pasado mañana a las 11",
    onWeekday: (d) =>
      `Quiero reservar una consulta el ${["domingo", "lunes", "martes", "miércoles", "jueves", "viernes", "sábado"][d]} a las 10`,
    closed: "cerrad",
  },
  de: {
    world: business("Europe/Berlin", "DE", "de"),
    phone: "030 1234567",
    digits: "49301234567",
    intro: (phone) => `Ich bin Ana, ${phone}.`,
    today: "Ich möchte heute um 15 Uhr einen Termin buchen",
    tomorrow: "Ich möchte morgen um 10 Uhr einen Termin buchen",
    dayAfter: "Ich möchte übermorgen um 11 Uhr einen Termin buchen",
    onWeekday: (d) =>
      `Ich möchte am ${["Sonntag", "Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag"][d]} um 10 Uhr einen Termin buchen`,
    closed: "geschlossen",
  },
  fr: {
    world: business("Europe/Paris", "FR", "fr"),
    phone: "06 12 34 56 78",
    digits: "33612345678",
    intro: (phone) => `Je m'appelle Ana, ${phone}.`,
    today: "Je voudrais prendre rendez-vous aujourd'hui à 15h",
    tomorrow: "Je voudrais prendre rendez-vous demain à 10h",
    dayAfter: "Je voudrais prendre rendez-vous après-demain à 11h",
    onWeekday: (d) =>
      `Je voudrais prendre rendez-vous ${["dimanche", "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi"][d]} à 10h`,
    closed: "fermé",
  },
  pt: {
    world: business("Europe/Lisbon", "PT", "pt"),
    phone: "912 345 678",
    digits: "351912345678",
    intro: (phone) => `Meu nome é Ana, ${phone}.`,
    today: "Queria marcar uma consulta hoje às 15h",
    tomorrow: "Queria marcar uma consulta amanhã às 10h",
    dayAfter: "Queria marcar uma consulta depois de amanhã às 11h",
    onWeekday: (d) =>
      `Queria marcar uma consulta ${["no domingo", "na segunda-feira", "na terça-feira", "na quarta-feira", "na quinta-feira", "na sexta-feira", "no sábado"][d]} às 10h`,
    closed: "fech",
  },
}

/** Sunday 25 October to Sunday 1 November 2026: a month end and both daylight-saving changes. */
const DAYS = Array.from({ length: 8 }, (_, i) => addDays("2026-10-25", i))
const TIMES = [
  ["morning", "08:30"],
  ["midday", "12:15"],
  ["evening", "19:30"],
  ["midnight", "00:10"],
] as const

export const MOMENTS_CORPUS: ReadonlyArray<Conversation> = (Object.keys(BOOKS) as Array<Lang>).flatMap((lang) => {
  const book = BOOKS[lang]
  return DAYS.flatMap((day) =>
    TIMES.flatMap(([label, time]) => {
      const moment: Moment = {
        label: `${["sun", "mon", "tue", "wed", "thu", "fri", "sat"][weekdayOf(day)]} ${label}`,
        date: day,
        time,
      }
      const asks: ReadonlyArray<readonly [string, string, string, string]> = [
        ["today", book.today, day, "15:00"],
        ["tomorrow", book.tomorrow, addDays(day, 1), "10:00"],
        ["day-after", book.dayAfter, addDays(day, 2), "11:00"],
        ["weekday", book.onWeekday(weekdayOf(addDays(day, 3))), addDays(day, 3), "10:00"],
      ]
      return asks.map(([kind, ask, date, at]): Conversation => {
        // Open that day, and (today) the time still ahead: booked; else said closed (for today).
        const open = weekdayOf(date) !== 0 && (date !== day || at > time)
        const lead: ExpectedLead = open
          ? { phone: book.digits, name: "Ana", type: "BOOKING", booking: { date, time: at } }
          : { phone: book.digits, name: "Ana", type: "GENERAL_INQUIRY", booking: null }
        return {
          id: `${lang}-${day}-${label}-${kind}`,
          lang,
          category: "dates",
          turns: [{ say: `${book.intro(book.phone)} ${ask}`, ...(open ? {} : { says: [book.closed] }) }],
          lead,
          world: book.world,
          moment,
        }
      })
    }),
  )
})

import { at, type Conversation, conversation, lead } from "./types.ts"

const BOOK = "BOOKING"

/**
 * Dates and times as people type them, the classes the fourth held-out set found (none of its
 * sentences): an hour right after a weekday ("el lunes 11am", "friday 3pm", "sexta 16 hrs") is that
 * weekday's hour, not a day of the month; a bare number after a weekday whose date is weeks away is
 * asked about; British "half 3" is half past three; Portuguese written without accents ("as 3",
 * "amanha").
 */
const en = conversation("en")
const es = conversation("es")
const de = conversation("de")
const fr = conversation("fr")
const pt = conversation("pt")

export const WRITTEN_TIMES: ReadonlyArray<Conversation> = [
  es(
    "written-weekday-11am",
    "dates",
    [
      { say: "quería reservar una consulta el lunes 11am", says: ["30 de noviembre", "11:00"] },
      "soy Marta Gil, 612 345 601",
    ],
    lead("34612345601", "Marta Gil", BOOK, at("2026-11-30", "11:00")),
  ),
  en(
    "written-weekday-3pm",
    "dates",
    [
      { say: "could i get an onboarding session friday 3pm", says: ["November 27", "3:00 PM"] },
      "Lee Grant 415 555 0191",
    ],
    lead("14155550191", "Lee Grant", BOOK, at("2026-11-27", "15:00", "onboarding session")),
  ),
  fr(
    "written-weekday-9h30",
    "dates",
    [
      { say: "une formation jeudi 9h30 c'est possible ?", says: ["26 novembre", "9 h 30|9:30"] },
      "Paul Morel, 06 12 34 56 01",
    ],
    lead("33612345601", "Paul Morel", BOOK, at("2026-11-26", "09:30", "formation")),
  ),
  pt(
    "written-weekday-16hrs",
    "dates",
    [
      { say: "quero marcar uma consulta sexta 16 hrs", says: ["27 de novembro", "16:00"] },
      "Rita Alves (11) 98765-4301",
    ],
    lead("5511987654301", "Rita Alves", BOOK, at("2026-11-27", "16:00")),
  ),
  de(
    "written-weekday-14-uhr",
    "dates",
    [{ say: "Beratung Dienstag 14 Uhr bitte", says: ["1. Dezember", "14:00"] }, "Jan Roth, 0171 2345601"],
    lead("491712345601", "Jan Roth", BOOK, at("2026-12-01", "14:00", "Beratung")),
  ),
  // A bare number after a weekday whose date is weeks away: asked, then the day named is booked.
  es(
    "written-weekday-far-date",
    "dates",
    [
      {
        say: "¿puedo reservar una consulta el lunes 21?",
        says: ["30 de noviembre", "21 de diciembre"],
        never: ["reservado"],
      },
      "el 30 a las 10",
      "soy Eva Ruiz, 612 345 602",
    ],
    lead("34612345602", "Eva Ruiz", BOOK, at("2026-11-30", "10:00")),
  ),
  en(
    "written-weekday-far-other-day",
    "dates",
    [
      { say: "thursday 21 for a consultation?", says: ["Thursday, November 26", "December 21"], never: ["booked"] },
      "thursday at 11",
      "I'm Ada Moss, 415 555 0192",
    ],
    lead("14155550192", "Ada Moss", BOOK, at("2026-11-26", "11:00")),
  ),
  // British "half 3": half past three.
  en(
    "written-half-3",
    "dates",
    [{ say: "can i come in for a consultation tomorrow at half 3", says: ["3:30 PM"] }, "Tom Hale, 415 555 0193"],
    lead("14155550193", "Tom Hale", BOOK, at("2026-11-26", "15:30")),
  ),
  en(
    "written-half-ten",
    "dates",
    [{ say: "half ten on friday for a consultation please", says: ["10:30 AM"] }, "Amy Lund 415 555 0194"],
    lead("14155550194", "Amy Lund", BOOK, at("2026-11-27", "10:30")),
  ),
  de(
    "written-halb-vier",
    "dates",
    [{ say: "Morgen um halb vier eine Beratung?", says: ["15:30"] }, "Lena Beck, 0171 2345602"],
    lead("491712345602", "Lena Beck", BOOK, at("2026-11-26", "15:30", "Beratung")),
  ),
  // Portuguese typed without accents.
  pt(
    "written-as-3",
    "dates",
    [{ say: "queria marcar uma consulta amanha as 3 da tarde", says: ["15:00"] }, "Caio Reis, (11) 98765-4302"],
    lead("5511987654302", "Caio Reis", BOOK, at("2026-11-26", "15:00")),
  ),
  pt(
    "written-pelas-10",
    "dates",
    [{ say: "da pra marcar consulta sexta pelas 10?", says: ["10:00"] }, "Ana Prado (11) 98765-4303"],
    lead("5511987654303", "Ana Prado", BOOK, at("2026-11-27", "10:00")),
  ),
]

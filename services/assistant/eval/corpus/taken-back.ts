import { at, type Conversation, conversation, lead } from "./types.ts"

const BOOK = "BOOKING"

/**
 * A day or time taken back in the same message, and a service named by a verb of its noun — classes
 * the fifth held-out set found (none of its sentences): what follows "no wait", "no espera, mejor",
 * "nein warte, lieber", "non attendez, plutôt", "não, espera" is the slot asked for, with the hour
 * written before it kept when only the day is taken back.
 */
const en = conversation("en")
const es = conversation("es")
const de = conversation("de")
const fr = conversation("fr")
const pt = conversation("pt")

export const TAKEN_BACK: ReadonlyArray<Conversation> = [
  en(
    "taken-back",
    "dates",
    [
      { say: "a consultation Thursday at 2, no wait, Friday at 3", says: ["November 27", "3:00 PM"] },
      "Ben Ross 415 555 0194",
    ],
    lead("14155550194", "Ben Ross", BOOK, at("2026-11-27", "15:00", "consultation")),
  ),
  es(
    "taken-back",
    "dates",
    [
      { say: "una consulta el jueves a las 12, no espera, mejor el viernes", says: ["27 de noviembre", "12:00"] },
      "Eva Sanz, 612 345 604",
    ],
    lead("34612345604", "Eva Sanz", BOOK, at("2026-11-27", "12:00", "consulta")),
  ),
  de(
    "taken-back",
    "dates",
    [
      { say: "Beratung am Donnerstag um 9, nein warte, lieber Freitag um 9", says: ["27. November", "9:00"] },
      "Max Vogt, 0171 2345604",
    ],
    lead("491712345604", "Max Vogt", BOOK, at("2026-11-27", "09:00", "Beratung")),
  ),
  fr(
    "taken-back",
    "dates",
    [
      { say: "une consultation jeudi à 14h, non attendez, plutôt vendredi", says: ["27 novembre", "14:00|14 h 00"] },
      "Léa Petit, 06 12 34 56 04",
    ],
    lead("33612345604", "Léa Petit", BOOK, at("2026-11-27", "14:00", "consultation")),
  ),
  pt(
    "taken-back",
    "dates",
    [
      { say: "uma consulta quinta às 9. Não, espera, sexta às 9", says: ["27 de novembro", "9:00"] },
      "Ana Reis (11) 98765-4304",
    ],
    lead("5511987654304", "Ana Reis", BOOK, at("2026-11-27", "09:00", "consulta")),
  ),
  en(
    "verb-service",
    "booking",
    [{ say: "could I get onboarded on Friday at 11?", says: ["November 27", "11:00 AM"] }, "Kim Lee 415 555 0195"],
    lead("14155550195", "Kim Lee", BOOK, at("2026-11-27", "11:00", "onboarding session")),
  ),
]

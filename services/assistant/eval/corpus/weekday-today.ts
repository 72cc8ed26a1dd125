import { at, type Conversation, conversation, lead, type Moment } from "./types.ts"

const BOOK = "BOOKING"

/**
 * Today's weekday named on that day (found on a visitor walk on a Saturday, not by a held-out set):
 * "Saturday at 11" on a Saturday morning is today at 11 — it was read as the Saturday a week on, or
 * as today, depending on the hour named; once that hour has passed the same weekday a week on is
 * proposed and booked only when accepted. Saturday 28 November 2026 opens 10:00–14:00 (`world.ts`).
 */
const en = conversation("en")
const es = conversation("es")
const de = conversation("de")
const fr = conversation("fr")
const pt = conversation("pt")

const MORNING: Moment = { label: "Saturday 09:15", date: "2026-11-28", time: "09:15" }
const MIDDAY: Moment = { label: "Saturday 12:30", date: "2026-11-28", time: "12:30" }

const today = (c: Conversation): Conversation => ({ ...c, moment: MORNING })
const passed = (c: Conversation): Conversation => ({ ...c, moment: MIDDAY })

export const WEEKDAY_TODAY: ReadonlyArray<Conversation> = [
  today(
    en(
      "weekday-today-morning",
      "dates",
      [
        { say: "can I get a consultation Saturday at 11?", says: ["November 28", "11:00 AM"] },
        "Nora Blake, 415 555 0192",
      ],
      lead("14155550192", "Nora Blake", BOOK, at("2026-11-28", "11:00", "consultation")),
    ),
  ),
  passed(
    en(
      "weekday-today-passed",
      "dates",
      [
        { say: "can I get a consultation Saturday at 11?", says: ["December 5", "11:00 AM"] },
        "yes please",
        "Nora Blake, 415 555 0193",
      ],
      lead("14155550193", "Nora Blake", BOOK, at("2026-12-05", "11:00", "consultation")),
    ),
  ),
  today(
    es(
      "weekday-today-morning",
      "dates",
      [
        { say: "una consulta el sábado a las 11, ¿puede ser?", says: ["28 de noviembre", "11:00"] },
        "Lucía Pardo, 612 345 602",
      ],
      lead("34612345602", "Lucía Pardo", BOOK, at("2026-11-28", "11:00", "consulta")),
    ),
  ),
  passed(
    es(
      "weekday-today-passed",
      "dates",
      [
        { say: "una consulta el sábado a las 11, ¿puede ser?", says: ["5 de diciembre", "11:00"] },
        "sí",
        "Lucía Pardo, 612 345 603",
      ],
      lead("34612345603", "Lucía Pardo", BOOK, at("2026-12-05", "11:00", "consulta")),
    ),
  ),
  today(
    de(
      "weekday-today-morning",
      "dates",
      [{ say: "Beratung am Samstag um 11 möglich?", says: ["28. November", "11:00"] }, "Ute Brand, 0171 2345602"],
      lead("491712345602", "Ute Brand", BOOK, at("2026-11-28", "11:00", "Beratung")),
    ),
  ),
  passed(
    de(
      "weekday-today-passed",
      "dates",
      [{ say: "Beratung am Samstag um 11 möglich?", says: ["5. Dezember", "11:00"] }, "ja", "Ute Brand, 0171 2345603"],
      lead("491712345603", "Ute Brand", BOOK, at("2026-12-05", "11:00", "Beratung")),
    ),
  ),
  today(
    fr(
      "weekday-today-morning",
      "dates",
      [{ say: "une consultation samedi à 11h ?", says: ["28 novembre", "11:00|11 h 00"] }, "Anne Roux, 06 12 34 56 02"],
      lead("33612345602", "Anne Roux", BOOK, at("2026-11-28", "11:00", "consultation")),
    ),
  ),
  passed(
    fr(
      "weekday-today-passed",
      "dates",
      [
        { say: "une consultation samedi à 11h ?", says: ["5 décembre", "11:00|11 h 00"] },
        "oui",
        "Anne Roux, 06 12 34 56 03",
      ],
      lead("33612345603", "Anne Roux", BOOK, at("2026-12-05", "11:00", "consultation")),
    ),
  ),
  today(
    pt(
      "weekday-today-morning",
      "dates",
      [
        { say: "dá pra marcar uma consulta sábado às 11?", says: ["28 de novembro", "11:00"] },
        "Lia Souza (11) 98765-4302",
      ],
      lead("5511987654302", "Lia Souza", BOOK, at("2026-11-28", "11:00", "consulta")),
    ),
  ),
  passed(
    pt(
      "weekday-today-passed",
      "dates",
      [
        { say: "dá pra marcar uma consulta sábado às 11?", says: ["5 de dezembro", "11:00"] },
        "sim",
        "Lia Souza (11) 98765-4303",
      ],
      lead("5511987654303", "Lia Souza", BOOK, at("2026-12-05", "11:00", "consulta")),
    ),
  ),
]

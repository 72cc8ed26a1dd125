import { at, type Conversation, conversation, lead } from "./types.ts"

const BOOK = "BOOKING"

/**
 * Manners a tester walking the product found missing: a "hello" to the widget, which showed the
 * greeting already, is asked what the visitor needs instead of greeted again; a name sent after a
 * booking made without one is thanked for and kept on the lead (on a phone channel the booking never
 * asks it: `src/engine/dialogue.test.ts`; here a visitor who skipped the question).
 */
const en = conversation("en")
const es = conversation("es")
const de = conversation("de")
const fr = conversation("fr")
const pt = conversation("pt")

/** The widget's greeting, which a "hello" must not repeat. */
const GREETED = ["welcome", "bienvenid", "willkommen", "bienvenue", "bem-vind"]

export const MANNERS: ReadonlyArray<Conversation> = [
  // A "hello" on the widget: what they need asked, the greeting not said again.
  en(
    "manners-hello",
    "general",
    [{ say: "Hello", says: ["book an appointment", "call you back"], never: GREETED }, "what are your hours?"],
    null,
  ),
  es("manners-hola", "general", [{ say: "hola", says: ["reservarte una cita"], never: GREETED }], null),
  de("manners-hallo", "general", [{ say: "Hallo", says: ["Termin"], never: GREETED }], null),
  fr("manners-bonjour", "general", [{ say: "bonjour", says: ["rendez-vous"], never: GREETED }], null),
  pt("manners-ola", "general", [{ say: "olá", says: ["agendar um horário"], never: GREETED }], null),
  // A name sent after a booking made without one: thanked by name, kept on the lead, no menu.
  en(
    "manners-name-after-booking",
    "name",
    [
      "I'd like to book a consultation on Friday at 10:30",
      "yes please",
      "415 555 0178",
      { say: "Dana Reyes", says: ["Dana Reyes", "Friday, November 27"], never: ["What would you like to do"] },
    ],
    lead("14155550178", "Dana Reyes", BOOK, at("2026-11-27", "10:30")),
  ),
  es(
    "manners-nombre-tras-reserva",
    "name",
    [
      "Quiero reservar una consulta el viernes a las 10:30",
      "sí",
      "612 000 178",
      { say: "Lucía Romero", says: ["Lucía Romero", "viernes"], never: ["Qué necesitas"] },
    ],
    lead("34612000178", "Lucía Romero", BOOK, at("2026-11-27", "10:30")),
  ),
]

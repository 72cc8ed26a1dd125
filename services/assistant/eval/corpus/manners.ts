import { type Conversation, conversation } from "./types.ts"

/**
 * Manners a tester walking the product found missing: a "hello" to the widget, which showed the
 * greeting already, is asked what the visitor needs instead of greeted again.
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
]

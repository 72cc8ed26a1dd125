import { at, type Conversation, conversation, type Lang, lead } from "./types.ts"
import { WORLDS, type World } from "./world.ts"

/**
 * A hair salon with two services, "haircut" and "colour" (a contract-only tester's finding): a
 * service written another way ("color" for "colour") is that service, never the first one.
 */
const salon = (lang: Lang): World => ({
  settings: { ...WORLDS[lang].settings, services: ["haircut", "colour"] },
  profile: { businessName: "Studio Nine", languages: [lang], faqs: [] },
})

const at_ = (lang: Lang) => {
  const make = conversation(lang)
  return (...args: Parameters<typeof make>): Conversation => ({ ...make(...args), world: salon(lang) })
}
const en = at_("en")
const es = at_("es")
const BOOK = "BOOKING"

export const SERVICES: ReadonlyArray<Conversation> = [
  en(
    "service-colour-spelled-color",
    "booking",
    [
      { say: "I need a color appointment on Friday at 4pm", says: ["Colour", "4:00 PM"], never: ["haircut"] },
      "I'm Nora Quinn, 415 555 0181",
    ],
    lead("14155550181", "Nora Quinn", BOOK, at("2026-11-27", "16:00", "colour")),
  ),
  en(
    "service-colour-spelled-colour",
    "booking",
    [
      { say: "I need a colour appointment on Friday at 4pm", says: ["Colour", "4:00 PM"], never: ["haircut"] },
      "I'm Nora Quinn, 415 555 0182",
    ],
    lead("14155550182", "Nora Quinn", BOOK, at("2026-11-27", "16:00", "colour")),
  ),
  es(
    "service-colour-spelled-color",
    "booking",
    [
      { say: "Necesito una cita de color el viernes a las 16:00", says: ["colour", "16:00"], never: ["haircut"] },
      "Soy Lucía Prado, 612 300 481",
    ],
    lead("34612300481", "Lucía Prado", BOOK, at("2026-11-27", "16:00", "colour")),
  ),
]

import { at, type Conversation, conversation, type Lang, lead } from "./types.ts"
import { WORLDS, type World } from "./world.ts"

/**
 * A hair salon with two services, "haircut" and "colour" (a contract-only tester's finding): a
 * service written another way ("color" for "colour") is that service, never the first one; a
 * booking that names none is asked which, with the day and time kept for the answer; a salon with
 * one service is never asked about.
 */
const salon = (lang: Lang, services: ReadonlyArray<string> = ["haircut", "colour"]): World => ({
  settings: { ...WORLDS[lang].settings, services },
  profile: { businessName: "Studio Nine", languages: [lang], faqs: [] },
})

const at_ = (lang: Lang, services?: ReadonlyArray<string>) => {
  const make = conversation(lang)
  return (...args: Parameters<typeof make>): Conversation => ({ ...make(...args), world: salon(lang, services) })
}
const en = at_("en")
const es = at_("es")
const fr = at_("fr")
const enOne = at_("en", ["haircut"])
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
  fr(
    "service-couleur-asked",
    "booking",
    [
      {
        say: "Je voudrais un rendez-vous pour une couleur vendredi à 16h",
        says: ["Quelle prestation", "haircut ou colour"],
      },
      { say: "colour", says: ["16:00"], never: ["haircut"] },
      "Je m'appelle Léa Martin, 06 12 34 56 90",
    ],
    lead("33612345690", "Léa Martin", BOOK, at("2026-11-27", "16:00", "colour")),
  ),
  // The widget at 375 px runs the same engine: times offered for colour, never for haircut.
  es(
    "service-widget-color-afternoon",
    "booking",
    [
      {
        say: "necesito una cita para color el viernes por la tarde",
        says: ["colour", "16:00"],
        never: ["haircut", "9:00"],
      },
      { say: "a las 16:00", never: ["haircut"] },
      "Soy Marta Gil, 612 300 482",
    ],
    lead("34612300482", "Marta Gil", BOOK, at("2026-11-27", "16:00", "colour")),
  ),
  en(
    "service-asked-named-in-answer",
    "booking",
    [
      { say: "I need an appointment on Friday at 4pm", says: ["Which service", "haircut or colour"] },
      { say: "a haircut please", says: ["Haircut", "4:00 PM"] },
      "I'm Nora Quinn, 415 555 0183",
    ],
    lead("14155550183", "Nora Quinn", BOOK, at("2026-11-27", "16:00", "haircut")),
  ),
  es(
    "service-asked-named-in-answer",
    "booking",
    [
      { say: "quiero una cita el viernes a las 16:00", says: ["Qué servicio", "haircut o colour"] },
      { say: "el color", says: ["16:00"], never: ["haircut"] },
      "Soy Lucía Prado, 612 300 483",
    ],
    lead("34612300483", "Lucía Prado", BOOK, at("2026-11-27", "16:00", "colour")),
  ),
  // Asked twice, answered without a service: the first one proposed, booked only on a yes.
  en(
    "service-asked-twice-then-proposed",
    "booking",
    [
      { say: "I need an appointment on Friday at 4pm", says: ["Which service"] },
      { say: "I'm Nora Quinn, 415 555 0184", says: ["Which service"] },
      { say: "whatever is free", says: ["Haircut", "shall I book"] },
      "yes please",
    ],
    lead("14155550184", "Nora Quinn", BOOK, at("2026-11-27", "16:00", "haircut")),
  ),
  // A visitor who asks something else instead is answered, not asked again.
  en(
    "service-asked-topic-changed",
    "general",
    [
      { say: "I need an appointment on Friday at 4pm", says: ["Which service"] },
      { say: "what are your opening hours?", says: ["Monday"], never: ["Which service"] },
    ],
    null,
  ),
  // One service: never asked about.
  enOne(
    "service-one-never-asked",
    "booking",
    [
      { say: "I need an appointment on Friday at 4pm", says: ["Haircut", "4:00 PM"], never: ["Which service"] },
      "I'm Nora Quinn, 415 555 0185",
    ],
    lead("14155550185", "Nora Quinn", BOOK, at("2026-11-27", "16:00", "haircut")),
  ),
]

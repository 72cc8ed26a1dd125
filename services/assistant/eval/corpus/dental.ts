import { type Conversation, conversation, type Lang, lead } from "./types.ts"
import { WORLDS, type World } from "./world.ts"

/**
 * A dental clinic in each language: an FAQ on insurance asked with plurals and other verbs ("which
 * insurances do you take?"), and an `about` that names the services without prices, asked for a
 * price ("how much is a cleaning?"): the part it can answer, then that it cannot give the price and
 * a callback.
 */
const clinic = (
  lang: Lang,
  about: string,
  faq: { readonly question: string; readonly answer: string },
  handoffMessage?: string,
): World => ({
  settings: WORLDS[lang].settings,
  profile: {
    businessName: "Bright Smile",
    languages: [lang],
    about,
    faqs: [faq],
    ...(handoffMessage === undefined ? {} : { handoffMessage }),
  },
})

const DENTAL: Record<Lang, World> = {
  en: clinic("en", "Bright Smile is a dental clinic. We do check-ups, cleaning and whitening.", {
    question: "Do you accept insurance?",
    answer: "We accept Delta Dental, Aetna and Cigna.",
  }),
  es: clinic(
    "es",
    "Bright Smile es una clínica dental. Hacemos revisiones, limpiezas y blanqueamientos.",
    { question: "¿Aceptáis seguros?", answer: "Trabajamos con Sanitas, Adeslas y DKV." },
    "No tengo esa información ahora mismo. ¿Quieres que alguien del equipo te llame?",
  ),
  de: clinic("de", "Bright Smile ist eine Zahnarztpraxis. Wir machen Kontrollen, Zahnreinigungen und Bleaching.", {
    question: "Akzeptieren Sie private Versicherungen?",
    answer: "Wir rechnen mit allen privaten Kassen und der Allianz ab.",
  }),
  fr: clinic(
    "fr",
    "Bright Smile est un cabinet dentaire. Nous faisons les contrôles, le détartrage et le blanchiment.",
    {
      question: "Acceptez-vous les mutuelles ?",
      answer: "Nous acceptons la MGEN, Harmonie Mutuelle et AXA.",
    },
  ),
  pt: clinic("pt", "Bright Smile é uma clínica odontológica. Fazemos revisões, limpezas e clareamento.", {
    question: "Vocês aceitam convênio?",
    answer: "Atendemos Amil, Bradesco Saúde e SulAmérica.",
  }),
}

const at = (lang: Lang) => {
  const make = conversation(lang)
  return (...args: Parameters<typeof make>): Conversation => ({ ...make(...args), world: DENTAL[lang] })
}

const en = at("en")
const es = at("es")
const de = at("de")
const fr = at("fr")
const pt = at("pt")

export const DENTAL_CONVERSATIONS: ReadonlyArray<Conversation> = [
  en("dental-insurance", "faq", [{ say: "which insurances do you take?", says: ["Delta Dental"] }], null),
  en(
    "dental-whitening-price",
    "faq",
    [
      { say: "Do you do teeth whitening? I would like to know the price", says: ["whitening", "price"] },
      { say: "yes please, 415-555-0177", says: ["(415) 555-0177"] },
    ],
    lead("14155550177", "", "CALLBACK_REQUESTED"),
  ),
  en("dental-cleaning-price", "faq", [{ say: "How much is a cleaning?", says: ["cleaning", "price", "call"] }], null),
  es("dental-insurance", "faq", [{ say: "¿qué seguros aceptan?", says: ["Sanitas"] }], null),
  es(
    "dental-cleaning-price",
    "faq",
    [{ say: "¿Cuánto cuesta una limpieza?", says: ["limpiezas", "precio", "No tengo esa información"] }],
    null,
  ),
  de("dental-insurance", "faq", [{ say: "welche Versicherungen nehmen Sie?", says: ["Allianz"] }], null),
  de(
    "dental-cleaning-price",
    "faq",
    [{ say: "Was kostet eine Zahnreinigung?", says: ["Zahnreinigungen", "Preis"] }],
    null,
  ),
  fr("dental-insurance", "faq", [{ say: "vous prenez quelles assurances ?", says: ["MGEN"] }], null),
  fr("dental-whitening-price", "faq", [{ say: "Combien coûte le blanchiment ?", says: ["blanchiment", "prix"] }], null),
  pt("dental-insurance", "faq", [{ say: "vocês aceitam quais convênios?", says: ["Amil"] }], null),
  pt("dental-cleaning-price", "faq", [{ say: "Quanto custa uma limpeza?", says: ["limpezas", "preço"] }], null),
]

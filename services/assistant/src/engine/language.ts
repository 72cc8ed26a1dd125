import { detectLanguage } from "./language-detector.ts"
import { fold, LANGUAGES, type Language, lexicon } from "./text.ts"

/**
 * Which of the organization's languages a visitor writes in. `eld` (an n-gram detector built for
 * short texts, which on chat messages did better than franc here: "quiero una cita el jueves",
 * "rappelez-moi svp", "hi im sarah") scores the text; a few very common words of each language add
 * to that score, since a greeting or a two-word message has too few n-grams to be sure.
 *
 * A conversation keeps its language until a message is clearly in another one of the profile's
 * languages: "10:30", "Dana" or "ok" never switch it.
 */

const COMMON_WORDS = lexicon({
  en: [
    "hi",
    "hello",
    "good morning",
    "good afternoon",
    "good evening",
    "hey",
    "thanks",
    "thank you",
    "please",
    "the",
    "you",
    "your",
    "i",
    "i'm",
    "im",
    "my",
    "is",
    "are",
    "what",
    "can",
    "could",
    "would",
    "do",
    "does",
    "book",
    "call",
    "tomorrow",
    "today",
    "appointment",
    "yes",
    "want",
    "need",
    "like",
    "and",
    "with",
    "for",
    "how",
    "when",
    "where",
    "there",
    "it",
    "me",
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
    "morning",
    "afternoon",
    "evening",
    "tonight",
    "week",
    "at",
  ],
  es: [
    "hola",
    "buenas",
    "buenos dias",
    "buenas tardes",
    "buenas noches",
    "ahora",
    "abierto",
    "abiertos",
    "gracias",
    "por favor",
    "el",
    "la",
    "los",
    "las",
    "que",
    "de",
    "mi",
    "es",
    "una",
    "quiero",
    "cita",
    "manana",
    "hoy",
    "soy",
    "me",
    "tengo",
    "teneis",
    "tienen",
    "puedo",
    "llamadme",
    "llamame",
    "vale",
    "si",
    "donde",
    "cuanto",
    "cuando",
    "para",
    "con",
    "y",
    "hay",
    "abris",
    "esta",
    "estan",
    "pedido",
    "lunes",
    "martes",
    "miercoles",
    "jueves",
    "viernes",
    "sabado",
    "domingo",
    "tarde",
    "noche",
    "semana",
    "proxima",
    "proximo",
  ],
  de: [
    "hallo",
    "guten",
    "danke",
    "bitte",
    "ich",
    "sie",
    "der",
    "die",
    "das",
    "und",
    "nicht",
    "mein",
    "meine",
    "ist",
    "ein",
    "eine",
    "termin",
    "morgen",
    "heute",
    "habt",
    "haben",
    "konnen",
    "kann",
    "wir",
    "ja",
    "gerne",
    "wie",
    "wo",
    "was",
    "wann",
    "mich",
    "um",
    "uhr",
    "es",
    "gibt",
    "euer",
    "eure",
    "ihr",
    "montag",
    "dienstag",
    "mittwoch",
    "donnerstag",
    "freitag",
    "samstag",
    "sonntag",
    "vormittag",
    "nachmittag",
    "abend",
    "woche",
    "nachste",
    "nachsten",
  ],
  fr: [
    "bonjour",
    "bonsoir",
    "salut",
    "merci",
    "je",
    "vous",
    "le",
    "les",
    "des",
    "et",
    "est",
    "mon",
    "une",
    "un",
    "pour",
    "avez",
    "c'est",
    "suis",
    "rendez-vous",
    "rdv",
    "demain",
    "aujourd'hui",
    "oui",
    "moi",
    "ou",
    "quel",
    "quels",
    "quelle",
    "combien",
    "votre",
    "vos",
    "peux",
    "pouvez",
    "svp",
    "ca",
    "on",
    "au",
    "pas",
    "lundi",
    "mardi",
    "mercredi",
    "jeudi",
    "vendredi",
    "samedi",
    "dimanche",
    "matin",
    "apres-midi",
    "soir",
    "semaine",
    "prochain",
    "prochaine",
  ],
  pt: [
    "ola",
    "oi",
    "bom dia",
    "boa tarde",
    "boa noite",
    "obrigado",
    "obrigada",
    "o",
    "os",
    "as",
    "que",
    "de",
    "nao",
    "voce",
    "voces",
    "meu",
    "minha",
    "e",
    "uma",
    "um",
    "para",
    "quero",
    "queria",
    "tem",
    "amanha",
    "hoje",
    "sim",
    "aqui",
    "me",
    "liga",
    "horario",
    "quanto",
    "onde",
    "qual",
    "pode",
    "posso",
    "da",
    "pra",
    "no",
    "na",
    "com",
    "segunda",
    "terca",
    "quarta",
    "quinta",
    "sexta",
    "sabado",
    "domingo",
    "manha",
    "tarde",
    "noite",
    "semana",
    "proxima",
    "proximo",
  ],
})

const COMMON_GLOBAL = new Map(
  (["en", "es", "de", "fr", "pt"] as const).map((language) => [
    language,
    new RegExp(COMMON_WORDS.of(language).source, "gu"),
  ]),
)

const WORD_WEIGHT = 0.12
/** A message switches the conversation's language only when another one wins by this much. */
const SWITCH_MARGIN = 0.15
/** The first message leaves the default language by a smaller margin. */
const FIRST_MARGIN = 0.05

const scoresOf = (text: string, languages: ReadonlyArray<Language>): Map<Language, number> => {
  const letters = text.replace(/[\d\p{P}\p{S}]+/gu, " ").trim()
  // On one or two words the n-gram scores are noise ("Hello" reads as Italian): only the words count.
  const result = letters.length === 0 ? undefined : detectLanguage(letters)
  const detected = result?.isReliable() === true ? result.getScores() : {}
  const folded = fold(letters)
  const scores = new Map<Language, number>()
  for (const language of languages) {
    const common = folded.match(COMMON_GLOBAL.get(language) ?? COMMON_WORDS.of(language))?.length ?? 0
    // Spanish alone opens its questions and exclamations with "¿" and "¡".
    const marks = language === "es" ? (text.match(/[¿¡]/gu)?.length ?? 0) : 0
    scores.set(language, (detected[language] ?? 0) + WORD_WEIGHT * (common + marks))
  }
  return scores
}

/**
 * The language to answer `text` in: one of `languages` (the profile's, the first the default),
 * staying with `current` (the conversation's so far) unless the text is clearly in another.
 */
export const languageOf = (
  text: string,
  languages: ReadonlyArray<Language>,
  current: Language | undefined,
): Language => {
  const fallback = current ?? languages[0] ?? "en"
  if (languages.length <= 1) return fallback
  const scores = scoresOf(text, LANGUAGES)
  // Written in a language the business does not offer: its default (or the conversation's), not a neighbour.
  let overall: Language = fallback
  for (const [language, score] of scores) if (score > (scores.get(overall) ?? 0)) overall = language
  if (!languages.includes(overall)) return fallback
  let best: Language = fallback
  let bestScore = scores.get(fallback) ?? 0
  for (const [language, score] of scores) {
    if (languages.includes(language) && score > bestScore) {
      best = language
      bestScore = score
    }
  }
  if (best === fallback || bestScore === 0) return fallback
  const margin = bestScore - (scores.get(fallback) ?? 0)
  return margin >= (current === undefined ? FIRST_MARGIN : SWITCH_MARGIN) ? best : fallback
}

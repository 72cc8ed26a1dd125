import { fold, type Language, lexicon, type PerLanguage } from "./text.ts"

/**
 * What a visitor asks for in one message, in any of the five languages (the words of all five are
 * read, since visitors mix them). Written for folded text (lower case, no accents): see `fold`.
 */
export interface Intents {
  /** Asks to be called (back). */
  readonly callback: boolean
  /** Asks not to be called: withdraws a callback request. */
  readonly noCall: boolean
  /** Asks for a demo (a demo request is not a booking, whatever words it uses). */
  readonly demo: boolean
  /** Asks to book, schedule or see free times. */
  readonly booking: boolean
  /** Asks to cancel (a booking, when there is one). */
  readonly cancel: boolean
  /** Asks to move a booking to another time. */
  readonly move: boolean
  /** Asks about opening hours. */
  readonly hours: boolean
  /** Asks which services there are. */
  readonly services: boolean
  /** Asks who the business is. */
  readonly businessName: boolean
  /** A question (a question mark or a question word first). */
  readonly question: boolean
  readonly greeting: boolean
  /** Thanks, bye, "just browsing": nothing to do. */
  readonly closing: boolean
  /** Yes / no, as an answer to a question the assistant asked. */
  readonly yes: boolean
  readonly no: boolean
}

const CALLBACK = lexicon({
  en: [
    "call me",
    "call me back",
    "call back",
    "callback",
    "call-back",
    "ring me",
    "give me a call",
    "give me a ring",
    "give me a buzz",
    "give us a call",
    "phone me",
    "reach me by phone",
    "reach me on",
    "reach me at",
    "can you reach me",
    "someone call",
    "somebody call",
    "someone to call",
    "you call me",
    "please call",
    "could you phone me",
    "can you phone me",
    "call or text",
    "text or call",
    "call +",
    "pls call",
    "call me at",
    "ring back",
    "calling me",
  ],
  es: [
    "llamame",
    "llamadme",
    "llameme",
    "llamenme",
    "me llamen",
    "me llamaran",
    "me llamase",
    "me llamen",
    "que me llame",
    "me podeis llamar",
    "me puede llamar",
    "me pueden llamar",
    "me podrias llamar",
    "podeis llamarme",
    "puede llamarme",
    "devolverme la llamada",
    "devolver la llamada",
    "me devolveis la llamada",
    "me llamais",
    "llamarme",
    "me llama",
    "que me llamen",
  ],
  de: [
    "ruf mich an",
    "rufen sie mich an",
    "rufen sie mich bitte an",
    "rufen sie mich zuruck",
    "ruft mich an",
    "mich anrufen",
    "mich zuruckrufen",
    "zuruckrufen",
    "ruckruf",
    "ruckrufen",
    "anrufen",
    "um ruckruf",
    "mich mal anrufen",
    "telefonisch melden",
  ],
  fr: [
    "rappelez-moi",
    "rappelez moi",
    "appelez-moi",
    "appelez moi",
    "me rappeler",
    "m'appeler",
    "me telephoner",
    "etre rappele",
    "etre rappelee",
    "rappel",
    "me recontacter par telephone",
    "me rappelle",
    "me rappeliez",
    "m'appeliez",
    "appelle-moi",
    "rappelle-moi",
  ],
  pt: [
    "me liga",
    "me ligar",
    "me ligue",
    "me liguem",
    "ligue para mim",
    "ligar para mim",
    "me ligasse",
    "me ligassem",
    "me retornar",
    "retornar a ligacao",
    "me telefonar",
    "me telefone",
    "alguem me ligue",
    "alguem me ligar",
    "pode ligar",
    "podem ligar",
    "liga pra mim",
    "me retorne",
    "retorno por telefone",
  ],
})

const NO_CALL = lexicon({
  en: [
    "don't call",
    "dont call",
    "do not call",
    "no need to call",
    "don't ring",
    "do not ring",
    "no calls",
    "not call me",
    "don't phone",
    "do not phone",
    "no phone calls",
    "please don't call",
    "rather not be called",
  ],
  es: [
    "no me llameis",
    "no me llames",
    "no me llamen",
    "no me llame",
    "no hace falta que me llameis",
    "no hace falta llamar",
    "no me llameis",
    "sin llamadas",
    "no llameis",
    "mejor no me llameis",
  ],
  de: [
    "nicht anrufen",
    "nicht an",
    "keinen anruf",
    "kein anruf",
    "keinen ruckruf",
    "kein ruckruf",
    "nicht zuruckrufen",
    "doch nicht anrufen",
    "bitte nicht anrufen",
  ],
  fr: [
    "ne m'appelez pas",
    "ne me rappelez pas",
    "pas besoin de m'appeler",
    "pas besoin de me rappeler",
    "ne pas m'appeler",
    "ne pas me rappeler",
    "ne m'appelez plus",
    "pas d'appel",
  ],
  pt: [
    "nao precisa ligar",
    "nao precisa me ligar",
    "nao me ligue",
    "nao me liguem",
    "nao me liga",
    "nao ligue",
    "nao liguem",
    "sem ligacao",
    "nao precisa de ligacao",
  ],
})

const DEMO = lexicon({
  en: [
    "demo",
    "demos",
    "demonstration",
    "walkthrough",
    "walk-through",
    "walk through",
    "product tour",
    "see it in action",
    "show me how",
    "show us how",
    "show me the product",
    "presentation of the product",
  ],
  es: [
    "demo",
    "demos",
    "demostracion",
    "demostraciones",
    "presentacion del producto",
    "presentacion del programa",
    "ensenarme como funciona",
    "ver como funciona",
  ],
  de: [
    "demo",
    "demos",
    "vorfuhrung",
    "vorfuhren",
    "produktdemo",
    "produktvorfuhrung",
    "prasentation",
    "zeigen wie es funktioniert",
  ],
  fr: ["demo", "demos", "demonstration", "presentation du produit", "presentation du logiciel", "montrer comment"],
  pt: ["demo", "demos", "demonstracao", "apresentacao do produto", "apresentacao do sistema", "mostrar como funciona"],
})

const BOOKING = lexicon({
  en: [
    "book",
    "booking",
    "book me",
    "appointment",
    "appointments",
    "appt",
    "schedule",
    "reserve",
    "reservation",
    "slot",
    "slots",
    "availability",
    "available times",
    "free times",
    "come in",
    "meeting",
    "a consultation",
    "an onboarding",
    "any free",
    "is free",
    "free on",
    "open slot",
    "get in",
  ],
  es: [
    "cita",
    "citas",
    "reservar",
    "reserva",
    "hueco",
    "huecos",
    "agendar",
    "turno",
    "pedir hora",
    "una consulta",
    "quedar",
    "disponibilidad",
    "libre",
    "reservame",
    "apuntame",
  ],
  de: [
    "termin",
    "termine",
    "terminvereinbarung",
    "buchen",
    "reservieren",
    "frei",
    "freie zeiten",
    "vereinbaren",
    "vorbeikommen",
    "eine beratung",
    "eine einfuhrung",
  ],
  fr: [
    "rendez-vous",
    "rendez vous",
    "rdv",
    "reserver",
    "reservation",
    "creneau",
    "creneaux",
    "disponibilite",
    "une consultation",
    "une formation",
    "prendre un rendez",
  ],
  pt: [
    "marcar",
    "agendar",
    "agendamento",
    "horario livre",
    "um horario",
    "horarios",
    "reserva",
    "reservar",
    "vaga",
    "uma consulta",
    "um treinamento",
    "disponibilidade",
    "remarcar",
  ],
})

const CANCEL = lexicon({
  en: ["cancel", "cancel it", "cancel that", "cancel my", "call it off", "won't make it", "can't make it"],
  es: ["cancelar", "cancela", "cancelad", "cancelame", "anular", "anula", "anulad", "no podre ir"],
  de: ["stornieren", "storniere", "storno", "absagen", "sage ab", "sagen sie", "streichen"],
  fr: ["annuler", "annulez", "annule", "annulation", "decommander"],
  pt: ["cancelar", "cancela", "cancele", "desmarcar", "desmarca", "nao vou poder ir"],
})

const MOVE = lexicon({
  en: [
    "move",
    "reschedule",
    "change it",
    "change the time",
    "change my appointment",
    "push it",
    "instead",
    "another time",
    "different time",
    "bring it forward",
    "postpone",
  ],
  es: [
    "cambiar",
    "cambiarla",
    "cambiarlo",
    "mover",
    "moverla",
    "aplazar",
    "retrasar",
    "adelantar",
    "pasarla",
    "en vez de",
    "otra hora",
  ],
  de: ["verschieben", "verlegen", "umbuchen", "andern", "stattdessen", "lieber", "spater", "fruher"],
  fr: ["decaler", "deplacer", "changer", "reporter", "avancer", "plutot", "modifier"],
  pt: ["remarcar", "mudar", "trocar", "adiar", "antecipar", "passar para", "em vez de"],
})

const HOURS = lexicon({
  en: [
    "opening hours",
    "open hours",
    "business hours",
    "are you open",
    "you open",
    "when do you open",
    "when do you close",
    "what time do you close",
    "what time do you open",
    "open on",
    "open today",
    "open tomorrow",
    "opening times",
    "hours",
    "do you close",
    "closing time",
  ],
  es: [
    "horario",
    "horarios",
    "abris",
    "abren",
    "abre",
    "cerrais",
    "cierran",
    "cierra",
    "a que hora",
    "esta abierto",
    "estais abiertos",
  ],
  de: [
    "offnungszeiten",
    "offnungszeit",
    "geoffnet",
    "offen",
    "habt ihr auf",
    "haben sie auf",
    "wann schliesst",
    "wann macht",
    "bis wann",
    "ab wann",
    "geschaftszeiten",
  ],
  fr: [
    "horaires",
    "horaire",
    "ouvert",
    "ouverts",
    "ouverte",
    "ouvrez",
    "fermez",
    "ferme",
    "heures d'ouverture",
    "a quelle heure",
  ],
  pt: [
    "horario de funcionamento",
    "horarios de funcionamento",
    "abrem",
    "abre",
    "fecham",
    "fecha",
    "funcionam",
    "esta aberto",
    "estao abertos",
    "que horas",
  ],
})

const SERVICES = lexicon({
  en: ["services", "what do you offer", "what can i book", "what do you do", "which services", "service do you"],
  es: ["servicios", "que ofreceis", "que ofrecen", "que haceis"],
  de: ["leistungen", "dienstleistungen", "angebot", "was bietet", "was bieten"],
  fr: ["services", "proposez", "prestations", "offrez"],
  pt: ["servicos", "oferecem", "o que voces fazem"],
})

const BUSINESS_NAME = lexicon({
  en: [
    "name of your company",
    "name of the company",
    "name of your business",
    "your company's name",
    "company name",
    "who are you",
    "what company",
    "what's the name of your",
  ],
  es: ["nombre de la empresa", "como se llama la empresa", "quienes sois", "que empresa"],
  de: ["wie heisst", "name der firma", "wer seid ihr", "wer sind sie", "firmenname"],
  fr: ["nom de votre entreprise", "nom de l'entreprise", "qui etes-vous", "quelle entreprise", "nom de la societe"],
  pt: ["nome da empresa", "quem sao voces", "que empresa", "como se chama a empresa"],
})

const QUESTION_START = lexicon({
  en: [
    "what",
    "when",
    "where",
    "how",
    "why",
    "which",
    "who",
    "do you",
    "does",
    "is there",
    "are there",
    "can i",
    "can you",
    "could",
    "is it",
    "are you",
    "do i",
    "should",
    "will",
  ],
  es: [
    "que",
    "cuando",
    "donde",
    "como",
    "cuanto",
    "cuanta",
    "cual",
    "quien",
    "teneis",
    "tienen",
    "hay",
    "puedo",
    "podeis",
    "se puede",
    "es",
    "aceptais",
    "vendeis",
    "hacen",
    "haceis",
  ],
  de: [
    "was",
    "wann",
    "wo",
    "wie",
    "warum",
    "welche",
    "welcher",
    "wer",
    "gibt es",
    "habt ihr",
    "haben sie",
    "kann ich",
    "konnen sie",
    "kann man",
    "ist",
    "sind",
    "verkauft",
    "bietet",
    "repariert",
  ],
  fr: [
    "que",
    "quand",
    "ou",
    "comment",
    "combien",
    "quel",
    "quelle",
    "quels",
    "quelles",
    "qui",
    "est-ce",
    "avez-vous",
    "vous avez",
    "puis-je",
    "peut-on",
    "on peut",
    "y a-t-il",
    "il y a",
    "vendez",
    "acceptez",
    "faites",
  ],
  pt: [
    "que",
    "quando",
    "onde",
    "como",
    "quanto",
    "qual",
    "quais",
    "quem",
    "voces tem",
    "tem",
    "posso",
    "da pra",
    "pode",
    "aceitam",
    "vendem",
    "fazem",
    "e possivel",
  ],
})

const GREETING = lexicon({
  en: ["hi", "hello", "hey", "good morning", "good afternoon", "good evening", "hiya"],
  es: ["hola", "buenas", "buenos dias", "buenas tardes", "buenas noches"],
  de: ["hallo", "guten tag", "guten morgen", "guten abend", "moin", "servus", "gruss gott", "hi"],
  fr: ["bonjour", "bonsoir", "salut", "coucou"],
  pt: ["ola", "oi", "bom dia", "boa tarde", "boa noite"],
})

const CLOSING = lexicon({
  en: [
    "thanks",
    "thank you",
    "thx",
    "bye",
    "goodbye",
    "just browsing",
    "just looking",
    "that's all",
    "no thanks",
    "cheers",
  ],
  es: ["gracias", "adios", "hasta luego", "solo estaba mirando", "solo miraba", "nada mas", "eso es todo"],
  de: ["danke", "tschuss", "auf wiedersehen", "schaue mich nur um", "nur umschauen", "das wars"],
  fr: ["merci", "au revoir", "je regarde seulement", "je regarde juste", "c'est tout", "bonne journee"],
  pt: ["obrigado", "obrigada", "valeu", "tchau", "so estou dando uma olhada", "so olhando", "e so isso"],
})

const YES = lexicon({
  en: ["yes", "yeah", "yep", "sure", "ok", "okay", "please do", "correct", "right", "that's right", "go ahead"],
  es: ["si", "vale", "claro", "de acuerdo", "perfecto", "correcto", "eso es", "adelante"],
  de: ["ja", "gerne", "gern", "genau", "richtig", "okay", "einverstanden", "passt"],
  fr: ["oui", "d'accord", "ok", "parfait", "exactement", "c'est ca", "volontiers"],
  pt: ["sim", "claro", "pode ser", "ok", "certo", "isso", "beleza", "perfeito"],
})

const NO = lexicon({
  en: ["no", "nope", "no thanks", "not now"],
  es: ["no", "no gracias"],
  de: ["nein", "nee", "nein danke"],
  fr: ["non", "non merci"],
  pt: ["nao", "nao obrigado"],
})

const QUESTION_FIRST = new RegExp(`^(?:${QUESTION_START.any.source})`, "u")
const GREETING_FIRST = new RegExp(`^(?:${GREETING.any.source})`, "u")
const YES_FIRST = new RegExp(`^(?:${YES.any.source})`, "u")
const NO_FIRST = new RegExp(`^(?:${NO.any.source})(?![\\p{L}])`, "u")

const anyOf = (pattern: { readonly any: RegExp }, text: string): boolean => pattern.any.test(text)

/** Reads the intents of `text`. */
/** Words of the visitor's language, and English (the lingua franca), for the words other languages use differently. */
const ofLanguage = (pattern: { readonly of: (language: Language) => RegExp }, language: Language, text: string) =>
  pattern.of(language).test(text) || (language !== "en" && pattern.of("en").test(text))

export const detectIntents = (text: string, language: Language = "en"): Intents => {
  const folded = fold(text)
  const noCall = anyOf(NO_CALL, folded)
  const demo = anyOf(DEMO, folded)
  const trimmed = folded.trim()
  return {
    callback: !noCall && anyOf(CALLBACK, folded),
    noCall,
    demo,
    booking: !demo && anyOf(BOOKING, folded),
    cancel: anyOf(CANCEL, folded),
    move: anyOf(MOVE, folded),
    // "horario" is opening hours in Spanish, a slot in Portuguese: hours are read in the visitor's language.
    hours: ofLanguage(HOURS, language, folded),
    services: anyOf(SERVICES, folded),
    businessName: anyOf(BUSINESS_NAME, folded),
    question: /[?¿]/.test(text) || QUESTION_FIRST.test(trimmed),
    greeting: GREETING_FIRST.test(trimmed),
    closing: anyOf(CLOSING, folded),
    yes: YES_FIRST.test(trimmed),
    no: NO_FIRST.test(trimmed),
  }
}

export type { PerLanguage }

import { fold, type Language } from "./text.ts"

/**
 * The name a visitor gives, in any of the five languages: after a lead-in ("my name is", "I'm",
 * "this is", "me llamo", "soy", "ich heiße", "hier ist", "je m'appelle", "moi c'est", "meu nome
 * é", "aqui é a"…), with a title kept ("Dr. Patel", "Frau Dr. Müller"); "Dana here"; a signature
 * ("Thanks, Raj", "Grüße, Timo"); or a name written next to the phone number ("Ken Adams,
 * 415-555-0143"). Names are one to three words and come back capitalised ("hi im sarah" → Sarah).
 *
 * Many lead-ins also introduce other things ("I'm interested", "soy nuevo", "je suis intéressé",
 * "ich bin neu", "this is urgent"), so a word must not be one of those, and after the ambiguous
 * lead-ins a lower-case word counts only when the name ends the clause ("hola soy carmen, …").
 * A word next to a phone number with no lead-in must be capitalised ("Liam 415 555 0158").
 */

/** Words that follow a lead-in without being a name, folded. */
const NOT_NAMES = new Set(
  `a an the and or but not no yes so just also still very really only here there back home in at on for to of by
  with from about after as if that this it its is are was be been am
  interested interesting looking wondering trying hoping planning thinking calling writing asking reaching contacting
  checking going coming getting having doing working waiting available free busy ready happy glad sorry sure fine
  good great ok okay well new old late early open closed away done urgent important serious confused lost curious
  unable able afraid aware sick tired fed stuck new customer client interested owner manager
  it this that what who how why when where which there
  monday tuesday wednesday thursday friday saturday sunday today tomorrow tonight morning afternoon evening
  january february march april may june july august september october november december
  hi hello hey thanks thank please call phone number mobile cell tel ring me you he she we they my your our their his
  her us them one
  nuevo nueva interesado interesada cliente clienta de la el los las un una del por para con muy aqui alli
  hola gracias buenas buenos tardes dias noches llamar llamadme llamame numero telefono movil
  yo tu usted su mi mis ya que no si
  neu neue interessiert kunde kundin der die das ein eine einen auf fur mit aus von bei hier da gerade noch nicht
  hallo danke bitte guten tag morgen abend ich sie du er wir ihr mein meine nummer handy telefon heute leider
  frau herr
  nouveau nouvelle interesse interessee client cliente le la les un une des du en au aux pour avec tres ici
  bonjour bonsoir merci salut je tu il elle nous vous mon ma mes numero portable tel possible quoi pas
  novo nova interessado interessada cliente o os as um uma do da dos das no na em para com muito aqui
  ola oi obrigado obrigada bom boa dia tarde noite eu voce voces meu minha numero celular telefone whatsapp
  liga ligar pode asap soon now later
  anyone anybody someone somebody everyone everybody nobody
  parfait parfaite bon bonne bien super genial top nickel note correct exact exactement vrai juste clair cool
  excellent impeccable formidable dommage tout ca`
    .split(/\s+/)
    .filter((word) => word !== ""),
)

const TITLES =
  /^(?:dr|dra|mr|mrs|ms|miss|mx|prof|frau|herr|sr|sra|srta|don|dona|dona|mme|mlle|m|monsieur|madame|senhor|senhora)\.?$/iu

/** Lower-case words inside a family name ("von Stein", "van Dijk", "de la Cruz", "dos Santos"). */
const PARTICLES = /^(?:von|van|der|den|de|del|della|di|da|das|do|dos|du|la|le|zu)$/u

interface LeadIn {
  readonly pattern: RegExp
  /** A lower-case first word counts (always for "my name is"; at the end of a clause for the ambiguous ones). */
  readonly lowercase: "always" | "clauseEnd"
}

const leadIn = (source: string, lowercase: LeadIn["lowercase"]): LeadIn => ({
  pattern: new RegExp(`(?<![\\p{L}])(?:${source})\\s+`, "giu"),
  lowercase,
})

/** Lead-ins, the unambiguous ones first; written for folded text. */
const LEAD_INS: ReadonlyArray<LeadIn> = [
  leadIn("my name is|my name's|my names|name's|name is|name:|call me|ask for", "always"),
  leadIn("me llamo|mi nombre es|mi nombre:|pregunta por|preguntad por", "always"),
  leadIn("ich heisse|ich hiess|mein name ist|mein name:|fragen sie nach", "always"),
  leadIn("je m'appelle|je m'apelle|mon nom est|mon nom:|demandez", "always"),
  leadIn("meu nome e|me chamo|chamo-me|meu nome:|falar com o|falar com a|chamar o|chamar a", "always"),
  leadIn("i'm|i am|im|this is|it's|its|contact:|contact person:|contact person is", "clauseEnd"),
  leadIn("soy|aqui es|aqui|habla|te escribe|le escribe|contacto:|persona de contacto:", "clauseEnd"),
  leadIn("ich bin|hier ist|hier spricht|hier schreibt|ansprechpartner ist|ansprechpartnerin ist|kontakt:", "clauseEnd"),
  leadIn("je suis|moi c'est|c'est|ici|contact :|contact:", "clauseEnd"),
  leadIn("eu sou|sou o|sou a|sou|aqui e o|aqui e a|aqui e|aqui quem fala e|quem fala e|contato:", "clauseEnd"),
]

const WORD = /^[\p{L}][\p{L}'’-]{0,39}\.?/u

const capitalise = (word: string): string =>
  word
    .split(/(?<=[-'’])/u)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join("")

const isCapitalised = (word: string): boolean => {
  const first = word.charAt(0)
  return first !== first.toLowerCase()
}

const clean = (word: string): string => word.replace(/['’-]+$/u, "")

/** Up to three name words (titles before them kept) at the start of `rest`, from the original text. */
const nameAt = (rest: string, lowercase: LeadIn["lowercase"] | "never"): string | undefined => {
  const words: Array<string> = []
  let remaining = rest
  let titles = 0
  while (words.length < 3 + titles) {
    const match = WORD.exec(remaining)
    if (match === null) break
    const raw = match[0]
    // A possessive ("Monday's order") names a thing of someone, not the speaker.
    if (/['’]s$/iu.test(raw)) break
    const isTitle = TITLES.test(raw)
    // A particle between the words of a name stays as written: "Friederike von Stein", "Ana de Souza".
    if (words.length > titles && PARTICLES.test(raw) && /^ \p{Lu}/u.test(remaining.slice(raw.length))) {
      words.push(raw)
      remaining = remaining.slice(raw.length + 1)
      continue
    }
    const word = isTitle ? raw : clean(raw.replace(/\.$/u, ""))
    if (!isTitle && (NOT_NAMES.has(fold(word)) || word.length < 2)) break
    const upper = isCapitalised(word)
    if (!upper && lowercase === "never") break
    if (!upper && words.length > titles && lowercase !== "always") break
    words.push(
      isTitle ? capitalise(raw.endsWith(".") || raw.length <= 2 ? raw.replace(/\.?$/u, ".") : raw) : capitalise(word),
    )
    if (isTitle) titles++
    remaining = remaining.slice(raw.length)
    // A full stop ends the name unless it ended a title: "I'm Jonas. Können Sie…".
    if (!isTitle && raw.endsWith(".")) {
      remaining = `.${remaining}`
      break
    }
    if (!/^ [\p{L}]/u.test(remaining)) break
    remaining = remaining.slice(1)
  }
  while (words.length > 0 && TITLES.test(words.at(-1) ?? "")) words.pop()
  if (words.length === titles) return undefined
  // After an ambiguous lead-in, a lower-case name must end its clause: "soy carmen, llamadme".
  if (lowercase === "clauseEnd" && !isCapitalised(rest.trimStart())) {
    const after = remaining.trimStart()
    if (after !== "" && !/^[,.;:!?\-–—(]|^(?:and|y|und|et|e)\b|^\d|^\+/iu.test(after)) return undefined
  }
  return words.join(" ")
}

/** `fold(text)` with, for each of its characters, the position in `text` it came from. */
const foldWithPositions = (text: string): { readonly folded: string; readonly at: ReadonlyArray<number> } => {
  let folded = ""
  const at: Array<number> = []
  let index = 0
  for (const char of text) {
    const piece = fold(char)
    folded += piece
    for (let i = 0; i < piece.length; i++) at.push(index)
    index += char.length
  }
  at.push(text.length)
  return { folded, at }
}

/** On folded text; the capture is checked for a capital in the original. */
const SIGNATURE =
  /(?<![\p{L}])(?:thanks|thank you|cheers|regards|best|gracias|saludos|un saludo|danke|grusse|gruss|viele grusse|lg|merci|cordialement|bises|obrigad[oa]|abracos|att)[,!.]?\s+(\p{L}[\p{L}'-]{1,39}(?:\s+\p{L}[\p{L}'-]{1,39})?)[.!]?\s*$/u

/** "Dana here", "Tom Nguyen here", "Hi, Ana Lima aquí": one to three capitalised words before "here". */
const SPEAKER_HERE =
  /^\s*(?:(?:hi|hello|hey|hola|hallo|bonjour|ola|oi)[,!]?\s*)?(?:there[,!]?\s*)?(\p{L}[\p{L}'-]{1,39}(?:\s+\p{L}[\p{L}'-]{1,39}){0,2})\s+(?:here|aqui|hier|ici)(?![\p{L}])/u

/** The original words behind a capture of the folded text, when they are capitalised. */
const capitalisedOriginal = (
  text: string,
  at: ReadonlyArray<number>,
  start: number,
  length: number,
): string | undefined => {
  const original = text.slice(at[start] ?? 0, at[start + length] ?? text.length)
  return original.split(/\s+/u).every((word) => isCapitalised(word) && !NOT_NAMES.has(fold(word)))
    ? original
    : undefined
}

/** A segment that is only a name (and, around it, a phone number): "Ken Adams, 415-555-0143". */
const nameBeside = (segment: string): string | undefined => {
  const words = segment
    .replace(
      /^(?:sure|ok|okay|yes|great|perfect|fine|vale|si|sí|claro|perfecto|ja|gerne|gut|oui|d'accord|parfait|sim|claro|perfeito|ta|tá|then)[,!.]?\s+/iu,
      "",
    )
    .replace(/[,:;–—-]+\s*$/u, "")
    .trim()
  if (words === "" || !/^[\p{L}'’. -]+$/u.test(words)) return undefined
  return nameAt(words, "never") === words.replace(/\s+/g, " ") ? words.replace(/\s+/g, " ") : undefined
}

export interface NameOptions {
  /** Where the phone number was found, to read a name written next to it. */
  readonly phoneSpan?: { readonly start: number; readonly end: number }
  /** The assistant has just asked for the name: a short reply is the name. */
  readonly expectingName?: boolean
  /**
   * A booking is held under no name (a channel books under the sender's number without asking): a
   * message of one to three capitalised words and nothing else ("Ana Lima") is the name.
   */
  readonly unnamedBooking?: boolean
}

/** The name the visitor gives in `text`, or `undefined`. `language` is unused: lead-ins of all five are read. */
export const extractName = (text: string, _language?: Language, options: NameOptions = {}): string | undefined => {
  const { folded, at } = foldWithPositions(text)
  for (const { pattern, lowercase } of LEAD_INS) {
    for (const match of folded.matchAll(pattern)) {
      const start = at[(match.index ?? 0) + match[0].length] ?? text.length
      // Articles after Portuguese and Spanish lead-ins: "sou o Pedro", "aquí es la Ana".
      const rest = text.slice(start).replace(/^(?:o|a|el|la)\s+(?=\p{L})/iu, "")
      const found = nameAt(rest, lowercase)
      if (found !== undefined) return found
    }
  }
  for (const pattern of [SPEAKER_HERE, SIGNATURE]) {
    const found = pattern.exec(folded)
    if (found?.[1] !== undefined) {
      const name = capitalisedOriginal(text, at, (found.index ?? 0) + found[0].indexOf(found[1]), found[1].length)
      if (name !== undefined) return name
    }
  }
  if (options.phoneSpan !== undefined) {
    const chunks = text.slice(0, options.phoneSpan.start).split(/[.!?;\n,]/u)
    const before = chunks.filter((chunk) => chunk.trim() !== "").at(-1) ?? ""
    const besideBefore = nameBeside(before)
    if (besideBefore !== undefined) return besideBefore
    const after = text.slice(options.phoneSpan.end).split(/[.!?;\n]/u)[0] ?? ""
    const besideAfter = nameBeside(after.replace(/^\s*[,:–—-]\s*/u, ""))
    if (besideAfter !== undefined) return besideAfter
  }
  if (options.expectingName === true || options.unnamedBooking === true) {
    const reply = text.trim().replace(/[.!]+$/u, "")
    if (/^[\p{L}'’. -]{2,60}$/u.test(reply) && reply.split(/\s+/).length <= 3) {
      // Unasked, only a name written as one (capitalised) is taken: "ok cool" is no name.
      const found = nameAt(reply, options.expectingName === true ? "always" : "never")
      if (found !== undefined && found.split(" ").length === reply.split(/\s+/).length) return found
    }
  }
  return undefined
}

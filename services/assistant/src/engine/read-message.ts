import { detectIntents, type Intents } from "./intent.ts"
import { afterLeadIn } from "./intent-questions.ts"
import { type Answer, findAnswer, stemOf } from "./knowledge.ts"
import { languageOf } from "./language.ts"
import { extractName } from "./name.ts"
import { type FoundPhone, findPhones } from "./phone.ts"
import type { EngineContext } from "./profile.ts"
import type { ConversationState } from "./state.ts"
import { fold, isLanguage, LANGUAGES, type Language } from "./text.ts"
import { type NamedWhen, readWhen } from "./when.ts"

/** Everything the deterministic engine reads from one message. Pure. */
export interface MessageFacts {
  readonly text: string
  readonly language: Language
  /** The visitor's phone number in the text (never on a phone channel, where the sender is the number). */
  readonly phone: FoundPhone | undefined
  readonly name: string | undefined
  readonly intents: Intents
  readonly when: NamedWhen
  /** One of the organization's services named in the message. */
  readonly service: string | undefined
  /** The FAQ (or sentence of the profile's `about`) that answers the message, if any (looked up on first use). */
  faq(): Answer | undefined
  /**
   * The sentences that ask a question and request nothing, read on their own in this message's
   * language, when other sentences are left ("Are you open on Saturday? I'd like to book a
   * haircut"): the question asked beside a request (read on first use).
   */
  questionBeside(): MessageFacts | undefined
}

const servicePatterns = new Map<string, RegExp>()
const patternOf = (word: string): RegExp => {
  let pattern = servicePatterns.get(word)
  if (pattern === undefined) {
    pattern = new RegExp(`(?<![\\p{L}])${escapeRegExp(word)}`, "u")
    if (servicePatterns.size > 1000) servicePatterns.clear()
    servicePatterns.set(word, pattern)
  }
  return pattern
}

/**
 * The service named in `text`: its whole name, else the one service that a distinctive word of its
 * name points at — a word of four letters or more that no other service's name has ("onboarding",
 * "removal" for "ear wax removal", not "hearing" shared by "hearing test" and "hearing aid fitting").
 */
const serviceIn = (text: string, services: ReadonlyArray<string>, language: Language): string | undefined => {
  const folded = fold(text)
  const byLength = [...services].sort((a, b) => b.length - a.length)
  const whole = byLength.find((service) => patternOf(fold(service)).test(folded))
  if (whole !== undefined) return whole
  // Each name's words once: the checks below ask for them per service and per word of the message.
  const words = new Map(
    services.map((service) => [
      service,
      fold(service)
        .split(/[^\p{L}]+/u)
        .filter((word) => word.length >= 4),
    ]),
  )
  const wordsOf = (service: string): ReadonlyArray<string> => words.get(service) ?? []
  // The one that most of its distinctive words point at ("flat tire" is the flat tire repair, though
  // "bike" alone would point at the e-bike diagnostic).
  const scored = services.map((service) => ({
    service,
    words: wordsOf(service).filter(
      (word) =>
        patternOf(word).test(folded) && !services.some((other) => other !== service && wordsOf(other).includes(word)),
    ).length,
  }))
  const most = Math.max(0, ...scored.map((entry) => entry.words))
  const named = scored.filter((entry) => entry.words === most && most > 0)
  if (named.length > 0) return named.length === 1 ? named[0]?.service : undefined
  return spelledOtherwise(folded, services, wordsOf) ?? namedByStem(text, services, language)
}

/**
 * The one service a word of the message names by another form of a word of its name — a verb for
 * the noun ("desparasitar" for "Desparasitación", "réparer" for "réparation", "reinigen" for
 * "Reinigung") —: the same stem in the message's language, of five letters or more, that no other
 * service's name has; a message word that another service's name would also take (its stem, or a
 * word one edit apart: "color" beside "colour" and "colors class") points at neither.
 */
const namedByStem = (text: string, services: ReadonlyArray<string>, language: Language): string | undefined => {
  const longWords = (words: string) => words.split(/[^\p{L}]+/u).filter((word) => word.length >= 5)
  const own = new Map(
    services.map((service) => {
      const words = longWords(service)
      return [service, { folded: words.map(fold), stems: words.map((word) => stemOf(word, language)) }] as const
    }),
  )
  const found = new Set<string>()
  for (const word of longWords(text)) {
    const stem = stemOf(word, language)
    if (stem.length < 5) continue
    const folded = fold(word)
    const taking = services.filter((service) => {
      const name = own.get(service)
      return name !== undefined && (name.stems.includes(stem) || name.folded.some((w) => oneEditApart(folded, w)))
    })
    if (taking.length === 1 && taking[0] !== undefined && own.get(taking[0])?.stems.includes(stem)) found.add(taking[0])
  }
  return found.size === 1 ? [...found][0] : undefined
}

/**
 * The one service a word of the message spells another way ("color" for "colour", "center" for
 * "centre", "manicur" for "manicure"): a distinctive word of its name and a word of the message, both
 * of five letters or more, one edit apart (Damerau–Levenshtein: a letter added, dropped, changed, or
 * two swapped) — never a message word that would also be read as another service's word.
 */
const spelledOtherwise = (
  folded: string,
  services: ReadonlyArray<string>,
  wordsOf: (service: string) => ReadonlyArray<string>,
): string | undefined => {
  const written = folded.split(/[^\p{L}]+/u).filter((word) => word.length >= 5)
  if (written.length === 0) return undefined
  const near = (word: string, other: string) => other.length >= 5 && oneEditApart(word, other)
  const found = new Set<string>()
  for (const word of written) {
    const matching = services.filter((service) => wordsOf(service).some((own) => own === word || near(word, own)))
    // A word that two services' names would both take points at neither.
    if (matching.length !== 1) continue
    const [service] = matching
    if (service === undefined) continue
    const distinctive = wordsOf(service).some(
      (own) => near(word, own) && !services.some((other) => other !== service && wordsOf(other).includes(own)),
    )
    if (distinctive) found.add(service)
  }
  return found.size === 1 ? [...found][0] : undefined
}

/** Whether two different words are one edit apart: a letter inserted, deleted, replaced, or two neighbours swapped. */
export const oneEditApart = (a: string, b: string): boolean => {
  if (a === b || Math.abs(a.length - b.length) > 1) return false
  let start = 0
  while (start < a.length && start < b.length && a[start] === b[start]) start += 1
  let endA = a.length
  let endB = b.length
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA -= 1
    endB -= 1
  }
  const restA = a.slice(start, endA)
  const restB = b.slice(start, endB)
  if (restA.length + restB.length <= 1) return true
  if (restA.length === 1 && restB.length === 1) return true
  return restA.length === 2 && restB.length === 2 && restA[0] === restB[1] && restA[1] === restB[0]
}

const escapeRegExp = (word: string): string => word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/**
 * What a message asks, without the sentence that leaves a number ("Do you make prescription
 * sunglasses? Here's my number in case it matters: …"): its words do not dilute what the question is
 * about.
 */
const askedPart = (text: string, phone: FoundPhone | undefined): string => {
  if (phone === undefined) return text
  const sentences = text.split(/(?<=[.!?])\s+/u)
  let at = 0
  const kept = sentences.filter((sentence) => {
    const start = text.indexOf(sentence, at)
    at = start + sentence.length
    return !(start <= phone.start && phone.start < at)
  })
  return kept.length === 0 ? text : kept.join(" ")
}

/**
 * A message that asks, answers, greets or names nothing (no intent, day, time or service): after a
 * booking made without a name, what it holds may be only the name ("Ana Lima").
 */
const saysNothingElse = (intents: Intents, when: NamedWhen, service: string | undefined): boolean =>
  service === undefined &&
  when.date === undefined &&
  when.time === undefined &&
  when.weekday === undefined &&
  !when.earliest &&
  when.week === undefined &&
  !Object.values(intents).some(Boolean)

/**
 * The intents, with a need said in the conditional read as a booking request when it names a time, or
 * a service with a day or not as a question ("bräuchte Krallen schneiden um 14 Uhr", "I'd need a full
 * service on Thursday", "necesitaría una limpieza"); "would I need an appointment for a cleaning?"
 * stays a question.
 */
const withWouldNeed = (intents: Intents, when: NamedWhen, service: string | undefined): Intents => {
  if (!intents.wouldNeed || intents.booking || intents.demo || intents.callback || intents.cancel || intents.move)
    return intents
  const asks = when.time !== undefined || (service !== undefined && (when.date !== undefined || !intents.question))
  return asks ? { ...intents, booking: true } : intents
}

export const readMessage = (text: string, state: ConversationState, context: EngineContext): MessageFacts => {
  const languages = context.profile.languages
  const current = state.language !== undefined && isLanguage(state.language) ? state.language : undefined
  const language = languageOf(text, languages, current && languages.includes(current) ? current : undefined)
  // Dates and times are read in the language the message is written in, whichever of the five, even
  // when the business answers only in others ("demain à 14h" to an English-only business).
  const written = languages.length === LANGUAGES.length ? language : languageOf(text, LANGUAGES, language)
  return read(text, state, context, { language, written, whole: true })
}

/** The languages a message is answered and read in, and whether it is a whole message (or a part of one). */
interface Reading {
  readonly language: Language
  readonly written: Language
  readonly whole: boolean
}

/** A message's sentences: after a full stop, a question or exclamation mark, or a line break. */
const SENTENCE_END = /(?<=[.!?])\s+|\s*\n+\s*/u

/**
 * A question for a fact, by its first word ("how much is a consultation?", "¿cuánto cuesta una
 * consulta?", "wie viel kostet…", "combien coûte…", "quanto custa…"), folded: one naming a booking
 * ("a consultation") asks about it, where "can I book…?" or "when can I come in?" asks for it.
 */
const FACT_QUESTION =
  /^[¿¡"'(\s]*(?:what|where|how|why|which|who|que|donde|como|cuant[oa]s?|cual(?:es)?|quien|was|wo|wie|warum|welche[rsmn]?|wer|quel(?:le)?s?|ou|comment|combien|pourquoi|qui|qu'est|onde|quant[oa]s?|qual|quais|quem)(?![\p{L}])/u

/** A question that asks for nothing to be done (booked, cancelled, moved, a call, a demo). */
const asksOnly = (sentence: string, intents: Intents): boolean =>
  intents.question &&
  (!intents.booking || FACT_QUESTION.test(afterLeadIn(fold(sentence)))) &&
  !intents.cancel &&
  !intents.move &&
  !intents.callback &&
  !intents.demo &&
  !intents.noCall &&
  !intents.ownBooking

/**
 * A question that asks for a slot by naming its day or time, whatever its verb ("can I bring my bike
 * in Thursday at 10?"), and asks for no fact (a question word first, the opening hours).
 */
const asksForSlot = (sentence: string, intents: Intents, context: EngineContext, written: Language): boolean => {
  if (intents.hours || FACT_QUESTION.test(afterLeadIn(fold(sentence)))) return false
  const span = findPhones(sentence, context.settings.country)[0]
  const when = readWhen(sentence, written, context.today, span === undefined ? [] : [span], context.nowTime)
  return when.date !== undefined || when.time !== undefined
}

/** A message's sentences that ask a question and request nothing, and the others; undefined unless it has both. */
const questionsAndRequest = (
  text: string,
  written: Language,
  context: EngineContext,
): { readonly asking: string; readonly rest: string } | undefined => {
  const sentences = text.split(SENTENCE_END).filter((sentence) => sentence.trim() !== "")
  if (sentences.length < 2) return undefined
  const read = sentences.map((sentence) => ({ sentence, intents: detectIntents(sentence, written) }))
  const asking = read.filter(({ sentence, intents }) => asksOnly(sentence, intents))
  let rest = read.filter((entry) => !asking.includes(entry))
  if (rest.length === 0) {
    // Only questions: those asking for a slot by its day or time are the request.
    rest = asking.filter(({ sentence, intents }) => asksForSlot(sentence, intents, context, written))
  }
  const questions = asking.filter((entry) => !rest.includes(entry))
  return questions.length === 0 || rest.length === 0
    ? undefined
    : {
        asking: questions.map((entry) => entry.sentence).join(" "),
        rest: rest.map((entry) => entry.sentence).join(" "),
      }
}

/** A message's question and request apart (`questionsAndRequest`), read once per message when first asked. */
type Parts = () => ReturnType<typeof questionsAndRequest>

/**
 * The day a booking request names beside a question about another ("Are you open on Saturday? I'd
 * like to book Monday at 10"): the request's, never the question's; undefined when it names none
 * (then the question's day is the one meant: "Are you open on Saturday? I'd like to book a haircut").
 */
const requestedWhen = (parts: Parts, context: EngineContext, written: Language): NamedWhen | undefined => {
  const split = parts()
  if (split === undefined) return undefined
  const span = findPhones(split.rest, context.settings.country)[0]
  const when = readWhen(split.rest, written, context.today, span === undefined ? [] : [span], context.nowTime)
  const intents = withWouldNeed(
    detectIntents(split.rest, written),
    when,
    serviceIn(split.rest, context.settings.services, written),
  )
  return when.date === undefined || !intents.booking ? undefined : when
}

const read = (text: string, state: ConversationState, context: EngineContext, reading: Reading): MessageFacts => {
  const { language, written } = reading
  const languages = context.profile.languages
  const country = context.settings.country
  const span = findPhones(text, country)[0]
  // On a phone channel numbers in the text are still read, only to keep them out of dates and names.
  const phone = context.customerPhone === undefined ? span : undefined
  let faq: { value: Answer | undefined } | undefined
  let beside: { value: MessageFacts | undefined } | undefined
  // Split once: the day a request names and the question beside it both read the same parts.
  let split: { value: ReturnType<typeof questionsAndRequest> } | undefined
  const parts: Parts = () => {
    split ??= { value: reading.whole ? questionsAndRequest(text, written, context) : undefined }
    return split.value
  }
  const named = readWhen(text, written, context.today, span === undefined ? [] : [span], context.nowTime)
  const when = reading.whole && named.date !== undefined ? (requestedWhen(parts, context, written) ?? named) : named
  const service = serviceIn(text, context.settings.services, written)
  const intents = withWouldNeed(detectIntents(text, written), when, service)
  return {
    text,
    language,
    phone,
    name: extractName(text, language, {
      ...(span === undefined ? {} : { phoneSpan: span }),
      expectingName: state.awaiting === "name",
      unnamedBooking:
        state.booking !== undefined && state.name === undefined && saysNothingElse(intents, when, service),
    }),
    intents,
    when,
    service,
    faq: () => {
      faq ??= {
        value: findAnswer(
          context.profile.faqs,
          context.profile.about,
          askedPart(text, span),
          languages[0] ?? language,
          context.profile.businessName,
        ),
      }
      return faq.value
    },
    questionBeside: () => {
      const asked = parts()
      beside ??= {
        value: asked === undefined ? undefined : read(asked.asking, state, context, { ...reading, whole: false }),
      }
      return beside.value
    },
  }
}

import { detectIntents, type Intents } from "./intent.ts"
import { type Faq, findFaq } from "./knowledge.ts"
import { languageOf } from "./language.ts"
import { extractName } from "./name.ts"
import { type FoundPhone, findPhones } from "./phone.ts"
import type { EngineContext } from "./profile.ts"
import type { ConversationState } from "./state.ts"
import { fold, isLanguage, type Language } from "./text.ts"
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
  /** The FAQ that answers the message, if any (looked up on first use). */
  faq(): Faq | undefined
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

/** The service named in `text`: its whole name, or its first word when that is distinctive ("onboarding"). */
const serviceIn = (text: string, services: ReadonlyArray<string>): string | undefined => {
  const folded = fold(text)
  const byLength = [...services].sort((a, b) => b.length - a.length)
  const whole = byLength.find((service) => patternOf(fold(service)).test(folded))
  if (whole !== undefined) return whole
  return byLength.find((service) => {
    const first = fold(service).split(/\s+/)[0] ?? ""
    return first.length >= 6 && patternOf(first).test(folded)
  })
}

const escapeRegExp = (word: string): string => word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

export const readMessage = (text: string, state: ConversationState, context: EngineContext): MessageFacts => {
  const languages = context.profile.languages
  const current = state.language !== undefined && isLanguage(state.language) ? state.language : undefined
  const language = languageOf(text, languages, current && languages.includes(current) ? current : undefined)
  const country = context.settings.country
  const span = findPhones(text, country)[0]
  // On a phone channel numbers in the text are still read, only to keep them out of dates and names.
  const phone = context.customerPhone === undefined ? span : undefined
  let faq: { value: Faq | undefined } | undefined
  return {
    text,
    language,
    phone,
    name: extractName(text, language, {
      ...(span === undefined ? {} : { phoneSpan: span }),
      expectingName: state.awaiting === "name",
    }),
    intents: detectIntents(text, language),
    when: readWhen(text, language, context.today, span === undefined ? [] : [span]),
    service: serviceIn(text, context.settings.services),
    faq: () => {
      faq ??= { value: findFaq(context.profile.faqs, text, languages[0] ?? language) }
      return faq.value
    },
  }
}

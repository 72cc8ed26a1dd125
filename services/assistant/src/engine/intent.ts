import {
  APPROVAL,
  afterLeadIn,
  BUSINESS_NAME,
  CLOSING,
  GREETING,
  HOURS,
  HYPOTHETICAL,
  NO,
  NOW,
  PRESENCE,
  PRESENCE_ASKED,
  QUESTION_START,
  SERVICES,
  YES,
} from "./intent-questions.ts"
import {
  BOOKING,
  CALLBACK,
  CANCEL,
  DEMO,
  MOVE,
  NEED_TO_KNOW,
  NO_CALL,
  OWN_BOOKING,
  WOULD_NEED,
} from "./intent-requests.ts"
import { STOP_MESSAGES } from "./intent-stop-messages.ts"
import { fold, type Language, type PerLanguage } from "./text.ts"

/**
 * What a visitor asks for in one message, in any of the five languages (the words of all five are
 * read, since visitors mix them). Written for folded text (lower case, no accents): see `fold`.
 */
export interface Intents {
  /** Asks to be called (back). */
  readonly callback: boolean
  /** Asks not to be called: withdraws a callback request. */
  readonly noCall: boolean
  /** Asks for no more messages in a sentence ("please stop messaging me"; a bare stop word is messaging's, §9). */
  readonly stopMessages: boolean
  /** Asks for a demo (a demo request is not a booking, whatever words it uses). */
  readonly demo: boolean
  /** Asks to book, schedule or see free times. */
  readonly booking: boolean
  /**
   * Says a need in the conditional ("bräuchte", "I'd need", "necesitaría"), not to know something:
   * with a service or a time named, a booking request (`read-message.ts`).
   */
  readonly wouldNeed: boolean
  /** Asks to cancel (a booking, when there is one). */
  readonly cancel: boolean
  /** Asks to move a booking to another time. */
  readonly move: boolean
  /** Names the visitor's own booking ("my appointment"): as a question, asks about the booking held. */
  readonly ownBooking: boolean
  /** Asks about opening hours. */
  readonly hours: boolean
  /** Asks about this moment or today ("are you open now?", "until when today?"): with `hours`, answered from the clock. */
  readonly now: boolean
  /** Asks which services there are. */
  readonly services: boolean
  /** Asks who the business is. */
  readonly businessName: boolean
  /** A question (a question mark or a question word first). */
  readonly question: boolean
  /** Asks what would happen ("what happens if I cancel late?"): a policy question, whatever it names. */
  readonly hypothetical: boolean
  readonly greeting: boolean
  /**
   * Only a greeting, or a "are you there?": greeting and presence words ("again", "there", "anyone
   * there", "¿hay alguien?", "ist da jemand", "il y a quelqu'un", "tem alguém aí"), punctuation and
   * emoji, nothing else — a hello, even with a question mark, never a question to answer.
   */
  readonly greetingOnly: boolean
  /** Thanks, bye, "just browsing": nothing to do. */
  readonly closing: boolean
  /** Yes / no, as an answer to a question the assistant asked. */
  readonly yes: boolean
  readonly no: boolean
  /** Approval first ("great", "perfect", "👍"): a yes only as the whole reply (see `dialogue.ts`). */
  readonly approval: boolean
}

const QUESTION_FIRST = new RegExp(`^(?:${QUESTION_START.any.source})`, "u")
const GREETING_FIRST = new RegExp(`^(?:${GREETING.any.source})`, "u")
const YES_FIRST = new RegExp(`^(?:${YES.any.source})`, "u")
const APPROVAL_FIRST = new RegExp(`^(?:${APPROVAL.any.source})`, "u")
const NO_FIRST = new RegExp(`^(?:${NO.any.source})(?![\\p{L}])`, "u")

/**
 * German "anrufen" split around its object with words between: "ruf mich doch kurz an", "rufen Sie
 * mich bitte morgen an" (folded text).
 */
const CALL_ME_SEPARABLE =
  /(?<![\p{L}])ruf(?:e|en|t)?\s+(?:sie\s+|du\s+)?(?:mich|uns)\s+(?:\p{L}+\s+){0,4}(?:an|zuruck)(?![\p{L}])/u

/** German opening and closing split around the subject: "macht ihr heute Mittag zu?", "wann haben Sie morgen auf?". */
const OPEN_CLOSE_SEPARABLE =
  /(?<![\p{L}])(?:mach(?:t|en)\s+(?:ihr|sie)\s+(?:\p{L}+\s+){0,4}(?:zu|auf)|hab(?:t|en)\s+(?:ihr|sie)\s+(?:\p{L}+\s+){0,4}(?:auf|offen|geoffnet))(?![\p{L}])/u

const GREETING_WORDS = new RegExp(GREETING.any.source, "gu")
const PRESENCE_WORDS = new RegExp(PRESENCE.any.source, "gu")

/** Whether folded text is only greeting and presence words, punctuation, symbols and emoji. */
const isGreetingOnly = (folded: string): boolean => {
  const greets = GREETING.any.test(folded)
  const asksPresence = PRESENCE_ASKED.any.test(folded)
  if (!greets && !asksPresence) return false
  const rest = folded.replace(GREETING_WORDS, " ").replace(PRESENCE_WORDS, " ")
  // Emoji joined into one ("👋🏽", "🙋‍♀️") are pictographs, modifiers, joiners and variation selectors.
  return /^(?:\s|\p{P}|\p{S}|\p{Extended_Pictographic}|\u200d|\ufe0f)*$/u.test(rest)
}

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
    callback: !noCall && (anyOf(CALLBACK, folded) || CALL_ME_SEPARABLE.test(folded)),
    noCall,
    stopMessages: anyOf(STOP_MESSAGES, folded),
    demo,
    booking: !demo && anyOf(BOOKING, folded),
    wouldNeed: anyOf(WOULD_NEED, folded) && !NEED_TO_KNOW.test(folded),
    cancel: anyOf(CANCEL, folded),
    move: anyOf(MOVE, folded),
    ownBooking: anyOf(OWN_BOOKING, folded),
    // "horario" is opening hours in Spanish, a slot in Portuguese: hours are read in the visitor's language.
    hours: ofLanguage(HOURS, language, folded) || OPEN_CLOSE_SEPARABLE.test(folded),
    now: anyOf(NOW, folded),
    services: anyOf(SERVICES, folded),
    businessName: anyOf(BUSINESS_NAME, folded),
    // "hiya, how much is it": a question after a greeting or a filler is one too.
    question: /[?¿]/.test(text) || QUESTION_FIRST.test(afterLeadIn(trimmed)),
    hypothetical: anyOf(HYPOTHETICAL, folded),
    greeting: GREETING_FIRST.test(trimmed),
    greetingOnly: isGreetingOnly(trimmed),
    closing: anyOf(CLOSING, folded),
    yes: YES_FIRST.test(trimmed),
    no: NO_FIRST.test(trimmed),
    approval: APPROVAL_FIRST.test(trimmed),
  }
}

export type { PerLanguage }

/**
 * What a visitor asks for in one message. Each intent is a small list of phrasings; a negation just
 * before a callback phrase ("don't call me", "please do not call") cancels it.
 */

export interface Intents {
  /** Asks to be called (back). */
  readonly callback: boolean
  /** Asks for a demo. */
  readonly demo: boolean
  /** Asks to book, schedule or see free times. */
  readonly booking: boolean
}

const CALLBACK =
  /\b(?:call\s+(?:me|us)(?:\s+back)?|call\s*back|callback|give\s+(?:me|us)\s+a\s+(?:call|ring|buzz)|ring\s+(?:me|us)|phone\s+(?:me|us)|reach\s+(?:me|us)\s+(?:by|on|at)\s+(?:phone|\+?\d)|talk\s+(?:to|with)\s+(?:someone|a\s+(?:person|human))\s+(?:by|on|over)\s+(?:the\s+)?phone|(?:a|an)\s+phone\s+call)\b/i
const NEGATED_CALLBACK =
  /\b(?:don'?t|do\s+not|never|no\s+need\s+to|please\s+don'?t|won'?t)\s+(?:\w+\s+)?(?:call|ring|phone)\b/i

const DEMO =
  /\b(?:demo|demos|demonstration|walk-?\s?through|product\s+tour|see\s+(?:it|the\s+product)\s+in\s+action|trial\s+session)\b/i

const BOOKING =
  /\b(?:book|booking|appointment|appt|schedule|reserve|reservation|free\s+slots?|slots?|available\s+times?|availability|when\s+are\s+you\s+(?:free|available|open))\b/i

export const detectIntents = (text: string): Intents => ({
  callback: CALLBACK.test(text) && !NEGATED_CALLBACK.test(text),
  demo: DEMO.test(text),
  booking: BOOKING.test(text),
})

import type { Catalog, Formats } from "./messages/index.ts"
import type { EngineContext } from "./profile.ts"
import type { MessageFacts } from "./read-message.ts"
import type { BookedSlot, ConversationState } from "./state.ts"

/**
 * What one step of the dialogue works with (`dialogue.ts`, `dialogue-booking.ts`): the calendar's
 * answers it was given (`Known`), what it may ask of the calendar (`Need`), its answer (`Step`), and
 * the turn it is reading.
 */
export interface HeldBooking extends BookedSlot {
  readonly id: string
  /** Who holds it (a booking of the widget's form or a channel: the conversation may not know the number). */
  readonly phone?: string | undefined
  readonly name?: string | undefined
}

/** The calendar's view of one day: the start times it offers and those still free now. */
export interface DayView {
  readonly date: string
  readonly offered: ReadonlyArray<string>
  readonly free: ReadonlyArray<string>
}

export type BookingOutcome =
  | { readonly kind: "booked"; readonly id: string }
  | { readonly kind: "refused"; readonly reason: "full" | "notOffered" | "past" }

export interface Known {
  readonly days: ReadonlyMap<string, DayView>
  /** The first day from `from` (within two weeks) with a free slot, or null. */
  readonly nextOpen?: { readonly from: string; readonly date: string | null }
  readonly booking?: BookingOutcome
  readonly cancelled?: boolean
  /** The booking to cancel or move when the conversation made none itself: on a phone channel the
   * customer's next one, on the widget the next one booked in this session (its form), or null. */
  readonly held?: HeldBooking | null
}

export const nothingKnown: Known = { days: new Map() }

export type Need =
  | { readonly kind: "day"; readonly date: string }
  | { readonly kind: "nextOpenDay"; readonly from: string }
  | { readonly kind: "book"; readonly slot: BookedSlot; readonly phone: string; readonly name: string }
  | {
      readonly kind: "move"
      readonly from: HeldBooking
      readonly to: BookedSlot
      readonly phone: string
      readonly name: string
    }
  | { readonly kind: "cancel"; readonly booking: HeldBooking }
  | { readonly kind: "held" }

export type Step =
  | { readonly kind: "need"; readonly need: Need }
  | { readonly kind: "reply"; readonly text: string; readonly state: ConversationState }

export const need = (value: Need): Step => ({ kind: "need", need: value })

export interface Turn {
  readonly facts: MessageFacts
  readonly context: EngineContext
  readonly known: Known
  readonly catalog: Catalog
  readonly formats: Formats
  /** The state with this message's facts folded in. */
  readonly state: ConversationState
  /** A phone number arrived in this message (widget). */
  readonly phoneNow: boolean
  readonly corrected: boolean
}

/** A time written "6:00 p.m." (Spanish in the US) ends its sentence with its own period. */
export const tidy = (text: string): string => text.replace(/(?<![\p{L}])([ap]\.\s?m\.)\./gu, "$1")

export const reply = (turn: Turn, text: string, state: ConversationState = turn.state): Step => ({
  kind: "reply",
  text: tidy(text),
  state,
})

/** The dialogue's transient parts cleared: offers, a pending slot, a pending question (a day, a service). */
export const settle = (state: ConversationState): ConversationState => {
  const { offered: _o, pending: _p, conflict: _c, awaiting: _a, serviceQuestion: _s, ...rest } = state
  return rest
}

export const phoneOf = (turn: Turn): string | undefined => turn.context.customerPhone ?? turn.state.phone

/**
 * A number as the visitor reads it: formatted the way its country writes it, or — when the number
 * plan does not know it (`555-1234`) or they wrote it with its country code — as they wrote it in
 * this message.
 */
export const display = (turn: Turn, digits: string): string => {
  if (digits.startsWith("0")) return digits
  const shown = turn.formats.phone(digits)
  const written = turn.facts.phone
  if (written?.digits !== digits) return shown
  const asWritten = turn.facts.text.slice(written.start, written.end).trim()
  // Written with its country code in this message ("+49 151 23456789"): said back as written, not
  // regrouped by the number plan.
  return shown === `+${digits}` || /^(?:\+|00)/.test(asWritten) ? asWritten : shown
}

/**
 * The number written in this message, as written, when no country's plan has it ("0612 34 56 78"
 * or "07700 900123" to a US business, which would be a made-up "+1 0…"; see `inPlan`): checked with
 * the visitor, and neither stored nor recorded as a lead until they confirm or correct it
 * (docs/contract.md §8: the reply and what is stored agree).
 */
export const doubtfulNumber = (turn: Turn): string | undefined => {
  const written = turn.facts.phone
  if (written === undefined || !written.doubtful || turn.context.customerPhone !== undefined) return undefined
  return turn.facts.text.slice(written.start, written.end).trim()
}

import type { Booking } from "@parley/contracts"
import { Schema } from "effect"

/**
 * What the assistant remembers of one conversation between turns (stored as JSON with the session):
 * who the visitor is, what they asked for, and where the booking dialogue stands.
 */
export const ConversationState = Schema.Struct({
  phone: Schema.optionalKey(Schema.String),
  name: Schema.optionalKey(Schema.String),
  callback: Schema.Boolean,
  demo: Schema.Boolean,
  /** Asked to book at some point (a request worth recording on a channel even before booking). */
  bookingAsked: Schema.Boolean,
  /** The booking made in this conversation. */
  booking: Schema.optionalKey(Schema.Struct({ date: Schema.String, time: Schema.String, service: Schema.String })),
  /** Free times were offered for this date and service; the visitor is choosing. */
  offered: Schema.optionalKey(Schema.Struct({ date: Schema.String, service: Schema.String })),
  /** A slot the visitor picked before giving a phone number to book it under (widget only). */
  pending: Schema.optionalKey(Schema.Struct({ date: Schema.String, time: Schema.String, service: Schema.String })),
})
export type ConversationState = typeof ConversationState.Type

export const emptyConversation: ConversationState = { callback: false, demo: false, bookingAsked: false }

/** After a reset: the dialogue is forgotten, who the visitor is (and so their lead) is kept. */
export const resetConversation = (state: ConversationState): ConversationState => ({
  ...emptyConversation,
  ...(state.phone === undefined ? {} : { phone: state.phone }),
  ...(state.name === undefined ? {} : { name: state.name }),
})

export const decodeConversationState = (value: unknown): ConversationState => {
  const decoded = Schema.decodeUnknownOption(ConversationState)(value)
  return decoded._tag === "Some" ? decoded.value : emptyConversation
}

export type BookedSlot = Booking

import { Schema } from "effect"

/**
 * What the assistant remembers of one conversation between turns (stored as JSON with the session):
 * who the visitor is, what they asked for, where the booking dialogue stands, and the language.
 * Fields added later are optional, so a conversation stored by an older engine still decodes.
 */
const Slot = Schema.Struct({ date: Schema.String, time: Schema.String, service: Schema.String })

export const ConversationState = Schema.Struct({
  phone: Schema.optionalKey(Schema.String),
  name: Schema.optionalKey(Schema.String),
  callback: Schema.Boolean,
  demo: Schema.Boolean,
  /** Asked to book at some point (a request worth recording on a channel even before booking). */
  bookingAsked: Schema.Boolean,
  /** The booking made in this conversation, and its id. */
  booking: Schema.optionalKey(Slot),
  bookingId: Schema.optionalKey(Schema.String),
  /**
   * A booking was made in this conversation, though it may have been cancelled since: the lead stays
   * `BOOKING` ("when a booking was made in it", docs/contract.md §8), with `booking: null`.
   */
  bookingMade: Schema.optionalKey(Schema.Boolean),
  /** Free times were offered for this date and service; the visitor is choosing. */
  offered: Schema.optionalKey(
    Schema.Struct({
      date: Schema.String,
      service: Schema.String,
      /** The part of the day asked for ("tomorrow afternoon"): the times offered were that part's. */
      partOfDay: Schema.optionalKey(Schema.Literals(["morning", "afternoon", "evening"])),
    }),
  ),
  /** A free slot the visitor picked, waiting for a name or a phone number to book it under. */
  pending: Schema.optionalKey(Slot),
  /** A weekday and a date disagreed: the two dates, and the time and service asked for. */
  conflict: Schema.optionalKey(
    Schema.Struct({
      byWeekday: Schema.String,
      byDay: Schema.String,
      time: Schema.optionalKey(Schema.String),
      service: Schema.String,
    }),
  ),
  /**
   * What the last reply asked for, so a bare answer ("Dana", "415 555 0100", "yes please", "no
   * thanks") is read as that: `day` another day (or the one named: `offered`), `service` which service
   * (`serviceQuestion`), `book` a booking
   * ("would you like to book one?", "… another time?"), `more` anything else; `done` nothing — the reply settled its matter
   * (a booking confirmed, a callback noted, a question answered), so a "yes" or "thanks" closes.
   */
  awaiting: Schema.optionalKey(
    Schema.Literals(["name", "phone", "time", "callbackOffer", "confirm", "day", "book", "more", "done", "service"]),
  ),
  /**
   * "Which service would you like?" was asked (two or more offered, none named): what the visitor had
   * already given for the booking (the day, the time, the part of the day), kept for the answer, and
   * how many times the question was asked.
   */
  serviceQuestion: Schema.optionalKey(
    Schema.Struct({
      date: Schema.optionalKey(Schema.String),
      time: Schema.optionalKey(Schema.String),
      partOfDay: Schema.optionalKey(Schema.Literals(["morning", "afternoon", "evening"])),
      asked: Schema.Number,
    }),
  ),
  /** "Next week" was asked for: the Monday it starts on, where a weekday named later falls. */
  week: Schema.optionalKey(Schema.String),
  /** The service the visitor asked for in this conversation (kept when a time is refused). */
  service: Schema.optionalKey(Schema.String),
  /** The visitor asked not to be called (a callback request withdrawn). */
  noCall: Schema.optionalKey(Schema.Boolean),
  /** The language of the conversation so far (one of the profile's). */
  language: Schema.optionalKey(Schema.String),
  /**
   * The leads this conversation recorded, by phone: whether it created the lead, and what the lead
   * said before this conversation first changed it — so a corrected number releases or restores only
   * what this conversation did (docs/contract.md §8), never another visitor's lead.
   */
  leads: Schema.optionalKey(
    Schema.Record(
      Schema.String,
      Schema.Struct({
        created: Schema.Boolean,
        before: Schema.optionalKey(
          Schema.Struct({ name: Schema.String, type: Schema.String, lastType: Schema.String }),
        ),
      }),
    ),
  ),
})
export type ConversationState = typeof ConversationState.Type
export type BookedSlot = typeof Slot.Type

export const emptyConversation: ConversationState = { callback: false, demo: false, bookingAsked: false }

/** After a reset: the dialogue is forgotten, who the visitor is (and so their lead) is kept. */
export const resetConversation = (state: ConversationState): ConversationState => ({
  ...emptyConversation,
  ...(state.phone === undefined ? {} : { phone: state.phone }),
  ...(state.name === undefined ? {} : { name: state.name }),
  ...(state.language === undefined ? {} : { language: state.language }),
  ...(state.leads === undefined ? {} : { leads: state.leads }),
})

export const decodeConversationState = (value: unknown): ConversationState => {
  const decoded = Schema.decodeUnknownOption(ConversationState)(value)
  return decoded._tag === "Some" ? decoded.value : emptyConversation
}

import { book, bookOn, conflictQuestion } from "./dialogue-booking.ts"
import { requestCall } from "./dialogue-requests.ts"
import { reply, type Step, settle, type Turn } from "./dialogue-turn.ts"
import type { MessageFacts } from "./read-message.ts"
import type { ConversationState } from "./state.ts"

// Short answers ("yes please", "no thanks", "thanks!", "great", "👍", in the five languages): the
// answer to what the last reply asked (`ConversationState.awaiting`), never a new conversation.

/** A short reply and nothing more: what it says, or undefined when it asks or names anything. */
interface ShortAnswer {
  /** A yes or an approval ("great", "👍"). */
  readonly yes: boolean
  /** A yes word itself: "great" after a cancellation is no wish to book again. */
  readonly plainYes: boolean
  readonly no: boolean
  readonly thanks: boolean
}

/** "Yes please", "no thanks", "thanks!", "great", "ok", "👍" (up to five words): nothing asked, named or requested. */
export const shortAnswer = (facts: MessageFacts): ShortAnswer | undefined => {
  const { intents, when } = facts
  if (
    intents.question ||
    intents.booking ||
    intents.cancel ||
    intents.move ||
    intents.callback ||
    intents.demo ||
    intents.noCall ||
    intents.hours ||
    intents.services ||
    intents.ownBooking
  ) {
    return undefined
  }
  const namesTime = when.date !== undefined || when.time !== undefined || when.earliest || when.week !== undefined
  if (namesTime || facts.phone !== undefined || facts.service !== undefined) return undefined
  if (facts.text.trim().split(/\s+/u).length > 5) return undefined
  const yes = (intents.yes || intents.approval) && !intents.no
  if (!yes && !intents.no && !intents.closing) return undefined
  return { yes, plainYes: intents.yes && !intents.no, no: intents.no, thanks: intents.closing && !intents.no }
}

/** A thank-you: with the booking this conversation holds, its day and time said again. */
export const closing = (turn: Turn): string => {
  const { catalog, formats, state } = turn
  const booking = state.booking
  if (booking === undefined) return catalog.closing(state.name)
  return catalog.closingBooked(state.name, formats.date(booking.date), formats.time(booking.time))
}

/**
 * A short answer read as the answer to the last reply's question (`previous.awaiting`): a "yes" to
 * times, a day or a booking offered shows the times or asks the day (it books nothing: a slot is
 * booked only on a yes to that slot, above); a "no" asks which other day or closes; after a reply
 * that asked nothing, a thank-you or an "ok" closes, with the booking held said again.
 */
export const answerShort = (turn: Turn, previous: ConversationState, short: ShortAnswer): Step | undefined => {
  const { catalog, formats, state } = turn
  const settled = settle(state)
  const askDay = (text: string): Step =>
    reply(turn, text, {
      ...settled,
      bookingAsked: true,
      awaiting: "day",
      ...(previous.pending?.service === undefined ? {} : { service: previous.pending.service }),
      ...(previous.offered?.service ? { service: previous.offered.service } : {}),
      ...(previous.conflict?.service ? { service: previous.conflict.service } : {}),
    })
  // "Did you mean Thursday, December 3 or Friday, December 4?" — "yes" chooses neither: asked again.
  const conflict = previous.conflict
  if (conflict !== undefined) {
    if (short.no) return askDay(catalog.otherTime())
    if (!short.yes) return undefined
    return reply(turn, conflictQuestion(turn, conflict), { ...state, conflict })
  }
  switch (previous.awaiting) {
    case "confirm": {
      if (short.no) return askDay(catalog.otherTime())
      const pending = previous.pending
      if (pending === undefined) return undefined
      // "Perfect", "👍" alone accept the slot proposed, as a "yes" does.
      if (short.yes && !short.thanks) return bookOn({ ...turn, state: { ...state, bookingAsked: true } }, pending)
      // "Thanks" to "shall I book it?" is no yes: asked again, nothing booked.
      return reply(turn, catalog.proposeSlot(pending.service, formats.date(pending.date), formats.time(pending.time)), {
        ...state,
        pending,
        awaiting: "confirm",
      })
    }
    case "time": {
      const offered = previous.offered
      if (short.no) return askDay(catalog.otherTime())
      if (!short.yes || offered === undefined) return undefined
      // Times offered before a service was chosen (after a refused time): which one, first.
      if (offered.service === "") return book(turn, previous)
      return bookOn(turn, { date: offered.date, time: undefined, service: offered.service })
    }
    case "day": {
      const offered = previous.offered
      if (short.no) return reply(turn, catalog.noted(state.name), settled)
      if (!short.yes) return undefined
      if (offered === undefined) return askDay(catalog.whichDay())
      if (offered.service === "") return book(turn, previous)
      return bookOn(turn, { date: offered.date, time: undefined, service: offered.service })
    }
    case "book":
      if (short.plainYes && !short.thanks) return askDay(catalog.whichDay())
      return reply(turn, short.thanks ? closing(turn) : catalog.noted(state.name), settled)
    case "more":
      if (short.plainYes && !short.thanks) return reply(turn, catalog.whatElse(), settled)
      return reply(turn, short.thanks ? closing(turn) : catalog.noted(state.name), settled)
    case "name":
    case "phone":
      // "May I have your name?" — "👍" / "no": the booking goes on (the number is asked next), as a "yes" does.
      if (previous.pending === undefined || (previous.awaiting === "phone" && !short.yes)) return undefined
      if (short.thanks && !short.yes) return undefined
      return book(turn, previous)
    case "callbackOffer":
      if (short.no) return reply(turn, catalog.noted(state.name), settled)
      // "Great", "👍" alone accept the callback offered, as a "yes" does.
      if (short.yes && !short.thanks) {
        return requestCall({ ...turn, state: { ...state, callback: true, noCall: false } }, "callback")
      }
      return undefined
    case "done": {
      if (short.thanks || turn.facts.intents.closing)
        return reply(turn, closing(turn), { ...settled, awaiting: "done" })
      const booking = state.booking
      const text =
        booking === undefined
          ? catalog.noted(state.name)
          : catalog.allSet(state.name, formats.date(booking.date), formats.time(booking.time))
      return reply(turn, text, { ...settled, awaiting: "done" })
    }
    default:
      return undefined
  }
}

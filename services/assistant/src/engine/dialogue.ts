import { type Answered, answerQuestion, dontKnow } from "./answers.ts"
import { weekdayOf } from "./calendar-date.ts"
import { questionAside, withQuestionBeside } from "./dialogue-asides.ts"
import {
  asksAboutOwnBooking,
  book,
  bookOn,
  cancel,
  heldBooking,
  isAboutBooking,
  isMoveRequest,
  move,
  ownBooking,
} from "./dialogue-booking.ts"
import { numberNoted, requestCall } from "./dialogue-requests.ts"
import { answerShort, closing, shortAnswer } from "./dialogue-short.ts"
import { doubtfulNumber, type Known, need, reply, type Step, type Turn, tidy } from "./dialogue-turn.ts"
import { CATALOGS, formatsFor } from "./messages/index.ts"
import type { EngineContext } from "./profile.ts"
import type { MessageFacts } from "./read-message.ts"
import type { BookedSlot, ConversationState } from "./state.ts"

export type { BookingOutcome, DayView, HeldBooking, Known, Need, Step } from "./dialogue-turn.ts"
export { nothingKnown } from "./dialogue-turn.ts"

/**
 * One turn of the deterministic engine, as a pure function asked again until it answers: `step`
 * either replies (text and next state) or says what it needs from the calendar first — a day's free
 * times, the next open day, a booking made, cancelled or moved, the customer's booking on a
 * channel. The caller (`chat/deterministic-turn.ts`) fetches it, adds it to `known`, and asks
 * again. The engine itself reads nothing and writes nothing.
 *
 * Manners (docs/contract.md §8): one missing detail asked at a time (a time, then a name, then a phone
 * number); a closed day, a past time, a time outside the hours or a taken slot said before any
 * phone number is asked for; a weekday and a date that disagree asked about instead of booked; a
 * booking cancelled or moved when asked; a corrected number taken; "don't call me" withdraws the
 * callback; a demo request is never a booking request; a request for no more messages is told how
 * to stop them.
 */

/** Folds what this message says about the visitor and their requests into the state. */
const absorb = (state: ConversationState, facts: MessageFacts, context: EngineContext) => {
  const widget = context.customerPhone === undefined
  // A number no plan has is asked about and kept out of the state (so out of any lead) until confirmed.
  const newPhone = widget && facts.phone !== undefined && !facts.phone.doubtful ? facts.phone.digits : undefined
  const corrected = newPhone !== undefined && state.phone !== undefined && state.phone !== newPhone
  const { intents } = facts
  const withdrawn = intents.noCall
  const { awaiting: _awaiting, serviceQuestion, ...rest } = state
  const next: ConversationState = {
    ...rest,
    // What was given before "which service?" waits only for the answer to it.
    ...(serviceQuestion === undefined || state.awaiting !== "service" ? {} : { serviceQuestion }),
    language: facts.language,
    ...(newPhone === undefined ? {} : { phone: newPhone }),
    ...(facts.name === undefined ? {} : { name: facts.name }),
    // A service asked about ("do you do nail trims?") is the one a day named next books.
    ...(facts.service === undefined ? {} : { service: facts.service }),
    callback: withdrawn ? false : state.callback || intents.callback,
    demo: state.demo || intents.demo,
    bookingAsked: state.bookingAsked || intents.booking,
    ...(withdrawn ? { noCall: true } : intents.callback ? { noCall: false } : {}),
  }
  return { next, phoneNow: newPhone !== undefined && newPhone !== state.phone, corrected }
}

/**
 * What the message says about the visitor (number, name, callback, demo, "don't call me",
 * language), folded into the state without any dialogue: the safety net that runs after a language
 * model's turn, so a model that forgets its tool loses no lead (docs/contract.md §8).
 */
export const captureFacts = (
  state: ConversationState,
  facts: MessageFacts,
  context: EngineContext,
): ConversationState => {
  const { awaiting: _awaiting, ...next } = absorb(state, facts, context).next
  return state.awaiting === undefined ? next : { ...next, awaiting: state.awaiting }
}

/** The confirmation of a booking, in the conversation's language (also when a model booked and then failed). */
export const bookingConfirmation = (
  state: ConversationState,
  facts: MessageFacts,
  context: EngineContext,
  slot: BookedSlot,
): string => {
  const formats = formatsFor(facts.language, context.settings.country)
  return tidy(
    CATALOGS[facts.language].booked(state.name, slot.service, formats.date(slot.date), formats.time(slot.time)),
  )
}

/**
 * An answer; one that ends offering a callback waits for the visitor's "yes", one that ends offering
 * a booking (the services) for a "yes" to that, any other settles its matter ("ok", "thanks" close).
 */
const answered = (turn: Turn, next: ConversationState, answer: Answered): Step => {
  if (answer.callbackOffered) return reply(turn, answer.text, { ...next, awaiting: "callbackOffer" })
  const services = turn.catalog.services(turn.formats.list(turn.context.settings.services))
  return reply(turn, answer.text, { ...next, awaiting: answer.text.endsWith(services) ? "book" : "done" })
}

export const step = (previous: ConversationState, facts: MessageFacts, context: EngineContext, known: Known): Step => {
  const catalog = CATALOGS[facts.language]
  const formats = formatsFor(facts.language, context.settings.country)
  const { next, phoneNow, corrected } = absorb(previous, facts, context)
  const turn: Turn = { facts, context, known, catalog, formats, state: next, phoneNow, corrected }
  const { intents } = facts

  // "The 31st of November": said to be no date, never read as another day (nor today).
  if (facts.when.impossible !== undefined) return reply(turn, catalog.noSuchDate(facts.when.impossible))
  // "Please stop messaging me": how to stop, never the menu. On a phone channel that is §9's stop word
  // (messaging records it); the widget never writes first, so there: not contacted unless they ask.
  // Before the short answers: "no more messages please" is not a "no".
  if (intents.stopMessages) {
    const widget = context.customerPhone === undefined
    return reply(turn, widget ? catalog.notContacted() : catalog.howToStopMessages(), { ...next, awaiting: "done" })
  }
  // A callback offered ("shall someone call you?") and accepted.
  if (previous.awaiting === "callbackOffer" && intents.yes && !intents.noCall) {
    return requestCall({ ...turn, state: { ...next, callback: true, noCall: false } }, "callback")
  }
  // A slot proposed (a date the visitor did not name) and accepted: the booking goes on with it.
  if (previous.awaiting === "confirm" && previous.pending !== undefined && accepts(facts)) {
    return bookOn({ ...turn, state: { ...next, bookingAsked: true } }, previous.pending)
  }
  // "Yes please", "no thanks", "ok", "👍": the answer to what the last reply asked, not a new conversation.
  const short = shortAnswer(facts)
  const shortReply = short === undefined ? undefined : answerShort(turn, previous, short)
  if (shortReply !== undefined) return shortReply
  const held = heldBooking(turn)
  if (held === "needed") return need({ kind: "held" })
  // "What happens if I cancel?" asks about the policy; it cancels nothing.
  const cancels = intents.cancel && !(intents.hypothetical && intents.question)
  if (held !== undefined && cancels && !intents.move) {
    // "Cancel my booking on 1 December" when the booking held is on the 2nd: said, nothing cancelled.
    const { when } = facts
    // A weekday named alone is the held booking's when that is its weekday ("cancel my Friday one").
    const sameWeekday = when.weekdayOnly === true && when.weekday === weekdayOf(held.date)
    const otherDay = when.date !== undefined && when.date !== held.date && !sameWeekday
    const otherTime = when.time !== undefined && when.time !== held.time && !otherDay
    if (otherDay || otherTime) {
      const named = otherDay
        ? formats.date(when.date ?? held.date)
        : `${formats.date(held.date)}, ${formats.time(when.time ?? held.time)}`
      return reply(
        turn,
        catalog.notThatBooking(named, held.service, formats.date(held.date), formats.time(held.time)),
        {
          ...next,
          awaiting: "done",
        },
      )
    }
    return cancel(turn, held)
  }
  if (held !== undefined && isMoveRequest(turn, previous)) return move(turn, held)
  // "Is my appointment still on?": the booking held, or that there is none — never free times.
  if (asksAboutOwnBooking(turn)) return ownBooking(turn, held)
  // "Move my booking to 11:00" with no booking held here: said so, never a new booking on a guessed day.
  if (held === undefined && intents.move && intents.ownBooking && !cancels) {
    return reply(turn, catalog.noBookingHeld(), { ...next, awaiting: "callbackOffer" })
  }
  if (cancels && (intents.booking || previous.booking !== undefined) && held === undefined) {
    return reply(turn, catalog.nothingToCancel(), { ...next, awaiting: "callbackOffer" })
  }
  // A question asked while the booking waits for a name or a number ("what time do you open on
  // Monday?"): answered, and what is missing asked for again.
  const aside = questionAside(turn, previous)
  if (aside !== undefined) return aside
  // "Hello again?", "anyone there?", "bonjour ?": a hello (or "are you there?"), never a question
  // nothing answers (which would offer a callback and wait for a person).
  if (intents.greetingOnly) return greet(turn)
  // A question the business's knowledge answers gets that answer, never a booking reply.
  if (isKnowledgeQuestion(turn, previous)) {
    const answer = answerQuestion(facts, context, catalog, formats)
    if (answer !== undefined) return answered(turn, next, answer)
  }
  // "Are you open on Saturday? I'd like to book a haircut": the question answered, the booking carried on.
  if (isAboutBooking(turn, previous)) return withQuestionBeside(turn, book(turn, previous))
  if (intents.noCall) return reply(turn, catalog.callWithdrawn(next.name), { ...next, awaiting: "more" })
  // "Do you take card? Also can someone ring me tomorrow": the question answered, the call noted.
  if (intents.demo || intents.callback)
    return withQuestionBeside(turn, requestCall(turn, intents.demo ? "demo" : "callback"))
  if (phoneNow || doubtfulNumber(turn) !== undefined) {
    // A question asked beside the number ("do you wash motorbikes? here's my number") is answered too,
    // when the business's knowledge answers it.
    const answer = facts.intents.question ? answerQuestion(facts, context, catalog, formats) : undefined
    const noted = numberNoted(turn, previous)
    if (answer === undefined || answer.callbackOffered || noted.kind !== "reply") return noted
    return { ...noted, text: `${answer.text} ${noted.text}` }
  }
  // A channel books under the sender's number without asking a name: one sent afterwards ("Ana Lima")
  // is thanked for and kept (so on the lead), the booking said again.
  const booking = previous.booking
  if (facts.name !== undefined && previous.name === undefined && booking !== undefined) {
    const text = catalog.nameNoted(facts.name, formats.date(booking.date), formats.time(booking.time))
    return reply(turn, text, { ...next, awaiting: "done" })
  }
  const answer = answerQuestion(facts, context, catalog, formats)
  if (answer !== undefined) return answered(turn, next, answer)
  if (intents.question) return reply(turn, dontKnow(context, catalog), { ...next, awaiting: "callbackOffer" })
  if (facts.name !== undefined && facts.name !== previous.name) {
    // A name given while offered times wait for a choice: thanks, and the time asked for again.
    const offered = previous.awaiting === "time" ? previous.offered : undefined
    if (offered !== undefined) {
      const day = formats.date(offered.date)
      return reply(turn, catalog.nameNotedWhichTime(facts.name, day), { ...next, offered, awaiting: "time" })
    }
    return reply(turn, catalog.niceToMeet(facts.name))
  }
  if (intents.closing) return reply(turn, closing(turn))
  if (intents.greeting) return greet(turn)
  return reply(turn, catalog.menu(context.profile.businessName))
}

/**
 * A hello. The widget showed the greeting before the visitor typed: a "hello" back is asked what
 * they need, not greeted a second time. A phone channel showed nothing, so there the greeting comes first.
 */
const greet = (turn: Turn): Step => {
  const { context, catalog, facts } = turn
  if (context.customerPhone === undefined) return reply(turn, catalog.helloBack())
  // The greeting the business wrote is in its first language; a visitor writing in another gets the catalog's.
  const written = facts.language === context.profile.languages[0] ? context.profile.greeting?.trim() : undefined
  return reply(turn, written || catalog.greeting(context.profile.businessName))
}

/** An answer that accepts a proposed slot: a yes, or going on with the details it needs. */
const accepts = (facts: MessageFacts): boolean =>
  !facts.intents.no &&
  !facts.intents.noCall &&
  !facts.intents.cancel &&
  facts.when.date === undefined &&
  facts.when.time === undefined &&
  (facts.intents.yes || facts.name !== undefined || facts.phone !== undefined || facts.intents.booking)

/**
 * A question about the business, outside a booking dialogue, naming no day or time and asking for
 * nothing (a callback, a demo, a booking, a change — a question about what would happen if one were
 * made asks for none): answered from what the business wrote.
 */
const isKnowledgeQuestion = (turn: Turn, previous: ConversationState): boolean => {
  const { intents, when, phone } = turn.facts
  // "What happens if I cancel late?" asks about a policy: its booking or cancelling words ask for neither.
  const asksForChange = !intents.hypothetical && (intents.booking || intents.cancel || intents.move)
  return (
    intents.question &&
    !asksForChange &&
    !intents.demo &&
    !intents.callback &&
    phone === undefined &&
    when.date === undefined &&
    when.time === undefined &&
    !when.earliest &&
    when.week === undefined &&
    previous.pending === undefined &&
    previous.offered === undefined &&
    previous.conflict === undefined &&
    // "Which service would you like?" — "the colour?": an answer, not a question about the services.
    !(previous.awaiting === "service" && turn.facts.service !== undefined)
  )
}

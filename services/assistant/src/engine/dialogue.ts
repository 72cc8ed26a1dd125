import { type Answered, answerQuestion, dontKnow } from "./answers.ts"
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
import {
  display,
  doubtfulNumber,
  type Known,
  need,
  phoneOf,
  reply,
  type Step,
  settle,
  type Turn,
  tidy,
} from "./dialogue-turn.ts"
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
 * callback; a demo request is never a booking request.
 */

/** Folds what this message says about the visitor and their requests into the state. */
const absorb = (state: ConversationState, facts: MessageFacts, context: EngineContext) => {
  const widget = context.customerPhone === undefined
  const newPhone = widget && facts.phone !== undefined ? facts.phone.digits : undefined
  const corrected = newPhone !== undefined && state.phone !== undefined && state.phone !== newPhone
  const { intents } = facts
  const withdrawn = intents.noCall
  const { awaiting: _awaiting, ...rest } = state
  const next: ConversationState = {
    ...rest,
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
  if (held !== undefined && cancels && !intents.move) return cancel(turn, held)
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
  // A question the business's knowledge answers gets that answer, never a booking reply.
  if (isKnowledgeQuestion(turn, previous)) {
    const answer = answerQuestion(facts, context, catalog, formats)
    if (answer !== undefined) return answered(turn, next, answer)
  }
  if (isAboutBooking(turn, previous)) return book(turn, previous)
  if (intents.noCall) return reply(turn, catalog.callWithdrawn(next.name), { ...next, awaiting: "more" })
  if (intents.demo || intents.callback) return requestCall(turn, intents.demo ? "demo" : "callback")
  if (phoneNow) {
    // A question asked beside the number ("do you wash motorbikes? here's my number") is answered too,
    // when the business's knowledge answers it.
    const answer = facts.intents.question ? answerQuestion(facts, context, catalog, formats) : undefined
    const noted = numberNoted(turn, previous)
    if (answer === undefined || answer.callbackOffered || noted.kind !== "reply") return noted
    return { ...noted, text: `${answer.text} ${noted.text}` }
  }
  const answer = answerQuestion(facts, context, catalog, formats)
  if (answer !== undefined) return answered(turn, next, answer)
  if (intents.question) return reply(turn, dontKnow(context, catalog), { ...next, awaiting: "callbackOffer" })
  if (facts.name !== undefined && facts.name !== previous.name) return reply(turn, catalog.niceToMeet(facts.name))
  if (intents.closing) return reply(turn, closing(turn))
  if (intents.greeting) {
    // The greeting the business wrote is in its first language; a visitor writing in another gets the catalog's.
    const written = facts.language === context.profile.languages[0] ? context.profile.greeting?.trim() : undefined
    return reply(turn, written || catalog.greeting(context.profile.businessName))
  }
  return reply(turn, catalog.menu(context.profile.businessName))
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
    previous.conflict === undefined
  )
}

/**
 * A question beside the booking dialogue, while it waits for the name or the number of a slot
 * chosen: it names no other slot (a day only for the opening hours) and asks for no change. The
 * answer, then the question the booking is waiting on, asked again; undefined when nothing answers.
 */
const questionAside = (turn: Turn, previous: ConversationState): Step | undefined => {
  const { intents, when } = turn.facts
  const { pending, awaiting } = previous
  if (pending === undefined || (awaiting !== "name" && awaiting !== "phone")) return undefined
  if (!intents.question || turn.facts.phone !== undefined || turn.facts.name !== undefined) return undefined
  if (intents.booking || intents.cancel || intents.move || intents.callback || intents.demo) return undefined
  if (when.time !== undefined || when.earliest || (when.date !== undefined && !intents.hours)) return undefined
  const answer = answerQuestion(turn.facts, turn.context, turn.catalog, turn.formats)
  if (answer === undefined || answer.callbackOffered) return undefined
  const { catalog, formats, state } = turn
  const again =
    awaiting === "name"
      ? catalog.askName(pending.service, formats.date(pending.date), formats.time(pending.time))
      : catalog.askPhoneForBooking(state.name)
  return reply(turn, `${answer.text} ${again}`, { ...state, pending, awaiting })
}

/** A callback or demo asked for: noted when the number is known, else the number asked for. */
const requestCall = (turn: Turn, kind: "callback" | "demo"): Step => {
  const { catalog, state } = turn
  const phone = phoneOf(turn)
  if (phone === undefined) {
    const ask = kind === "demo" ? catalog.askPhoneForDemo(state.name) : catalog.askPhoneForCallback(state.name)
    return reply(turn, ask, { ...state, awaiting: "phone" })
  }
  const doubtful = doubtfulNumber(turn)
  if (doubtful !== undefined) return reply(turn, catalog.checkNumber(doubtful), { ...state, awaiting: "phone" })
  const shown = display(turn, phone)
  const noted = kind === "demo" ? catalog.demoNoted(state.name, shown) : catalog.callbackNoted(state.name, shown)
  return reply(turn, turn.corrected ? `${catalog.phoneCorrected(shown)} ${noted}` : noted, {
    ...state,
    awaiting: "done",
  })
}

const numberNoted = (turn: Turn, previous: ConversationState): Step => {
  const { catalog, state } = turn
  const doubtful = doubtfulNumber(turn)
  if (doubtful !== undefined) return reply(turn, catalog.checkNumber(doubtful), { ...state, awaiting: "phone" })
  const shown = display(turn, state.phone ?? "")
  const done: ConversationState = { ...state, awaiting: "done" }
  if (turn.corrected) return reply(turn, catalog.phoneCorrected(shown), done)
  if (state.demo && !previous.demo) return reply(turn, catalog.demoNoted(state.name, shown), done)
  if (previous.awaiting === "phone" && state.demo) return reply(turn, catalog.demoNoted(state.name, shown), done)
  if (state.callback) return reply(turn, catalog.callbackNoted(state.name, shown), done)
  return reply(turn, catalog.numberNoted(state.name, shown), done)
}

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
const shortAnswer = (facts: MessageFacts): ShortAnswer | undefined => {
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
const closing = (turn: Turn): string => {
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
const answerShort = (turn: Turn, previous: ConversationState, short: ShortAnswer): Step | undefined => {
  const { catalog, formats, state } = turn
  const settled = settle(state)
  const askDay = (text: string): Step =>
    reply(turn, text, {
      ...settled,
      bookingAsked: true,
      awaiting: "day",
      ...(previous.pending?.service === undefined ? {} : { service: previous.pending.service }),
      ...(previous.offered?.service === undefined ? {} : { service: previous.offered.service }),
      ...(previous.conflict?.service === undefined ? {} : { service: previous.conflict.service }),
    })
  // "Did you mean Thursday, December 3 or Friday, December 4?" — "yes" chooses neither: asked again.
  const conflict = previous.conflict
  if (conflict !== undefined) {
    if (short.no) return askDay(catalog.otherTime())
    if (!short.yes) return undefined
    const named = formats.weekday(conflict.byWeekday)
    const asked = catalog.weekdayMismatch(named, formats.date(conflict.byWeekday), formats.date(conflict.byDay))
    return reply(turn, asked, { ...state, conflict })
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
      return bookOn(turn, { date: offered.date, time: undefined, service: offered.service })
    }
    case "day": {
      const offered = previous.offered
      if (short.no) return reply(turn, catalog.noted(state.name), settled)
      if (!short.yes) return undefined
      if (offered === undefined) return askDay(catalog.whichDay())
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

import { openingRangesOn } from "../bookings/settings.ts"
import { answerQuestion, dontKnow, rangesText } from "./answers.ts"
import { addDays, weekdayOf } from "./calendar-date.ts"
import { CATALOGS, type Catalog, type Formats, formatsFor } from "./messages/index.ts"
import type { EngineContext } from "./profile.ts"
import type { MessageFacts } from "./read-message.ts"
import type { BookedSlot, ConversationState } from "./state.ts"

/**
 * One turn of the deterministic engine, as a pure function asked again until it answers: `step`
 * either replies (text and next state) or says what it needs from the calendar first — a day's free
 * times, the next open day, a booking made, cancelled or moved, the customer's booking on a
 * channel. The caller (`chat/deterministic-turn.ts`) fetches it, adds it to `known`, and asks
 * again. The engine itself reads nothing and writes nothing.
 *
 * Manners (CONTRACT.md §8): one missing detail asked at a time (a time, then a name, then a phone
 * number); a closed day, a past time, a time outside the hours or a taken slot said before any
 * phone number is asked for; a weekday and a date that disagree asked about instead of booked; a
 * booking cancelled or moved when asked; a corrected number taken; "don't call me" withdraws the
 * callback; a demo request is never a booking request.
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

const need = (value: Need): Step => ({ kind: "need", need: value })

interface Turn {
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

const reply = (turn: Turn, text: string, state: ConversationState = turn.state): Step => ({
  kind: "reply",
  text,
  state,
})

/** The dialogue's transient parts cleared: offers, a pending slot, a pending question. */
const settle = (state: ConversationState): ConversationState => {
  const { offered: _o, pending: _p, conflict: _c, awaiting: _a, ...rest } = state
  return rest
}

const phoneOf = (turn: Turn): string | undefined => turn.context.customerPhone ?? turn.state.phone

const display = (turn: Turn, digits: string): string => (digits.startsWith("0") ? digits : turn.formats.phone(digits))

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
 * model's turn, so a model that forgets its tool loses no lead (CONTRACT.md §8).
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
  return CATALOGS[facts.language].booked(state.name, slot.service, formats.date(slot.date), formats.time(slot.time))
}

export const step = (previous: ConversationState, facts: MessageFacts, context: EngineContext, known: Known): Step => {
  const catalog = CATALOGS[facts.language]
  const formats = formatsFor(facts.language, context.settings.country)
  const { next, phoneNow, corrected } = absorb(previous, facts, context)
  const turn: Turn = { facts, context, known, catalog, formats, state: next, phoneNow, corrected }
  const { intents } = facts

  // A callback offered ("shall someone call you?") and accepted.
  if (previous.awaiting === "callbackOffer" && intents.yes && !intents.noCall) {
    return requestCall({ ...turn, state: { ...next, callback: true, noCall: false } }, "callback")
  }
  // A slot proposed (a date the visitor did not name) and accepted: the booking goes on with it.
  if (previous.awaiting === "confirm" && previous.pending !== undefined && accepts(facts)) {
    return bookOn({ ...turn, state: { ...next, bookingAsked: true } }, previous.pending)
  }
  const held = heldBooking(turn)
  if (held === "needed") return need({ kind: "held" })
  if (held !== undefined && intents.cancel && !intents.move) return cancel(turn, held)
  if (held !== undefined && isMoveRequest(turn, previous)) return move(turn, held)
  if (intents.cancel && (intents.booking || previous.booking !== undefined) && held === undefined) {
    return reply(turn, catalog.nothingToCancel(), { ...next, awaiting: "callbackOffer" })
  }
  // A question the business's knowledge answers gets that answer, never a booking reply.
  if (isKnowledgeQuestion(turn, previous)) {
    const answer = answerQuestion(facts, context, catalog, formats)
    if (answer !== undefined) return reply(turn, answer)
  }
  if (isAboutBooking(turn, previous)) return book(turn, previous)
  if (intents.noCall) return reply(turn, catalog.callWithdrawn(next.name))
  if (intents.demo || intents.callback) return requestCall(turn, intents.demo ? "demo" : "callback")
  if (phoneNow) return numberNoted(turn, previous)
  const answer = answerQuestion(facts, context, catalog, formats)
  if (answer !== undefined) return reply(turn, answer)
  if (intents.question) return reply(turn, dontKnow(context, catalog), { ...next, awaiting: "callbackOffer" })
  if (facts.name !== undefined && facts.name !== previous.name) return reply(turn, catalog.niceToMeet(facts.name))
  if (intents.closing) return reply(turn, catalog.closing(next.name))
  if (intents.greeting) {
    return reply(turn, context.profile.greeting?.trim() || catalog.greeting(context.profile.businessName))
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
 * nothing (a callback, a demo, a booking, a change): answered from what the business wrote.
 */
const isKnowledgeQuestion = (turn: Turn, previous: ConversationState): boolean => {
  const { intents, when, phone } = turn.facts
  return (
    intents.question &&
    !intents.booking &&
    !intents.demo &&
    !intents.callback &&
    !intents.cancel &&
    !intents.move &&
    phone === undefined &&
    when.date === undefined &&
    when.time === undefined &&
    !when.earliest &&
    previous.pending === undefined &&
    previous.offered === undefined &&
    previous.conflict === undefined
  )
}

/** A callback or demo asked for: noted when the number is known, else the number asked for. */
const requestCall = (turn: Turn, kind: "callback" | "demo"): Step => {
  const { catalog, state } = turn
  const phone = phoneOf(turn)
  if (phone === undefined) {
    const ask = kind === "demo" ? catalog.askPhoneForDemo(state.name) : catalog.askPhoneForCallback(state.name)
    return reply(turn, ask, { ...state, awaiting: "phone" })
  }
  const shown = display(turn, phone)
  const noted = kind === "demo" ? catalog.demoNoted(state.name, shown) : catalog.callbackNoted(state.name, shown)
  return reply(turn, turn.corrected ? `${catalog.phoneCorrected(shown)} ${noted}` : noted)
}

const numberNoted = (turn: Turn, previous: ConversationState): Step => {
  const { catalog, state } = turn
  const shown = display(turn, state.phone ?? "")
  if (turn.corrected) return reply(turn, catalog.phoneCorrected(shown))
  if (state.demo && !previous.demo) return reply(turn, catalog.demoNoted(state.name, shown))
  if (previous.awaiting === "phone" && state.demo) return reply(turn, catalog.demoNoted(state.name, shown))
  if (state.callback) return reply(turn, catalog.callbackNoted(state.name, shown))
  return reply(turn, catalog.numberNoted(state.name, shown))
}

/** The booking this conversation can cancel or move: its own, else one of its widget form or, on a channel, the customer's next one. */
const heldBooking = (turn: Turn): HeldBooking | undefined | "needed" => {
  const { state, known, facts } = turn
  if (state.booking !== undefined && state.bookingId !== undefined) return { ...state.booking, id: state.bookingId }
  // A booking made through the widget's form in this session, or on a channel by this customer.
  const wantsChange = facts.intents.cancel || facts.intents.move
  if (wantsChange) {
    if (known.held === undefined) return "needed"
    return known.held ?? undefined
  }
  return undefined
}

/** A held booking and a message naming another time for it ("move it to Friday", "3pm instead"). */
const isMoveRequest = (turn: Turn, previous: ConversationState): boolean => {
  const { intents, when } = turn.facts
  if (intents.demo || intents.cancel) return false
  const namesTime = when.date !== undefined || when.time !== undefined
  if (intents.move) return true
  // A new date or time right after booking, without asking for another appointment, moves the one held.
  return namesTime && !intents.booking && previous.booking !== undefined && previous.pending === undefined
}

const cancel = (turn: Turn, held: HeldBooking): Step => {
  const { known, catalog, formats, state } = turn
  if (known.cancelled !== true) return need({ kind: "cancel", booking: held })
  const { booking: _b, bookingId: _id, ...rest } = settle(state)
  return reply(turn, catalog.cancelled(held.service, formats.date(held.date), formats.time(held.time)), rest)
}

const move = (turn: Turn, held: HeldBooking): Step => {
  const { facts, catalog, formats, known, state } = turn
  const date = facts.when.date ?? held.date
  const time = facts.when.time ?? (facts.when.date === undefined ? undefined : held.time)
  if (time === undefined) {
    return reply(turn, catalog.whichTime(formats.date(date)), {
      ...state,
      offered: { date, service: held.service },
      awaiting: "time",
    })
  }
  const target: BookedSlot = { date, time, service: facts.service ?? held.service }
  const refusal = checkSlot(turn, target)
  if (refusal !== undefined) return refusal
  if (known.booking === undefined) {
    return need({
      kind: "move",
      from: held,
      to: target,
      // A booking of the widget's form is held under the number written in the form.
      phone: held.phone ?? phoneOf(turn) ?? "",
      name: state.name ?? held.name ?? "",
    })
  }
  if (known.booking.kind === "refused") return refused(turn, target, known.booking.reason)
  return reply(turn, catalog.moved(target.service, formats.date(target.date), formats.time(target.time)), {
    ...settle(state),
    booking: target,
    bookingId: known.booking.id,
  })
}

/** Whether this message continues (or starts) the booking dialogue. */
const isAboutBooking = (turn: Turn, previous: ConversationState): boolean => {
  const { intents, when, service, name, phone } = turn.facts
  if (intents.demo) return false
  if (intents.booking) return true
  if (when.conflict !== undefined) return true
  const namesTime = when.date !== undefined || when.time !== undefined || when.earliest
  if (previous.conflict !== undefined && (namesTime || when.weekday !== undefined)) return true
  if (previous.offered !== undefined && (namesTime || service !== undefined)) return true
  if (previous.pending !== undefined && (name !== undefined || phone !== undefined || namesTime)) return true
  if (previous.pending !== undefined && turn.context.customerPhone !== undefined && name !== undefined) return true
  // A date and a time together ("Sunday at 11?") ask for a slot, whatever the verb; so does a
  // question naming a day that nothing else answers ("anything on Monday?").
  if (when.date !== undefined && when.time !== undefined && !intents.callback) return true
  return (
    when.date !== undefined &&
    intents.question &&
    !intents.hours &&
    !intents.services &&
    !intents.callback &&
    turn.facts.faq() === undefined
  )
}

/** The slot the visitor means this turn, from this message and what is pending. */
const wantedSlot = (turn: Turn, previous: ConversationState) => {
  const { when, service } = turn.facts
  const services = turn.context.settings.services
  let date = when.date
  let time = when.time
  const conflict = previous.conflict
  if (conflict !== undefined && when.conflict === undefined) {
    // "Thursday", "the 3rd", "Friday the 4th": whichever of the two the answer points at.
    if (date !== undefined && when.weekdayOnly !== true) {
      // A date named: that one.
    } else if (when.weekday !== undefined) {
      const [byWeekday, byDay] = [conflict.byWeekday, conflict.byDay]
      date = [byWeekday, byDay].find((candidate) => weekdayOf(candidate) === when.weekday)
    }
    time ??= conflict.time
  }
  date ??= previous.pending?.date ?? previous.offered?.date
  time ??= when.earliest ? "earliest" : undefined
  // "Wednesday, not Tuesday": another day for the time already chosen.
  if (time === undefined) time = previous.pending?.time
  const chosenService =
    service ??
    previous.pending?.service ??
    previous.offered?.service ??
    conflict?.service ??
    previous.service ??
    services[0] ??
    ""
  return { date, time, service: chosenService }
}

const book = (turn: Turn, previous: ConversationState): Step => {
  const { facts, catalog, formats, known, context } = turn
  const state: ConversationState = {
    ...turn.state,
    bookingAsked: true,
    ...(facts.service === undefined ? {} : { service: facts.service }),
  }
  const booking = { ...turn, state }
  const { when } = facts
  const wanted = wantedSlot(booking, previous)

  if (when.conflict !== undefined) {
    const named = formats.weekday(when.conflict.byWeekday)
    return reply(
      booking,
      catalog.weekdayMismatch(named, formats.date(when.conflict.byWeekday), formats.date(when.conflict.byDay)),
      {
        ...settle(state),
        conflict: {
          ...when.conflict,
          ...(when.time === undefined ? {} : { time: when.time }),
          service: wanted.service,
        },
      },
    )
  }
  if (wanted.date === undefined) {
    // A time with no day: today's if it is still ahead, else the next open day's — a guess, so it is
    // proposed and booked only when the visitor accepts it (never booked as "today" unasked).
    const guessed = wanted.time !== undefined && wanted.time !== "earliest"
    if (guessed && wanted.time !== undefined && wanted.time > context.nowTime && !closedForTheDay(context)) {
      return bookOn(booking, { ...wanted, date: context.today, time: wanted.time }, true)
    }
    const from = guessed ? addDays(context.today, 1) : context.today
    if (known.nextOpen === undefined || known.nextOpen.from !== from) return need({ kind: "nextOpenDay", from })
    if (known.nextOpen.date === null) {
      return reply(booking, catalog.noOpenDay(wanted.service), { ...settle(state), awaiting: "callbackOffer" })
    }
    return bookOn(booking, { ...wanted, date: known.nextOpen.date }, guessed)
  }
  return bookOn(booking, { ...wanted, date: wanted.date })
}

/** With a day chosen: offer its times, or check the time and go on to the name, the number and the booking. */
const bookOn = (
  turn: Turn,
  wanted: { readonly date: string; readonly time: string | undefined; readonly service: string },
  /** The day was not named by the visitor: the slot is proposed, and booked once accepted. */
  proposed = false,
): Step => {
  const { catalog, formats, known, context, state } = turn
  const day = known.days.get(wanted.date)
  if (day === undefined) return need({ kind: "day", date: wanted.date })
  const dayLabel = formats.date(wanted.date)
  if (wanted.date === context.today && closedForTheDay(context) && day.offered.length > 0) {
    return closedForToday(turn, wanted.service)
  }
  if (day.offered.length === 0 || wanted.date < context.today) {
    if (wanted.date < context.today) {
      return reply(turn, catalog.pastTime(dayLabel, formats.time(wanted.time ?? "00:00"), undefined), settle(state))
    }
    const from = addDays(wanted.date, 1)
    if (known.nextOpen === undefined || known.nextOpen.from !== from) return need({ kind: "nextOpenDay", from })
    const nextOpen = known.nextOpen.date
    return reply(turn, catalog.closedDay(dayLabel, nextOpen === null ? undefined : formats.date(nextOpen)), {
      ...settle(state),
      ...(nextOpen === null ? {} : { offered: { date: nextOpen, service: wanted.service } }),
    })
  }
  let time = fitHour(turn, day, wanted.time)
  if (time === "earliest") time = day.free[0]
  if (time === undefined) {
    if (day.free.length === 0) return reply(turn, catalog.dayFull(wanted.service, dayLabel), settle(state))
    return reply(turn, catalog.offerTimes(wanted.service, dayLabel, formats.times(day.free)), {
      ...settle(state),
      offered: { date: wanted.date, service: wanted.service },
      awaiting: "time",
    })
  }
  const slot: BookedSlot = { date: wanted.date, time, service: wanted.service }
  const refusal = checkSlot(turn, slot)
  if (refusal !== undefined) return refusal
  // The slot is free: the name, then the number, then the booking.
  const phone = phoneOf(turn)
  const pending = { ...settle(state), pending: slot }
  if (proposed) {
    return reply(turn, catalog.proposeSlot(slot.service, dayLabel, formats.time(slot.time)), {
      ...pending,
      awaiting: "confirm",
    })
  }
  if (phone === undefined) {
    if (state.name === undefined && state.awaiting !== "name" && turn.facts.name === undefined) {
      return reply(turn, catalog.askName(slot.service, dayLabel, formats.time(slot.time)), {
        ...pending,
        awaiting: "name",
      })
    }
    return reply(turn, catalog.askPhoneForBooking(state.name), { ...pending, awaiting: "phone" })
  }
  if (known.booking === undefined) {
    return need({ kind: "book", slot, phone, name: state.name ?? "" })
  }
  if (known.booking.kind === "refused") return refused(turn, slot, known.booking.reason)
  return reply(turn, catalog.booked(state.name, slot.service, dayLabel, formats.time(slot.time)), {
    ...settle(state),
    booking: slot,
    bookingId: known.booking.id,
  })
}

/** Whether a slot can be taken, said as the reason it cannot (before any number is asked for). */
const checkSlot = (turn: Turn, slot: BookedSlot): Step | undefined => {
  const { known, context } = turn
  const day = known.days.get(slot.date)
  if (day === undefined) return need({ kind: "day", date: slot.date })
  if (slot.date < context.today || (slot.date === context.today && slot.time <= context.nowTime)) {
    return refused(turn, slot, "past")
  }
  if (!day.offered.includes(slot.time)) return refused(turn, slot, "notOffered")
  if (!day.free.includes(slot.time)) return refused(turn, slot, "full")
  return undefined
}

/** Whether today's opening hours are over at the organization's wall clock (or there are none today). */
const closedForTheDay = (context: EngineContext): boolean =>
  openingRangesOn(context.settings, context.today).every(([, close]) => close <= context.nowTime)

/** A time asked for today after today's closing: said as such, with the next open day offered. */
const closedForToday = (turn: Turn, service: string): Step => {
  const { catalog, formats, known, context, state } = turn
  const from = addDays(context.today, 1)
  if (known.nextOpen === undefined || known.nextOpen.from !== from) return need({ kind: "nextOpenDay", from })
  const nextOpen = known.nextOpen.date
  return reply(turn, catalog.closedForToday(nextOpen === null ? undefined : formats.date(nextOpen)), {
    ...settle(state),
    ...(nextOpen === null ? {} : { offered: { date: nextOpen, service } }),
  })
}

/**
 * An hour named without am/pm was read as an afternoon one ("at 3" → 15:00); when only the morning
 * reading is a time the day offers ("amanhã às 7h" at a studio opening at 7:00), it is that one.
 */
const fitHour = (turn: Turn, day: DayView, time: string | undefined): string | undefined => {
  if (time === undefined || turn.facts.when.hourShifted !== true || time !== turn.facts.when.time) return time
  if (day.offered.includes(time)) return time
  const hour = Number(time.slice(0, 2)) - 12
  const morning = `${String(hour).padStart(2, "0")}${time.slice(2)}`
  return hour >= 0 && day.offered.includes(morning) ? morning : time
}

const refused = (turn: Turn, slot: BookedSlot, reason: "full" | "notOffered" | "past"): Step => {
  const { catalog, formats, known, context, state } = turn
  if (reason !== "full" && slot.date === context.today && closedForTheDay(context)) {
    return closedForToday(turn, slot.service)
  }
  const day = known.days.get(slot.date)
  const free = day?.free ?? []
  const dayLabel = formats.date(slot.date)
  const time = formats.time(slot.time)
  const times = free.length === 0 ? "" : formats.times(free)
  const offered = {
    ...settle(state),
    ...(free.length === 0 ? {} : { offered: { date: slot.date, service: slot.service } }),
  }
  switch (reason) {
    case "past":
      return reply(turn, catalog.pastTime(dayLabel, time, times === "" ? undefined : times), offered)
    case "full":
      return reply(turn, catalog.slotTaken(dayLabel, time, times), offered)
    case "notOffered": {
      const ranges = rangesText(context, formats, slot.date)
      const inside = openingRangesOn(context.settings, slot.date).some(
        ([open, close]) => slot.time >= open && slot.time < close,
      )
      return reply(
        turn,
        inside ? catalog.slotNotOffered(dayLabel, time, times) : catalog.outsideHours(dayLabel, time, ranges, times),
        offered,
      )
    }
  }
}

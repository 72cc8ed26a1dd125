import { openingRangesOn } from "../bookings/settings.ts"
import { rangesText } from "./answers.ts"
import { addDays, weekdayOf } from "./calendar-date.ts"
import {
  type DayView,
  doubtfulNumber,
  type HeldBooking,
  need,
  phoneOf,
  reply,
  type Step,
  settle,
  type Turn,
} from "./dialogue-turn.ts"
import { TIMES_SHOWN } from "./messages/format.ts"
import type { EngineContext } from "./profile.ts"
import type { BookedSlot, ConversationState } from "./state.ts"
import { inPartOfDay, weekdayInWeek } from "./when-spans.ts"

/**
 * The booking dialogue (docs/contract.md §8): the slot a message means, the day's times offered, the
 * slot checked (closed, past, outside the hours, not offered, taken) before any number is asked for,
 * a guessed day proposed, the name and number asked one at a time, the booking made, moved or
 * cancelled.
 */
/** The booking this conversation can cancel or move: its own, else one of its widget form or, on a channel, the customer's next one. */
export const heldBooking = (turn: Turn): HeldBooking | undefined | "needed" => {
  const { state, known, facts } = turn
  if (state.booking !== undefined && state.bookingId !== undefined) return { ...state.booking, id: state.bookingId }
  // A booking made through the widget's form in this session, or on a channel by this customer.
  // "What if I cancel it?" asks about the policy, not for the booking.
  const wantsChange =
    (facts.intents.cancel || facts.intents.move) && !(facts.intents.hypothetical && facts.intents.question)
  if (wantsChange || asksAboutOwnBooking(turn)) {
    if (known.held === undefined) return "needed"
    return known.held ?? undefined
  }
  return undefined
}

/**
 * A question about the visitor's own booking ("is my appointment still on?", "when is my booking?",
 * "my booking reference is …, can you check it?") that asks for no change and names no other time:
 * answered with the booking held, never with free times (docs/contract.md §8).
 */
export const asksAboutOwnBooking = (turn: Turn): boolean => {
  const { intents, when } = turn.facts
  return (
    intents.ownBooking &&
    intents.question &&
    !intents.cancel &&
    !intents.move &&
    !intents.callback &&
    !intents.demo &&
    !intents.hypothetical &&
    when.date === undefined &&
    when.time === undefined &&
    !when.earliest &&
    when.week === undefined
  )
}

/** The booking held said back, or that none is held. */
export const ownBooking = (turn: Turn, held: HeldBooking | undefined): Step => {
  const { catalog, formats, state } = turn
  if (held === undefined) return reply(turn, catalog.noBookingHeld(), settle(state))
  return reply(turn, catalog.yourBooking(held.service, formats.date(held.date), formats.time(held.time)), {
    ...settle(state),
    awaiting: "done",
  })
}

/** A held booking and a message naming another time for it ("move it to Friday", "3pm instead"). */
export const isMoveRequest = (turn: Turn, previous: ConversationState): boolean => {
  const { intents, when } = turn.facts
  if (intents.demo || intents.cancel) return false
  const namesTime = when.date !== undefined || when.time !== undefined
  if (intents.move) return true
  // A new date or time right after booking, without asking for another appointment, moves the one held.
  return namesTime && !intents.booking && previous.booking !== undefined && previous.pending === undefined
}

export const cancel = (turn: Turn, held: HeldBooking): Step => {
  const { known, catalog, formats, state } = turn
  if (known.cancelled !== true) return need({ kind: "cancel", booking: held })
  const { booking: _b, bookingId: _id, ...rest } = settle(state)
  // However the booking was made (here, the widget's form, another conversation), the lead stays a
  // BOOKING lead with `booking: null`, as the cancellation itself leaves it (docs/contract.md §8).
  // It ends asking "would you like to book another time?".
  return reply(turn, catalog.cancelled(held.service, formats.date(held.date), formats.time(held.time)), {
    ...rest,
    bookingMade: true,
    awaiting: "book",
  })
}

export const move = (turn: Turn, held: HeldBooking): Step => {
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
    bookingMade: true,
    awaiting: "done",
  })
}

/** Whether this message continues (or starts) the booking dialogue. */
export const isAboutBooking = (turn: Turn, previous: ConversationState): boolean => {
  const { intents, when, service, name, phone } = turn.facts
  if (intents.demo) return false
  if (intents.booking) return true
  // A question about the opening hours is answered, whatever day and time it names ("are you open on
  // Saturday at 10?", "macht ihr heute Mittag zu?"), outside a booking dialogue.
  if (intents.hours && intents.question && previous.offered === undefined && previous.pending === undefined) {
    return false
  }
  if (when.conflict !== undefined) return true
  const namesTime = when.date !== undefined || when.time !== undefined || when.earliest || when.week !== undefined
  if (previous.conflict !== undefined && (namesTime || when.weekday !== undefined)) return true
  if (previous.offered !== undefined && (namesTime || service !== undefined)) return true
  // "Which service would you like?" — "colour", "Friday at 4", "Dana, 415 555 0100", "yes": the
  // booking goes on (a message naming none of these, or asking something else, changes the topic).
  if (previous.awaiting === "service") {
    if (service !== undefined || namesTime || name !== undefined || phone !== undefined) return true
    if (intents.yes && !intents.no && !intents.question) return true
  }
  // "Which day would suit you?" — "Friday".
  if (previous.awaiting === "day" && namesTime) return true
  if (previous.pending !== undefined && (name !== undefined || phone !== undefined || namesTime)) return true
  // A service named while a slot waits for its details ("colour please" to "May I have your name?"):
  // the booking goes on, with that service.
  if (previous.pending !== undefined && service !== undefined && !intents.question) return true
  if (previous.pending !== undefined && turn.context.customerPhone !== undefined && name !== undefined) return true
  // A "yes" to the booking's own question ("May I have your name?" — "yes please") goes on with it.
  if (previous.pending !== undefined && (previous.awaiting === "name" || previous.awaiting === "phone")) {
    if (intents.yes && !intents.no && !intents.cancel) return true
  }
  // A day named after asking about a service ("do you do nail trims?" — "ok, can I get one Monday",
  // "para el martes") asks for that service on that day.
  if (
    when.date !== undefined &&
    previous.service !== undefined &&
    !intents.hours &&
    !intents.services &&
    !intents.callback &&
    (!intents.question || turn.facts.faq() === undefined)
  ) {
    return true
  }
  // A date and a time together ("Sunday at 11?") ask for a slot, whatever the verb; so does a
  // question naming a day that nothing else answers ("anything on Monday?").
  if (when.date !== undefined && when.time !== undefined && !intents.callback) return true
  // So do a day and one of the services together ("room on Saturday for a gel polish?", "can I bring
  // the dog in this morning for a bath?"): a price the business wrote for that service is not the answer.
  if (when.date !== undefined && service !== undefined && !intents.callback && !intents.hours) return true
  return (
    (when.date !== undefined || when.week !== undefined) &&
    intents.question &&
    !intents.hours &&
    !intents.services &&
    !intents.callback &&
    turn.facts.faq() === undefined
  )
}

/**
 * The service a booking that names none takes without asking: the organization's only one ("" when it
 * lists none); undefined when it offers two or more — then the visitor is asked which.
 */
export const onlyService = (services: ReadonlyArray<string>): string | undefined =>
  services.length >= 2 ? undefined : (services[0] ?? "")

/** A service remembered from an earlier step; "" is none (a conflict asked before the service was known). */
const named = (service: string | undefined): string | undefined => (service === "" ? undefined : service)

/**
 * The slot the visitor means this turn, from this message and what is pending. Its service is
 * undefined when the organization offers two or more and none is known for this booking (not named
 * now, nor earlier in the conversation): the visitor is asked, never given the first one silently.
 */
const wantedSlot = (turn: Turn, previous: ConversationState) => {
  const { when, service } = turn.facts
  const services = turn.context.settings.services
  const question = previous.awaiting === "service" ? previous.serviceQuestion : undefined
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
  // A weekday named alone after "next week" was asked for is that week's ("Tuesday at 10").
  const week = when.week ?? previous.week
  if (
    week !== undefined &&
    when.weekdayOnly === true &&
    when.weekday !== undefined &&
    date !== undefined &&
    date < week &&
    conflict === undefined
  ) {
    date = weekdayInWeek(week, when.weekday)
  }
  date ??= previous.pending?.date ?? previous.offered?.date ?? question?.date
  time ??= when.earliest ? "earliest" : undefined
  // "Wednesday, not Tuesday": another day for the time already chosen.
  if (time === undefined) time = previous.pending?.time ?? question?.time
  const chosenService =
    service ??
    previous.pending?.service ??
    named(previous.offered?.service) ??
    named(conflict?.service) ??
    named(previous.service) ??
    onlyService(services)
  return { date, time, service: chosenService }
}

/**
 * "Which service would you like: haircut or colour?", with what the visitor gave for the booking
 * kept (the day, the time, the part of the day; the name and number are in the state already).
 */
const askService = (
  turn: Turn,
  previous: ConversationState,
  wanted: { readonly date: string | undefined; readonly time: string | undefined },
  asked: number,
): Step => {
  const { catalog, formats, state, context } = turn
  const partOfDay = turn.facts.when.partOfDay ?? previous.serviceQuestion?.partOfDay
  return reply(turn, catalog.whichService(formats.either(context.settings.services)), {
    ...settle(state),
    serviceQuestion: {
      ...(wanted.date === undefined ? {} : { date: wanted.date }),
      ...(wanted.time === undefined ? {} : { time: wanted.time }),
      ...(partOfDay === undefined ? {} : { partOfDay }),
      asked,
    },
    awaiting: "service",
  })
}

/**
 * The question for two days a message could mean: a weekday and a date that disagree ("Thursday the
 * 4th" on a Friday), or the coming weekday and a date weeks away that a bare number named ("el lunes
 * 10" when the next Monday the 10th is in January).
 */
export const conflictQuestion = (
  { catalog, formats }: Pick<Turn, "catalog" | "formats">,
  conflict: { readonly byWeekday: string; readonly byDay: string },
): string => {
  const [byWeekday, byDay] = [formats.date(conflict.byWeekday), formats.date(conflict.byDay)]
  return weekdayOf(conflict.byWeekday) === weekdayOf(conflict.byDay)
    ? catalog.whichDate(byWeekday, byDay)
    : catalog.weekdayMismatch(formats.weekday(conflict.byWeekday), byWeekday, byDay)
}

export const book = (turn: Turn, previous: ConversationState): Step => {
  const { facts, catalog, known, context } = turn
  const state: ConversationState = {
    ...turn.state,
    bookingAsked: true,
    ...(facts.service === undefined ? {} : { service: facts.service }),
    ...(facts.when.week === undefined ? {} : { week: facts.when.week }),
    // The name was asked for once: a visitor who answers without one ("yes please") is asked for the
    // number next, not the same question again.
    ...(previous.awaiting === "name" ? { awaiting: "name" as const } : {}),
  }
  const booking = { ...turn, state }
  const { when } = facts
  const slot = wantedSlot(booking, previous)

  if (when.conflict !== undefined) {
    return reply(booking, conflictQuestion(turn, when.conflict), {
      ...settle(state),
      conflict: {
        ...when.conflict,
        ...(when.time === undefined ? {} : { time: when.time }),
        service: slot.service ?? "",
      },
    })
  }
  // Two or more services and none named: asked (twice at most), once the day and time are known to be
  // possible (a closed day, a past or taken time is said first). After two answers that name none,
  // the first service — said in the reply, and a time for it proposed, not booked, until accepted.
  const asked = previous.awaiting === "service" ? (previous.serviceQuestion?.asked ?? 0) : 0
  const ask = slot.service === undefined && asked < 2 ? () => askService(booking, previous, slot, asked + 1) : undefined
  const defaulted = slot.service === undefined && ask === undefined
  // "": no service yet (`named`), kept as such in what a refusal offers.
  const wanted = { ...slot, service: slot.service ?? (ask === undefined ? (context.settings.services[0] ?? "") : "") }
  if (wanted.date === undefined) {
    // A time with no day: today's if it is still ahead, else the next open day's — a guess, so it is
    // proposed and booked only when the visitor accepts it (never booked as "today" unasked).
    const guessed = wanted.time !== undefined && wanted.time !== "earliest"
    if (guessed && wanted.time !== undefined && wanted.time > context.nowTime && !closedForTheDay(context)) {
      return bookOn(booking, { ...wanted, date: context.today, time: wanted.time }, true, ask)
    }
    // "Next week": its first open day; else today's (tomorrow's, for a time with no day).
    const week = when.week ?? previous.week
    const from = week !== undefined && week > context.today ? week : guessed ? addDays(context.today, 1) : context.today
    if (known.nextOpen === undefined || known.nextOpen.from !== from) return need({ kind: "nextOpenDay", from })
    if (known.nextOpen.date === null) {
      if (ask !== undefined) return ask()
      return reply(booking, catalog.noOpenDay(wanted.service), { ...settle(state), awaiting: "callbackOffer" })
    }
    return bookOn(booking, { ...wanted, date: known.nextOpen.date }, guessed || defaulted, ask)
  }
  // Today's weekday whose time has passed is read a week on (`weekOn`): proposed, not booked unasked.
  const weekOn = when.weekOn === true && wanted.date === when.date
  return bookOn(booking, { ...wanted, date: wanted.date }, defaulted || weekOn, ask)
}

/** With a day chosen: offer its times, or check the time and go on to the name, the number and the booking. */
export const bookOn = (
  turn: Turn,
  wanted: { readonly date: string; readonly time: string | undefined; readonly service: string },
  /** The day was not named by the visitor: the slot is proposed, and booked once accepted. */
  proposed = false,
  /**
   * No service is known (`wanted.service` is ""): the day and the time are checked (a closed day, a
   * past, outside or taken time said as such), then, where times would be offered or the slot taken
   * on, the visitor is asked which service.
   */
  askService?: () => Step,
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
      return reply(turn, catalog.pastTime(dayLabel, formats.time(wanted.time ?? "00:00"), undefined), {
        ...settle(state),
        awaiting: "day",
      })
    }
    const from = addDays(wanted.date, 1)
    if (known.nextOpen === undefined || known.nextOpen.from !== from) return need({ kind: "nextOpenDay", from })
    const nextOpen = known.nextOpen.date
    return reply(turn, catalog.closedDay(dayLabel, nextOpen === null ? undefined : formats.date(nextOpen)), {
      ...settle(state),
      ...(nextOpen === null ? {} : { offered: { date: nextOpen, service: wanted.service } }),
      awaiting: "day",
    })
  }
  // The part of the day asked for ("tomorrow afternoon") narrows the times offered, when it has any free.
  const question = state.serviceQuestion
  const part =
    turn.facts.when.partOfDay ??
    (state.offered?.date === wanted.date ? state.offered.partOfDay : undefined) ??
    (question !== undefined && (question.date ?? wanted.date) === wanted.date ? question.partOfDay : undefined)
  const inPart = part === undefined ? [] : day.free.filter((free) => inPartOfDay(free, part, turn.facts.language))
  const free = inPart.length > 0 ? inPart : day.free
  // The times the visitor was shown for this day, when it is the one offered.
  const shown = state.offered?.date === wanted.date ? free.slice(0, TIMES_SHOWN) : []
  let time = fitHour(turn, day, wanted.time, shown)
  if (time === "earliest") time = free[0]
  if (time === undefined) {
    if (askService !== undefined) return askService()
    if (day.free.length === 0) {
      return reply(turn, catalog.dayFull(wanted.service, dayLabel), { ...settle(state), awaiting: "day" })
    }
    return reply(turn, catalog.offerTimes(wanted.service, dayLabel, formats.times(free)), {
      ...settle(state),
      offered: {
        date: wanted.date,
        service: wanted.service,
        ...(part === undefined || inPart.length === 0 ? {} : { partOfDay: part }),
      },
      awaiting: "time",
    })
  }
  const slot: BookedSlot = { date: wanted.date, time, service: wanted.service }
  const refusal = checkSlot(turn, slot)
  if (refusal !== undefined) return refusal
  if (askService !== undefined) return askService()
  // The slot is free: the name, then the number, then the booking.
  const phone = phoneOf(turn)
  const pending = { ...settle(state), pending: slot }
  if (proposed) {
    return reply(turn, catalog.proposeSlot(slot.service, dayLabel, formats.time(slot.time)), {
      ...pending,
      awaiting: "confirm",
    })
  }
  // A slot changed after it was said ("sorry, I meant Friday at 2", "a haircut actually"): the new one is said again.
  const changed =
    state.pending !== undefined &&
    (state.pending.date !== slot.date || state.pending.time !== slot.time || state.pending.service !== slot.service)
  // A number no country's plan has is checked with the visitor before anything is booked under it.
  const doubtful = doubtfulNumber(turn)
  if (doubtful !== undefined) return reply(turn, catalog.checkNumber(doubtful), { ...pending, awaiting: "phone" })
  if (phone === undefined) {
    if (state.name === undefined && (state.awaiting !== "name" || changed) && turn.facts.name === undefined) {
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
  const { week: _week, ...booked } = settle(state)
  return reply(turn, catalog.booked(state.name, slot.service, dayLabel, formats.time(slot.time)), {
    ...booked,
    booking: slot,
    bookingId: known.booking.id,
    bookingMade: true,
    awaiting: "done",
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
    awaiting: "day",
  })
}

/**
 * An hour named without am/pm was read as an afternoon one ("at 3" → 15:00); when only the morning
 * reading is a time the day offers ("amanhã às 7h" at a studio opening at 7:00), it is that one, and
 * when the day offers both, the one in the list the visitor was just shown ("7:00, 8:00, … and 6
 * more", answered "7h" — 19:00 was not in it).
 */
const fitHour = (
  turn: Turn,
  day: DayView,
  time: string | undefined,
  shown: ReadonlyArray<string>,
): string | undefined => {
  if (time === undefined || turn.facts.when.hourShifted !== true || time !== turn.facts.when.time) return time
  const hour = Number(time.slice(0, 2)) - 12
  const morning = `${String(hour).padStart(2, "0")}${time.slice(2)}`
  if (hour < 0 || !day.offered.includes(morning)) return time
  if (!day.offered.includes(time)) return morning
  return shown.includes(morning) && !shown.includes(time) ? morning : time
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
  // Each reply ends with the times still free ("which would you like?") or asks for another day.
  const offered: ConversationState = {
    ...settle(state),
    ...(free.length === 0 ? {} : { offered: { date: slot.date, service: slot.service } }),
    awaiting: free.length === 0 ? "day" : "time",
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

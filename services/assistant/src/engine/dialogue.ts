import type { MessageFacts } from "./read-message.ts"
import type { ConversationState } from "./state.ts"

/**
 * The booking dialogue and the replies, as two pure steps around the calendar:
 * `planTurn` folds a message into the conversation and says what to ask the calendar (offer free
 * times, book a slot, or nothing); `composeReply` turns the calendar's answer into the reply text and
 * the next state. Asked to book → free times are offered (for the date named, else the next open
 * day) → the visitor picks a time (and a date, or the one offered; "the first one" takes the
 * earliest) → the slot is booked. On the widget a booking waits for a phone number.
 */

export type CalendarRequest =
  | { readonly kind: "none" }
  | { readonly kind: "offer"; readonly date: string | undefined; readonly service: string }
  | { readonly kind: "book"; readonly date: string; readonly time: string | "earliest"; readonly service: string }

export interface Plan {
  readonly state: ConversationState
  readonly request: CalendarRequest
}

export type CalendarAnswer =
  | { readonly kind: "none" }
  | { readonly kind: "offered"; readonly date: string; readonly service: string; readonly times: ReadonlyArray<string> }
  | { readonly kind: "noOpenDay"; readonly service: string }
  | { readonly kind: "booked"; readonly date: string; readonly time: string; readonly service: string }
  | {
      readonly kind: "refused"
      readonly reason: "full" | "notOffered" | "past"
      readonly date: string
      readonly time: string
      readonly service: string
      readonly times: ReadonlyArray<string>
    }
  | { readonly kind: "needPhone"; readonly date: string; readonly time: string; readonly service: string }

export interface DialogueSettings {
  readonly services: ReadonlyArray<string>
  readonly timezone: string
}

export const planTurn = (
  state: ConversationState,
  facts: MessageFacts,
  settings: DialogueSettings,
  channel: "widget" | "phone",
): Plan => {
  const next: ConversationState = {
    ...state,
    ...(channel === "widget" && facts.phone !== undefined ? { phone: facts.phone } : {}),
    ...(facts.name !== undefined ? { name: facts.name } : {}),
    callback: state.callback || facts.intents.callback,
    demo: state.demo || facts.intents.demo,
    bookingAsked: state.bookingAsked || facts.intents.booking,
  }
  const service = facts.service ?? state.offered?.service ?? state.pending?.service ?? settings.services[0] ?? ""
  const { date, time, earliest } = facts.when

  // A slot picked earlier is booked as soon as the phone number arrives.
  if (state.pending !== undefined && next.phone !== undefined && date === undefined && time === undefined) {
    return { state: next, request: { kind: "book", ...state.pending } }
  }
  const choosing = state.offered !== undefined || state.pending !== undefined
  const wantsBooking = facts.intents.booking || choosing
  if (!wantsBooking) return { state: next, request: { kind: "none" } }

  const pickedDate = date ?? state.offered?.date ?? state.pending?.date
  const pickedTime = time ?? (earliest && choosing ? "earliest" : undefined)
  if (pickedDate !== undefined && pickedTime !== undefined) {
    // Without a phone number yet, the runner answers `needPhone` and keeps the slot pending.
    return { state: next, request: { kind: "book", date: pickedDate, time: pickedTime, service } }
  }
  if (date !== undefined || facts.intents.booking || facts.service !== undefined) {
    return { state: next, request: { kind: "offer", date, service } }
  }
  // Choosing, but this message named no date or time: answer it normally and keep the offer open.
  return { state: next, request: { kind: "none" } }
}

const MAX_TIMES_LISTED = 10

const listTimes = (times: ReadonlyArray<string>): string =>
  times.length <= MAX_TIMES_LISTED
    ? times.join(", ")
    : `${times.slice(0, MAX_TIMES_LISTED).join(", ")} and ${times.length - MAX_TIMES_LISTED} more`

const greetingName = (state: ConversationState): string => (state.name === undefined ? "" : `, ${state.name}`)

export interface Composed {
  readonly text: string
  readonly state: ConversationState
}

export const composeReply = (
  plan: Plan,
  facts: MessageFacts,
  answer: CalendarAnswer,
  settings: DialogueSettings,
  capturedNow: boolean,
): Composed => {
  const state = plan.state
  const { offered: _offered, pending: _pending, ...settled } = state
  switch (answer.kind) {
    case "booked":
      return {
        text: `You're booked${greetingName(state)}: ${answer.service} on ${answer.date} at ${answer.time} (${settings.timezone}). See you then!`,
        state: { ...settled, booking: { date: answer.date, time: answer.time, service: answer.service } },
      }
    case "needPhone":
      return {
        text: `${answer.service} on ${answer.date} at ${answer.time} — great choice. What phone number should I put the booking under?`,
        state: { ...settled, pending: { date: answer.date, time: answer.time, service: answer.service } },
      }
    case "offered":
      return answer.times.length === 0
        ? {
            text: `Sorry, there are no free times for ${answer.service} on ${answer.date}. Would another day suit you?`,
            state: settled,
          }
        : {
            text: `Free times for ${answer.service} on ${answer.date} (${settings.timezone}): ${listTimes(answer.times)}. Which time would you like?`,
            state: { ...settled, offered: { date: answer.date, service: answer.service } },
          }
    case "noOpenDay":
      return {
        text: `Sorry, there are no free times for ${answer.service} in the next two weeks. Could we call you instead? Leave a phone number and we'll get back to you.`,
        state: settled,
      }
    case "refused": {
      const why =
        answer.reason === "full"
          ? `${answer.time} on ${answer.date} is already taken`
          : answer.reason === "past"
            ? `${answer.date} at ${answer.time} has already passed`
            : `we don't offer ${answer.time} on ${answer.date}`
      return answer.times.length === 0
        ? {
            text: `Sorry, ${why}, and there are no other free times that day. Would another day suit you?`,
            state: settled,
          }
        : {
            text: `Sorry, ${why}. Free times that day: ${listTimes(answer.times)}. Which would you like?`,
            state: { ...settled, offered: { date: answer.date, service: answer.service } },
          }
    }
    case "none":
      return { text: plainReply(state, facts, capturedNow), state }
  }
}

/** The reply when no booking step happened this turn. */
const plainReply = (state: ConversationState, facts: MessageFacts, capturedNow: boolean): string => {
  const name = greetingName(state)
  if (capturedNow && state.phone !== undefined) {
    if (state.demo) return `Thanks${name}! We'll contact you at ${state.phone} to set up your demo.`
    if (state.callback) return `Thanks${name}! We'll call you back at ${state.phone} as soon as we can.`
    return `Thanks${name}, I've noted your number (${state.phone}). Someone from the team will get back to you.`
  }
  if ((facts.intents.callback || facts.intents.demo) && state.phone === undefined) {
    return facts.intents.demo
      ? `I'd be happy to set up a demo${name}. What's the best phone number to reach you?`
      : `Sure${name} — what's the best phone number to call you on?`
  }
  if (facts.intents.demo) return `Great${name}, we'll be in touch to set up your demo.`
  if (facts.intents.callback) return `Sure${name}, we'll call you back as soon as we can.`
  if (facts.name !== undefined) return `Nice to meet you, ${facts.name}! How can I help you today?`
  if (state.offered !== undefined)
    return `Which time would you like on ${state.offered.date}? Just tell me the time, e.g. ${"10:00"}.`
  if (facts.greeting) {
    return "Hi! I can answer questions, arrange a callback, set up a demo or book an appointment. How can I help?"
  }
  return "Thanks for your message! I can arrange a callback, set up a demo or book an appointment — just tell me what you need, and leave a phone number if you'd like us to get back to you."
}

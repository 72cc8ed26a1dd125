import type { OutboxWriter } from "@parley/bus"
import type { Database } from "@parley/db"
import { withHotSpan } from "@parley/platform"
import { Effect } from "effect"
import { cancelBooking, dayView, makeBooking, moveBooking, nextOpenDay, upcomingBooking } from "../bookings/calendar.ts"
import { offeredTimes } from "../bookings/slots.ts"
import { type BookingOutcome, type Known, type Need, nothingKnown, step } from "../engine/dialogue.ts"
import type { EngineContext } from "../engine/profile.ts"
import { readMessage } from "../engine/read-message.ts"
import type { ConversationState } from "../engine/state.ts"
import type { BookingRefused } from "../errors.ts"
import type { TurnContext, TurnResult } from "./turn-context.ts"

/** A turn never needs more than a handful of calendar answers; past this the engine is looping. */
const MAX_STEPS = 8

const outcomeOf = (
  made: { _tag: "Success"; success: { booking: { id: string } } } | { _tag: "Failure"; failure: BookingRefused },
): BookingOutcome =>
  made._tag === "Success"
    ? { kind: "booked", id: made.success.booking.id }
    : {
        kind: "refused",
        reason:
          made.failure.reason === "full"
            ? "full"
            : made.failure.reason === "pastDate" || made.failure.reason === "started"
              ? "past"
              : "notOffered",
      }

/** Answers what the engine asked of the calendar. */
const fulfil = (
  need: Need,
  known: Known,
  context: TurnContext,
  leads: { readonly own: (phone: string) => boolean; readonly created: (phone: string) => void },
): Effect.Effect<Known, never, Database | OutboxWriter> =>
  Effect.gen(function* () {
    const { orgId, settings } = context
    switch (need.kind) {
      case "day": {
        const days = new Map(known.days)
        days.set(need.date, yield* dayView(orgId, settings, need.date))
        return { ...known, days }
      }
      case "nextOpenDay": {
        const open = yield* nextOpenDay(orgId, settings, need.from)
        const nextOpen = { from: need.from, date: open?.date ?? null }
        if (open === undefined) return { ...known, nextOpen }
        // The day found is the one the engine goes on to book: its free times are kept, not read again.
        const days = new Map(known.days)
        days.set(open.date, { date: open.date, offered: offeredTimes(settings, open.date), free: open.times })
        return { ...known, nextOpen, days }
      }
      case "book":
      case "move": {
        const slot = need.kind === "book" ? need.slot : need.to
        const request = {
          // The name the customer gave, else the provider's profile name (the lead's too), never none
          // where one is known: a booking without a name reads as nobody's on the Bookings screen.
          name: need.name !== "" ? need.name : (context.customerName ?? ""),
          phone: need.phone,
          ...slot,
          sessionId: context.conversationId,
          source: context.source,
          own: leads.own(need.phone),
        }
        const made = yield* (
          need.kind === "book" ? makeBooking(orgId, request) : moveBooking(orgId, need.from.id, request)
        ).pipe(Effect.result)
        const booking = outcomeOf(made)
        if (made._tag === "Success" && made.success.lead.outcome === "created") leads.created(request.phone)
        if (booking.kind === "booked") return { ...known, booking }
        // Refused after all (taken meanwhile): the day is read again for the free times to offer.
        const days = new Map(known.days)
        days.set(slot.date, yield* dayView(orgId, settings, slot.date))
        return { ...known, booking, days }
      }
      case "cancel": {
        yield* cancelBooking(orgId, need.booking.id).pipe(Effect.ignore)
        return { ...known, cancelled: true }
      }
      case "held": {
        const held = yield* upcomingBooking(
          orgId,
          context.customerPhone === undefined
            ? { sessionId: context.conversationId }
            : { phone: context.customerPhone },
          context.today,
        )
        return { ...known, held }
      }
    }
  })

export const engineContextOf = (context: TurnContext): EngineContext => ({
  profile: context.profile,
  settings: context.settings,
  today: context.today,
  nowTime: context.nowTime,
  customerPhone: context.customerPhone,
})

/**
 * One turn of the deterministic engine: the message is read once, then the pure `step` is asked
 * again with each calendar answer it needs, until it replies.
 */
export const deterministicTurn = (
  state: ConversationState,
  message: string,
  context: TurnContext,
): Effect.Effect<TurnResult, never, Database | OutboxWriter> =>
  Effect.gen(function* () {
    const engine = engineContextOf(context)
    const facts = readMessage(message, state, engine)
    let known: Known = nothingKnown
    // A lead the booking created is this conversation's (a corrected number may withdraw it, docs/contract.md §8).
    const created: Array<string> = []
    for (let round = 0; round < MAX_STEPS; round++) {
      const next = step(state, facts, engine, known)
      if (next.kind === "reply") {
        const leads = { ...next.state.leads }
        for (const phone of created) leads[phone] ??= { created: true }
        return { text: next.text, state: created.length === 0 ? next.state : { ...next.state, leads } }
      }
      known = yield* fulfil(next.need, known, context, {
        // The number's lead is this conversation's: the channel's sender, or a lead it created.
        own: (phone) =>
          context.customerPhone !== undefined || state.leads?.[phone]?.created === true || created.includes(phone),
        created: (phone) => created.push(phone),
      })
    }
    return yield* Effect.die(new Error("the engine asked the calendar more than it ever should"))
  }).pipe(withHotSpan("assistant.deterministicTurn"))

import type { OutboxWriter } from "@parley/bus"
import type { BookingRecord, OrgId } from "@parley/contracts"
import { type Database, withTransaction } from "@parley/db"
import { newId } from "@parley/platform"
import { Clock, Effect } from "effect"
import { type BookingRequest, bookWithin, type MadeBooking } from "../bookings/calendar.ts"
import { type ConversationState, emptyConversation } from "../engine/state.ts"
import type { BookingRefused } from "../errors.ts"
import { findWidgetSession, startWidgetSession } from "./conversation-store.ts"

/**
 * What a chat booking leaves in its session's state (docs/contract.md §8: the assistant moves or
 * cancels a booking however it was made), including the lead the booking created, as a chat turn
 * remembers it (a corrected number then releases only that).
 */
const stateOf = (made: MadeBooking): ConversationState => {
  const { booking, lead } = made
  return {
    ...emptyConversation,
    phone: booking.phone,
    name: booking.name,
    booking: { date: booking.date, time: booking.time, service: booking.service },
    bookingId: booking.id,
    bookingMade: true,
    leads: {
      [booking.phone]: {
        created: lead.outcome === "created",
        ...(lead.before === undefined ? {} : { before: lead.before }),
      },
    },
  }
}

/**
 * `POST /api/public/bookings`: the booking of the widget's form, in the widget session it names.
 * A form used before any chat message names none (or an unknown one): the booking starts a session
 * of its own, in the same transaction, whose state knows the booking, so the chat the visitor
 * opens next with that `sessionId` can move or cancel it. The session is given only with a booking
 * this request made: a slot the phone already held (another visitor claiming that number) gets a
 * session that knows nothing, never someone else's booking.
 */
export const formBooking = (
  orgId: OrgId,
  request: BookingRequest,
): Effect.Effect<BookingRecord & { readonly sessionId: string }, BookingRefused, Database | OutboxWriter> =>
  withTransaction((tx) =>
    Effect.gen(function* () {
      const found = request.sessionId === undefined ? undefined : yield* findWidgetSession(tx, orgId, request.sessionId)
      const sessionId = found?.id ?? newId("ses")
      const made = yield* bookWithin(tx, orgId, { ...request, sessionId })
      if (found === undefined) {
        const state = made.placeTaken ? stateOf(made) : emptyConversation
        yield* startWidgetSession(tx, { id: sessionId, orgId, state, at: new Date(yield* Clock.currentTimeMillis) })
      } else if (made.placeTaken && made.lead.outcome === "created") {
        // The lead this session's form created is the session's own: its chat may change it (docs/contract.md §8).
        // The version moves, so a chat turn computed meanwhile is stale and computed again with it.
        yield* Effect.promise(
          () => tx`
            update assistant.conversations
            set state = jsonb_set(state, '{leads}',
                  coalesce(state->'leads', '{}'::jsonb) || jsonb_build_object(${made.booking.phone}::text, '{"created":true}'::jsonb)),
                version = version + 1
            where id = ${found.id}`,
        )
      }
      return { ...made.booking, sessionId }
    }),
  ).pipe(Effect.withSpan("assistant.formBooking"))

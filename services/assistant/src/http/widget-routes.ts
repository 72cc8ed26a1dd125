import { Effect } from "effect"
import { makeBooking, slotsOf } from "../bookings/calendar.ts"
import { chat, resetChat, transcript } from "../chat/widget-chat.ts"
import type { AssistantHandlers } from "./runtime.ts"

/** CONTRACT.md §8: the widget surface (the gateway already checked the key's scope). */
export const widgetHandlers = {
  widgetChat: ({ principal, body }) =>
    Effect.gen(function* () {
      return yield* chat(principal.orgId, yield* body, principal.orgName ?? "")
    }),

  widgetChatReset: ({ principal, body }) =>
    Effect.gen(function* () {
      const { sessionId } = yield* body
      return yield* resetChat(principal.orgId, sessionId)
    }),

  widgetChatTranscript: ({ principal, params }) => transcript(principal.orgId, params.sessionId),

  widgetBookingSlots: ({ principal, query }) => slotsOf(principal.orgId, query.date, query.service),

  widgetCreateBooking: ({ principal, body }) =>
    Effect.gen(function* () {
      const request = yield* body
      const made = yield* makeBooking(principal.orgId, {
        name: request.name.trim(),
        phone: request.phone,
        date: request.date,
        time: request.time,
        service: request.service,
        notes: request.notes,
        sessionId: request.sessionId,
        source: "booking",
      })
      return made.booking
    }),
} satisfies Partial<AssistantHandlers>

import type { OutboxWriter } from "@parley/bus"
import type { Database } from "@parley/db"
import { Effect } from "effect"
import { freeTimesOf, makeBooking, nextOpenDay } from "../bookings/calendar.ts"
import {
  type CalendarAnswer,
  type CalendarRequest,
  composeReply,
  type DialogueSettings,
  planTurn,
} from "../engine/dialogue.ts"
import { readMessage } from "../engine/read-message.ts"
import type { ConversationState } from "../engine/state.ts"
import type { TurnContext, TurnResult } from "./turn.ts"

/** Asks the calendar what the dialogue planned: free times of a day, or a booking. */
const answerRequest = (
  request: CalendarRequest,
  state: ConversationState,
  context: TurnContext,
): Effect.Effect<CalendarAnswer, never, Database | OutboxWriter> =>
  Effect.gen(function* () {
    switch (request.kind) {
      case "none":
        return { kind: "none" } as const
      case "offer": {
        if (request.date !== undefined) {
          const times = yield* freeTimesOf(context.orgId, context.settings, request.date)
          return { kind: "offered", date: request.date, service: request.service, times } as const
        }
        const open = yield* nextOpenDay(context.orgId, context.settings, context.today)
        return open === undefined
          ? ({ kind: "noOpenDay", service: request.service } as const)
          : ({ kind: "offered", date: open.date, service: request.service, times: open.times } as const)
      }
      case "book": {
        let time = request.time
        if (time === "earliest") {
          const [first] = yield* freeTimesOf(context.orgId, context.settings, request.date)
          if (first === undefined) {
            return { kind: "offered", date: request.date, service: request.service, times: [] } as const
          }
          time = first
        }
        const phone = context.customerPhone ?? state.phone
        if (phone === undefined) {
          return { kind: "needPhone", date: request.date, time, service: request.service } as const
        }
        const made = yield* makeBooking(context.orgId, {
          name: state.name ?? "",
          phone,
          date: request.date,
          time,
          service: request.service,
          sessionId: context.conversationId,
          source: context.source,
        }).pipe(Effect.result)
        if (made._tag === "Success") {
          return { kind: "booked", date: request.date, time, service: request.service } as const
        }
        const reason = made.failure.reason
        return {
          kind: "refused",
          reason: reason === "full" ? "full" : reason === "pastDate" || reason === "started" ? "past" : "notOffered",
          date: request.date,
          time,
          service: request.service,
          times: yield* freeTimesOf(context.orgId, context.settings, request.date),
        } as const
      }
    }
  })

/** One turn of the deterministic engine: read the message, plan, ask the calendar, compose. */
export const deterministicTurn = (
  state: ConversationState,
  message: string,
  context: TurnContext,
): Effect.Effect<TurnResult, never, Database | OutboxWriter> =>
  Effect.gen(function* () {
    const settings: DialogueSettings = { services: context.settings.services, timezone: context.settings.timezone }
    const facts = readMessage(message, context.today, settings.services)
    const plan = planTurn(state, facts, settings, context.customerPhone === undefined ? "widget" : "phone")
    const answer = yield* answerRequest(plan.request, plan.state, context)
    const capturedNow = context.customerPhone === undefined && facts.phone !== undefined && facts.phone !== state.phone
    const composed = composeReply(plan, facts, answer, settings, capturedNow)
    return { text: composed.text, state: composed.state }
  })

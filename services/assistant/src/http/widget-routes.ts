import {
  ChatRequest,
  ChatResetRequest,
  ChatSessionParams,
  CreateBookingRequest,
  normalizePhone,
  SlotsQuery,
} from "@parley/contracts"
import {
  decodeBody,
  decodeParams,
  decodeQuery,
  effectHandler,
  type InternalSecret,
  requirePrincipal,
} from "@parley/platform"
import { Effect } from "effect"
import type { FastifyInstance } from "fastify"
import { makeBooking, slotsOf } from "../bookings/calendar.ts"
import { chat, resetChat, transcript } from "../chat/widget-chat.ts"
import { answering, organizationNameOf, widgetOrg } from "./errors.ts"
import type { AssistantRuntime } from "./runtime.ts"

/** CONTRACT.md §8: the widget surface, behind the gateway's signed principal. */
export const widgetRoutes =
  (runtime: AssistantRuntime, internalSecret: InternalSecret) => async (api: FastifyInstance) => {
    api.addHook("preHandler", requirePrincipal(internalSecret))

    api.post(
      "/chat",
      effectHandler(runtime, (request) =>
        Effect.gen(function* () {
          const orgId = yield* widgetOrg(request)
          const body = yield* decodeBody(ChatRequest)(request)
          return yield* chat(orgId, body, organizationNameOf(request))
        }),
      ),
    )

    api.post(
      "/chat/reset",
      effectHandler(runtime, (request) =>
        Effect.gen(function* () {
          const orgId = yield* widgetOrg(request)
          const body = yield* decodeBody(ChatResetRequest)(request)
          return yield* resetChat(orgId, body.sessionId)
        }).pipe(answering),
      ),
    )

    api.get(
      "/chat/:sessionId",
      effectHandler(runtime, (request) =>
        Effect.gen(function* () {
          const orgId = yield* widgetOrg(request)
          const { sessionId } = yield* decodeParams(ChatSessionParams)(request)
          return yield* transcript(orgId, sessionId)
        }).pipe(answering),
      ),
    )

    api.get(
      "/bookings/slots",
      effectHandler(runtime, (request) =>
        Effect.gen(function* () {
          const orgId = yield* widgetOrg(request)
          const query = yield* decodeQuery(SlotsQuery)(request)
          return yield* slotsOf(orgId, query.date, query.service)
        }).pipe(answering),
      ),
    )

    api.post(
      "/bookings",
      effectHandler(runtime, (request, reply) =>
        Effect.gen(function* () {
          const orgId = yield* widgetOrg(request)
          const body = yield* decodeBody(CreateBookingRequest)(request)
          const made = yield* makeBooking(orgId, {
            name: body.name.trim(),
            phone: normalizePhone(body.phone),
            date: body.date,
            time: body.time,
            service: body.service,
            notes: body.notes,
            sessionId: body.sessionId,
            source: "booking",
          })
          reply.code(201)
          return made.booking
        }).pipe(answering),
      ),
    )
  }

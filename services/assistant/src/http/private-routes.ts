import { Readable } from "node:stream"
import {
  BookingParams,
  ListBookingsQuery,
  ListLeadsQuery,
  PutAssistantProfileRequest,
  PutBookingSettingsRequest,
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
import type postgres from "postgres"
import { cancelBooking, listBookings } from "../bookings/calendar.ts"
import { withAllDays } from "../bookings/settings.ts"
import { loadBookingSettings, saveBookingSettings } from "../bookings/settings-store.ts"
import { leadCsv } from "../leads/export.ts"
import { listLeads } from "../leads/lead-list.ts"
import { loadProfile, saveProfile } from "../profile/profile-store.ts"
import { adminOrg, answering, memberOrg, organizationNameOf } from "./errors.ts"
import type { AssistantRuntime } from "./runtime.ts"

/**
 * CONTRACT.md §9's leads and bookings rows (an administrator or a non-widget key) and §8's
 * assistant profile (read by any member, written by an administrator) and booking cancellation.
 */
export const privateRoutes =
  (runtime: AssistantRuntime, internalSecret: InternalSecret, sql: postgres.Sql) => async (api: FastifyInstance) => {
    api.addHook("preHandler", requirePrincipal(internalSecret))

    api.get(
      "/api/leads",
      effectHandler(runtime, (request) =>
        Effect.gen(function* () {
          const orgId = yield* adminOrg(request)
          const query = yield* decodeQuery(ListLeadsQuery)(request)
          return yield* listLeads(orgId, { limit: query.limit ?? 50, cursor: query.cursor, type: query.type })
        }).pipe(answering),
      ),
    )

    api.get(
      "/api/leads/export",
      effectHandler(runtime, (request, reply) =>
        Effect.gen(function* () {
          const orgId = yield* adminOrg(request)
          reply
            .type("text/csv; charset=utf-8")
            .header("content-disposition", 'attachment; filename="leads.csv"')
            .header("cache-control", "no-store")
          return Readable.from(leadCsv(sql, orgId)) as unknown
        }),
      ),
    )

    api.get(
      "/api/bookings",
      effectHandler(runtime, (request) =>
        Effect.gen(function* () {
          const orgId = yield* adminOrg(request)
          const query = yield* decodeQuery(ListBookingsQuery)(request)
          return yield* listBookings(orgId, { date: query.date, limit: query.limit ?? 50, cursor: query.cursor })
        }).pipe(answering),
      ),
    )

    api.delete(
      "/api/bookings/:id",
      effectHandler(runtime, (request) =>
        Effect.gen(function* () {
          const orgId = yield* adminOrg(request)
          const { id } = yield* decodeParams(BookingParams)(request)
          return yield* cancelBooking(orgId, id)
        }).pipe(answering),
      ),
    )

    api.get(
      "/api/assistant/profile",
      effectHandler(runtime, (request) =>
        Effect.gen(function* () {
          const orgId = yield* memberOrg(request)
          return yield* loadProfile(sql, orgId, organizationNameOf(request))
        }),
      ),
    )

    api.put(
      "/api/assistant/profile",
      effectHandler(runtime, (request) =>
        Effect.gen(function* () {
          const orgId = yield* adminOrg(request)
          const body = yield* decodeBody(PutAssistantProfileRequest)(request)
          return yield* saveProfile(orgId, body)
        }),
      ),
    )

    api.get(
      "/api/bookings/settings",
      effectHandler(runtime, (request) =>
        Effect.gen(function* () {
          const orgId = yield* adminOrg(request)
          return withAllDays(yield* loadBookingSettings(sql, orgId))
        }),
      ),
    )

    api.put(
      "/api/bookings/settings",
      effectHandler(runtime, (request) =>
        Effect.gen(function* () {
          const orgId = yield* adminOrg(request)
          const body = yield* decodeBody(PutBookingSettingsRequest)(request)
          return yield* saveBookingSettings(orgId, body)
        }),
      ),
    )
  }

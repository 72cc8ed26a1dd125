import { Readable } from "node:stream"
import { ListBookingsQuery, ListLeadsQuery, PutBookingSettingsRequest } from "@parley/contracts"
import { decodeBody, decodeQuery, effectHandler, type InternalSecret, requirePrincipal } from "@parley/platform"
import { Effect } from "effect"
import type { FastifyInstance } from "fastify"
import type postgres from "postgres"
import { listBookings } from "../bookings/calendar.ts"
import { withAllDays } from "../bookings/settings.ts"
import { loadBookingSettings, saveBookingSettings } from "../bookings/settings-store.ts"
import { leadCsv } from "../leads/export.ts"
import { listLeads } from "../leads/lead-list.ts"
import { adminOrg, answering } from "./errors.ts"
import type { AssistantRuntime } from "./runtime.ts"

/** CONTRACT.md §9's leads and bookings rows: an administrator or a non-widget key. */
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

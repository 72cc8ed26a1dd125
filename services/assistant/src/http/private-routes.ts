import { Readable } from "node:stream"
import { Database } from "@parley/db"
import { Effect } from "effect"
import { cancelBooking, listBookings } from "../bookings/calendar.ts"
import { withAllDays } from "../bookings/settings.ts"
import { loadBookingSettings, saveBookingSettings } from "../bookings/settings-store.ts"
import { chat } from "../chat/widget-chat.ts"
import { leadCsv } from "../leads/export.ts"
import { listLeads } from "../leads/lead-list.ts"
import { loadProfile, saveProfile } from "../profile/profile-store.ts"
import type { AssistantHandlers } from "./runtime.ts"

/**
 * docs/contract.md §9's leads and bookings rows (an administrator's or a non-widget key's, as §9 says),
 * §8's booking cancellation (an administrator's) and
 * assistant profile (read by any member, written by an administrator).
 */
export const privateHandlers = {
  listLeads: ({ principal, query }) =>
    listLeads(principal.orgId, { limit: query.limit ?? 50, cursor: query.cursor, type: query.type }),

  exportLeads: ({ principal, query, reply }) =>
    Effect.gen(function* () {
      const { sql } = yield* Database
      reply
        .type("text/csv; charset=utf-8")
        .header("content-disposition", 'attachment; filename="leads.csv"')
        .header("cache-control", "no-store")
      return Readable.from(leadCsv(sql, principal.orgId, query.type)) as unknown
    }),

  listBookings: ({ principal, query }) =>
    listBookings(principal.orgId, { date: query.date, limit: query.limit ?? 50, cursor: query.cursor }),

  cancelBooking: ({ principal, params }) => cancelBooking(principal.orgId, params.id),

  getAssistantProfile: ({ principal }) =>
    Effect.gen(function* () {
      const { sql } = yield* Database
      return yield* loadProfile(sql, principal.orgId, principal.orgName ?? "")
    }),

  putAssistantProfile: ({ principal, body }) =>
    Effect.gen(function* () {
      return yield* saveProfile(principal.orgId, yield* body)
    }),

  /** The console's live preview (docs/contract.md §14): the widget's conversation, reached with the session. */
  previewChat: ({ principal, body }) =>
    Effect.gen(function* () {
      return yield* chat(principal.orgId, yield* body, principal.orgName ?? "", true)
    }),

  getBookingSettings: ({ principal }) =>
    Effect.gen(function* () {
      const { sql } = yield* Database
      return withAllDays(yield* loadBookingSettings(sql, principal.orgId))
    }),

  putBookingSettings: ({ principal, body }) =>
    Effect.gen(function* () {
      return yield* saveBookingSettings(principal.orgId, yield* body)
    }),
} satisfies Partial<AssistantHandlers>

import { Database } from "@parley/db"
import { Effect } from "effect"
import { slotsOf } from "../bookings/calendar.ts"
import { formBooking } from "../chat/form-booking.ts"
import { chat, resetChat, transcript } from "../chat/widget-chat.ts"
import { CATALOGS } from "../engine/messages/index.ts"
import { isLanguage } from "../engine/text.ts"
import { engineProfile, loadProfile } from "../profile/profile-store.ts"
import type { AssistantHandlers } from "./runtime.ts"

/** docs/contract.md §8: the widget surface (the gateway already checked the key's scope). */
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

  /** The panel's title and greeting before any message: the profile's, in the widget's language when the assistant speaks it. */
  widgetWelcome: ({ principal, query }) =>
    Effect.gen(function* () {
      const { sql } = yield* Database
      const profile = engineProfile(yield* loadProfile(sql, principal.orgId, principal.orgName ?? ""))
      const asked = query.locale?.slice(0, 2).toLowerCase() ?? ""
      const language = isLanguage(asked) && profile.languages.includes(asked) ? asked : (profile.languages[0] ?? "en")
      const greeting = profile.greeting?.trim() || CATALOGS[language].greeting(profile.businessName)
      return { businessName: profile.businessName, greeting }
    }),

  widgetBookingSlots: ({ principal, query }) => slotsOf(principal.orgId, query.date, query.service),

  widgetCreateBooking: ({ principal, body }) =>
    Effect.gen(function* () {
      const request = yield* body
      return yield* formBooking(principal.orgId, {
        name: request.name.trim(),
        phone: request.phone,
        date: request.date,
        time: request.time,
        service: request.service,
        notes: request.notes,
        sessionId: request.sessionId,
        source: "booking",
      })
    }),
} satisfies Partial<AssistantHandlers>

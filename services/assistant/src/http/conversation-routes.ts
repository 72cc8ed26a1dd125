import { Database } from "@parley/db"
import { Clock, Effect } from "effect"
import { openEventStream } from "../conversations/event-stream.ts"
import { ConversationFeed } from "../conversations/feed.ts"
import { listConversations, readConversation } from "../conversations/inbox-store.ts"
import { release, sendStaffMessage, takeOver } from "../conversations/takeover.ts"
import type { AssistantHandlers } from "./runtime.ts"

const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

/** docs/contract.md §17: the inbox, read by any member or non-widget key; a person's takeover, reply and release. */
export const conversationHandlers = {
  listConversations: ({ principal, query }) =>
    Effect.gen(function* () {
      const { sql } = yield* Database
      return yield* listConversations(
        sql,
        principal.orgId,
        { limit: query.limit ?? 50, cursor: query.cursor, channel: query.channel, state: query.state },
        yield* now,
      )
    }),

  conversationEvents: ({ principal, reply }) =>
    Effect.gen(function* () {
      const feed = yield* ConversationFeed
      return yield* Effect.promise(() => openEventStream(feed, principal.orgId, reply))
    }),

  getConversation: ({ principal, params, query }) =>
    Effect.gen(function* () {
      const { sql } = yield* Database
      return yield* readConversation(
        sql,
        principal.orgId,
        params.id,
        { limit: query.limit ?? 50, cursor: query.cursor },
        yield* now,
      )
    }),

  takeOverConversation: ({ principal, params }) => takeOver(principal, params.id),

  sendConversationMessage: ({ principal, params, body }) =>
    Effect.gen(function* () {
      const { text } = yield* body
      // What a person types ends with the Enter that sent it: the customer gets the text itself, from
      // every client. A text that is only whitespace never gets here (the schema refuses it, 400).
      return yield* sendStaffMessage(principal, params.id, text.trim())
    }),

  releaseConversation: ({ principal, params }) => release(principal, params.id),
} satisfies Partial<AssistantHandlers>

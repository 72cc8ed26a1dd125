import type { OutboxWriter } from "@parley/bus"
import type { ChatRequest, OrgId } from "@parley/contracts"
import { Database, jsonb, withTransaction } from "@parley/db"
import { newId } from "@parley/platform"
import { Clock, Effect } from "effect"
import { handOffOf } from "../conversations/customer-turn.ts"
import { widgetMessageWhileHeld } from "../conversations/held-message.ts"
import { personHolds } from "../conversations/hold.ts"
import { emptyConversation, resetConversation } from "../engine/state.ts"
import { ResourceNotFound } from "../errors.ts"
import { leadOfAnswer, recordConversationLead } from "../leads/conversation-lead.ts"
import { LanguageModel } from "../llm/language-model.ts"
import {
  findWidgetSession,
  findWidgetTurn,
  recentHistory,
  STALE_TURN_RETRIES,
  type StaleConversation,
  storeTurn,
} from "./conversation-store.ts"
import { runTurn } from "./turn.ts"

export interface ChatAnswer {
  readonly sessionId: string
  /** `null` while a person holds the conversation (docs/contract.md §17). */
  readonly reply: { readonly text: string } | null
  readonly lead: { readonly id: string; readonly type: string } | null
}

/**
 * `POST /api/public/chat`: one visitor message. A missing or unknown session id (another
 * organization's included) starts a new session with a new id. The turn's messages, the session's
 * state and the lead with its event commit in one transaction; the reply is computed before it, so
 * no transaction stays open while a language model thinks. Two messages of one session sent at once
 * are both answered: the one stored second is recomputed from the state the first left.
 */
export const chat = (
  orgId: OrgId,
  request: ChatRequest,
  organizationName = "",
  preview = false,
): Effect.Effect<ChatAnswer, never, Database | OutboxWriter | LanguageModel> =>
  Effect.suspend(() => {
    const freshId = newId("ses")
    return chatTurn(orgId, request, freshId, organizationName, preview).pipe(
      Effect.retry({ times: STALE_TURN_RETRIES, while: (error) => error._tag === "StaleConversation" }),
      Effect.orDie,
      Effect.withSpan("assistant.widgetChat"),
    )
  })

const chatTurn = (
  orgId: OrgId,
  request: ChatRequest,
  freshId: string,
  organizationName: string,
  preview: boolean,
): Effect.Effect<ChatAnswer, StaleConversation, Database | OutboxWriter | LanguageModel> =>
  Effect.gen(function* () {
    const { sql } = yield* Database
    // The session and the settings: one round trip.
    const { found, setup } = yield* findWidgetTurn(sql, orgId, request.sessionId, preview, organizationName)
    const sessionId = found?.id ?? freshId
    const arrivedAt = new Date(yield* Clock.currentTimeMillis)
    if (found !== undefined && (yield* personHolds(sql, found, arrivedAt))) {
      return yield* widgetMessageWhileHeld(orgId, request, found, organizationName, arrivedAt)
    }
    // Only a model reads the history; the deterministic engine keeps what it needs in the state.
    const model = yield* LanguageModel
    const history = found === undefined || !model.enabled ? [] : yield* recentHistory(sql, sessionId)
    const visitorName = request.visitor?.name?.trim()
    const start = {
      ...(found?.state ?? emptyConversation),
      ...(visitorName === undefined || visitorName === "" ? {} : { name: visitorName }),
    }
    const turn = yield* runTurn({
      ...(request.visitor?.phone === undefined ? {} : { visitorPhone: request.visitor.phone }),
      orgId,
      organizationName,
      conversationId: sessionId,
      source: "chat",
      customerPhone: undefined,
      state: start,
      message: request.message,
      history,
      setup,
    })
    const handOff = handOffOf(request.message, found?.state, turn)
    const at = new Date(yield* Clock.currentTimeMillis)
    const lead = yield* withTransaction((tx) =>
      Effect.gen(function* () {
        const { recorded, state, forStaff } = yield* recordConversationLead(tx, orgId, found?.state, turn.state, "chat")
        yield* storeTurn(tx, {
          id: sessionId,
          readVersion: found?.version,
          orgId,
          channel: null,
          customer: null,
          state,
          visitorText: request.message,
          replyText: handOff.text,
          at,
          // The administrator trying their own assistant waits for no one (and the Inbox never lists it).
          // A request the lead does not carry (another conversation's lead) waits for a person, too.
          note: { waiting: (handOff.waiting || forStaff) && !preview },
          preview,
        })
        return recorded
      }),
    )
    return { sessionId, reply: { text: handOff.text }, lead: leadOfAnswer(lead) }
  })

/** `POST /api/public/chat/reset`: the messages and the dialogue go; the visitor (and lead) stay. */
export const resetChat = (
  orgId: OrgId,
  sessionId: string,
): Effect.Effect<{ sessionId: string }, ResourceNotFound, Database> =>
  withTransaction((tx) =>
    Effect.gen(function* () {
      const found = yield* findWidgetSession(tx, orgId, sessionId)
      if (found === undefined) return yield* Effect.fail(new ResourceNotFound())
      yield* Effect.promise(async () => {
        await tx`delete from assistant.conversation_messages where conversation_id = ${found.id}`
        await tx`update assistant.conversations set state = ${jsonb(tx, resetConversation(found.state))},
                 version = version + 1, updated_at = now() where id = ${found.id}`
      })
      return { sessionId: found.id }
    }),
  )

/** `GET /api/public/chat/:sessionId`: the conversation, oldest first. */
export const transcript = (orgId: OrgId, sessionId: string) =>
  Effect.gen(function* () {
    const { sql } = yield* Database
    const found = yield* findWidgetSession(sql, orgId, sessionId)
    if (found === undefined) return yield* Effect.fail(new ResourceNotFound())
    const rows = yield* Effect.promise(
      () => sql<Array<{ role: "visitor" | "assistant" | "staff"; text: string; created_at: Date }>>`
        select role, text, created_at from assistant.conversation_messages
        where conversation_id = ${found.id} order by seq`,
    )
    return {
      sessionId: found.id,
      messages: rows.map((row) => ({ role: row.role, text: row.text, createdAt: row.created_at.toISOString() })),
    }
  })

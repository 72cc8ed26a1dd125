import { Effect } from "effect"
import type postgres from "postgres"
import { type ConversationState, decodeConversationState } from "../engine/state.ts"

/** Conversations (widget sessions and per-customer channel conversations) and their messages. */

type Queries = postgres.Sql | postgres.TransactionSql

export interface StoredConversation {
  readonly id: string
  readonly state: ConversationState
}

/** Messages given to the model as context; the deterministic engine keeps what it needs in state. */
const HISTORY_TURNS = 20

export const findWidgetSession = (sql: Queries, orgId: string, id: string) =>
  Effect.promise(
    () => sql<Array<{ id: string; state: unknown }>>`
      select id, state from assistant.conversations
      where id = ${id} and org_id = ${orgId} and channel is null`,
  ).pipe(
    Effect.map(([row]): StoredConversation | undefined =>
      row === undefined ? undefined : { id: row.id, state: decodeConversationState(row.state) },
    ),
  )

export const findChannelConversation = (sql: Queries, orgId: string, channel: string, customer: string) =>
  Effect.promise(
    () => sql<Array<{ id: string; state: unknown }>>`
      select id, state from assistant.conversations
      where org_id = ${orgId} and channel = ${channel} and customer = ${customer}`,
  ).pipe(
    Effect.map(([row]): StoredConversation | undefined =>
      row === undefined ? undefined : { id: row.id, state: decodeConversationState(row.state) },
    ),
  )

export const recentHistory = (sql: Queries, conversationId: string) =>
  Effect.promise(
    () => sql<Array<{ role: "visitor" | "assistant"; text: string }>>`
      select role, text from (
        select seq, role, text from assistant.conversation_messages
        where conversation_id = ${conversationId} order by seq desc limit ${HISTORY_TURNS}
      ) recent order by seq`,
  )

/** Creates or updates the conversation row and appends the visitor's message and the reply. */
export const storeTurn = (
  tx: postgres.TransactionSql,
  turn: {
    readonly id: string
    readonly orgId: string
    readonly channel: string | null
    readonly customer: string | null
    readonly state: ConversationState
    readonly visitorText: string
    readonly replyText: string
    readonly at: Date
  },
) =>
  Effect.promise(async () => {
    await tx`
      insert into assistant.conversations (id, org_id, channel, customer, state, created_at, updated_at)
      values (${turn.id}, ${turn.orgId}, ${turn.channel}, ${turn.customer}, ${tx.json(turn.state as never)}, ${turn.at}, ${turn.at})
      on conflict (id) do update set state = excluded.state, updated_at = excluded.updated_at`
    // Same transaction time for both: the sequence number keeps the visitor's message first.
    await tx`
      insert into assistant.conversation_messages (conversation_id, role, text, created_at)
      values (${turn.id}, 'visitor', ${turn.visitorText}, ${turn.at}),
             (${turn.id}, 'assistant', ${turn.replyText}, ${new Date(turn.at.getTime() + 1)})`
  })

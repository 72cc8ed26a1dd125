import type { OrgId } from "@parley/contracts"
import { jsonb } from "@parley/db"
import { Data, Effect } from "effect"
import type postgres from "postgres"
import { type ConversationState, decodeConversationState } from "../engine/state.ts"

/** Conversations (widget sessions and per-customer channel conversations) and their messages. */

type Queries = postgres.Sql | postgres.TransactionSql

export interface StoredConversation {
  readonly id: string
  readonly state: ConversationState
  /** Compared when the turn is stored: another turn stored in between makes this one stale. */
  readonly version: string
}

/** Another turn of the same conversation was stored after this one read it; compute it again. */
export class StaleConversation extends Data.TaggedError("StaleConversation")<{}> {}

const toStored = (row: { id: string; state: unknown; version: string } | undefined): StoredConversation | undefined =>
  row === undefined ? undefined : { id: row.id, state: decodeConversationState(row.state), version: row.version }

/** Messages given to the model as context; the deterministic engine keeps what it needs in state. */
const HISTORY_TURNS = 20

/** A widget session of the organization; a preview's (`preview`) and a visitor's are never each other's. */
export const findWidgetSession = (sql: Queries, orgId: OrgId, id: string, preview = false) =>
  Effect.promise(
    () => sql<Array<{ id: string; state: unknown; version: string }>>`
      select id, state, version::text as version from assistant.conversations
      where id = ${id} and org_id = ${orgId} and channel is null and preview = ${preview}`,
  ).pipe(Effect.map(([row]) => toStored(row)))

export const findChannelConversation = (sql: Queries, orgId: OrgId, channel: string, customer: string) =>
  Effect.promise(
    () => sql<Array<{ id: string; state: unknown; version: string }>>`
      select id, state, version::text as version from assistant.conversations
      where org_id = ${orgId} and channel = ${channel} and customer = ${customer}`,
  ).pipe(Effect.map(([row]) => toStored(row)))

export const recentHistory = (sql: Queries, conversationId: string) =>
  Effect.promise(
    () => sql<Array<{ role: "visitor" | "assistant"; text: string }>>`
      select role, text from (
        select seq, role, text from assistant.conversation_messages
        where conversation_id = ${conversationId} order by seq desc limit ${HISTORY_TURNS}
      ) recent order by seq`,
  )

/**
 * Stores a turn: creates the conversation (when `readVersion` is undefined) or moves it from the
 * version the turn was computed from to the next, and appends the visitor's message and the reply.
 * Fails with `StaleConversation` when another turn got there first (the caller's transaction rolls
 * back and the turn is computed again from the newer state).
 */
export const storeTurn = (
  tx: postgres.TransactionSql,
  turn: {
    readonly id: string
    readonly readVersion: string | undefined
    readonly orgId: OrgId
    readonly channel: string | null
    readonly customer: string | null
    readonly state: ConversationState
    readonly visitorText: string
    readonly replyText: string
    readonly at: Date
    /** The console's live preview (a new conversation only): kept out of the Inbox. */
    readonly preview?: boolean
  },
): Effect.Effect<void, StaleConversation> =>
  Effect.gen(function* () {
    const stored = yield* Effect.promise(() =>
      turn.readVersion === undefined
        ? tx`
            insert into assistant.conversations (id, org_id, channel, customer, state, created_at, updated_at, preview)
            values (${turn.id}, ${turn.orgId}, ${turn.channel}, ${turn.customer}, ${jsonb(tx, turn.state)},
                    ${turn.at}, ${turn.at}, ${turn.preview ?? false})
            on conflict do nothing
            returning id`
        : tx`
            update assistant.conversations
            set state = ${jsonb(tx, turn.state)}, version = version + 1, updated_at = ${turn.at}
            where id = ${turn.id} and version = ${turn.readVersion}::bigint
            returning id`,
    )
    if (stored.length === 0) return yield* Effect.fail(new StaleConversation())
    // Same transaction time for both: the sequence number keeps the visitor's message first.
    yield* Effect.promise(
      () => tx`
        insert into assistant.conversation_messages (conversation_id, role, text, created_at)
        values (${turn.id}, 'visitor', ${turn.visitorText}, ${turn.at}),
               (${turn.id}, 'assistant', ${turn.replyText}, ${new Date(turn.at.getTime() + 1)})`,
    )
  })

/** How often a turn that lost a race with another turn of its conversation is computed again. */
export const STALE_TURN_RETRIES = 5

import type { OrgId } from "@parley/contracts"
import { jsonb } from "@parley/db"
import { Data, Effect } from "effect"
import type postgres from "postgres"
import { CONVERSATIONS_CHANNEL } from "../conversations/feed.ts"
import type { HoldRow } from "../conversations/hold.ts"
import { type ConversationState, decodeConversationState } from "../engine/state.ts"
import {
  type TurnSetup,
  type TurnSetupRow,
  turnSetupColumns,
  turnSetupJoins,
  turnSetupOf,
  turnSetupSource,
} from "../profile/profile-store.ts"

/** Conversations (widget sessions and per-customer channel conversations) and their messages. */

type Queries = postgres.Sql | postgres.TransactionSql

export interface StoredConversation {
  readonly id: string
  readonly state: ConversationState
  /** Compared when the turn is stored: another turn stored in between makes this one stale. */
  readonly version: string
  /** Who held it when it was read (`personHolds` reads the hold from it: no round trip of its own). */
  readonly hold: HoldRow
}

/** Another turn of the same conversation was stored after this one read it; compute it again. */
export class StaleConversation extends Data.TaggedError("StaleConversation")<{}> {}

type ConversationRow = { id: string; state: unknown; version: string; booking_gone: boolean } & HoldRow

/**
 * The state as the calendar has it now: a booking this conversation made and someone cancelled since
 * (staff in the console or the API, docs/contract.md §8) is no longer the conversation's — else the
 * next turn would record it on the lead again. The lead stays `BOOKING` ("a booking was made in it").
 */
const reconciled = (state: ConversationState, bookingGone: boolean): ConversationState => {
  if (!bookingGone) return state
  const { booking: _booking, bookingId: _bookingId, ...rest } = state
  return { ...rest, bookingMade: true }
}

const toStored = (row: ConversationRow | undefined): StoredConversation | undefined =>
  row === undefined
    ? undefined
    : {
        id: row.id,
        state: reconciled(decodeConversationState(row.state), row.booking_gone),
        version: row.version,
        hold: { holder_id: row.holder_id, updated_at: row.updated_at },
      }

/** The columns a turn reads, with whether the conversation's booking is no longer confirmed. */
const conversationColumns = (sql: Queries) => sql`
  c.id, c.state, c.version::text as version, c.holder_id, c.updated_at,
  (c.state ? 'bookingId' and not exists (
    select 1 from assistant.bookings b
    where b.id = c.state->>'bookingId' and b.org_id = c.org_id and b.status = 'confirmed'
  )) as booking_gone`

/** Messages given to the model as context; the deterministic engine keeps what it needs in state. */
const HISTORY_TURNS = 20

/** A widget session of the organization; a preview's (`preview`) and a visitor's are never each other's. */
export const findWidgetSession = (sql: Queries, orgId: OrgId, id: string, preview = false) =>
  Effect.promise(
    () => sql<Array<ConversationRow>>`
      select ${conversationColumns(sql)} from assistant.conversations c
      where c.id = ${id} and c.org_id = ${orgId} and c.channel is null and c.preview = ${preview}`,
  ).pipe(Effect.map(([row]) => toStored(row)))

/** A turn's start from the row that read it: the conversation (none yet: undefined) and the setup. */
const turnStartOf = (row: (TurnSetupRow & (ConversationRow | { id: null })) | undefined, organizationName: string) => ({
  found: row === undefined || row.id === null ? undefined : toStored(row),
  setup: turnSetupOf(row, organizationName),
})

/**
 * What a turn starts from, in one round trip: the organization's `TurnSetup` and the conversation
 * that `match` picks out of `c` (undefined when there is none yet).
 */
const findForTurn = (
  sql: postgres.Sql,
  orgId: OrgId,
  organizationName: string,
  match: postgres.PendingQuery<postgres.Row[]>,
) =>
  Effect.promise(
    () => sql<Array<TurnSetupRow & (ConversationRow | { id: null })>>`
      select ${conversationColumns(sql)}, ${turnSetupColumns(sql)}
      from ${turnSetupSource(sql, orgId)}
      left join assistant.conversations c on c.org_id = o.org_id and ${match}`,
  ).pipe(Effect.map(([row]) => turnStartOf(row, organizationName)))

/** A customer's message on a channel whose turn is about to run. */
export interface ChannelTurnKey {
  readonly orgId: OrgId
  readonly channel: string
  readonly customer: string
  readonly messageId: string
}

/** What one channel message's turn starts from (`findChannelTurns`). */
export interface ChannelTurnStart<Also> {
  readonly found: StoredConversation | undefined
  readonly setup: TurnSetup
  readonly also: Also
}

/**
 * What the turns of several channel messages start from, in one round trip: for each key, in order,
 * the customer's conversation on that channel (undefined when there is none yet), the organization's
 * `TurnSetup` and the caller's `also` columns, which may read the key from `o` (`org_id`, `channel`,
 * `customer`, `message_id`).
 */
export const findChannelTurns = async <Also extends object>(
  sql: postgres.Sql,
  keys: ReadonlyArray<ChannelTurnKey>,
  also: postgres.PendingQuery<postgres.Row[]>,
): Promise<ReadonlyArray<ChannelTurnStart<Also>>> => {
  const rows = await sql<Array<TurnSetupRow & (ConversationRow | { id: null }) & Also & { i: string }>>`
    select o.i, ${also}, ${conversationColumns(sql)}, ${turnSetupColumns(sql)}
    from unnest(${keys.map((k) => k.orgId)}::text[], ${keys.map((k) => k.channel)}::text[],
                ${keys.map((k) => k.customer)}::text[], ${keys.map((k) => k.messageId)}::text[])
         with ordinality as o(org_id, channel, customer, message_id, i)
    ${turnSetupJoins(sql)}
    left join assistant.conversations c on c.org_id = o.org_id and c.channel = o.channel and c.customer = o.customer`
  const byKey = new Map(rows.map((row) => [Number(row.i) - 1, row]))
  return keys.map((_, i) => {
    const row = byKey.get(i)
    return { ...turnStartOf(row, ""), also: row as Also }
  })
}

/** A widget session as `findWidgetSession` finds it (none without an id), with its turn's setup. */
export const findWidgetTurn = (
  sql: postgres.Sql,
  orgId: OrgId,
  id: string | undefined,
  preview: boolean,
  organizationName: string,
) =>
  findForTurn(
    sql,
    orgId,
    organizationName,
    id === undefined ? sql`false` : sql`c.id = ${id} and c.channel is null and c.preview = ${preview}`,
  )

export const recentHistory = (sql: Queries, conversationId: string) =>
  Effect.promise(
    () => sql<Array<{ role: "visitor" | "assistant"; text: string }>>`
      select role, text from (
        select seq, role, text from assistant.conversation_messages
        where conversation_id = ${conversationId} order by seq desc limit ${HISTORY_TURNS}
      ) recent order by seq`,
  )

/** What a customer's message notes on its conversation besides the turn (docs/contract.md §17). */
export interface CustomerNote {
  /** The conversation now waits for a person (set, never cleared here: a person's answer clears it). */
  readonly waiting: boolean
  /** On a channel: when the customer wrote (the service window). */
  readonly receivedAt?: Date | undefined
  /** On a channel: the provider's name for the customer, kept when none is given. */
  readonly customerName?: string | undefined
}

/**
 * Stores a turn in one statement (one round trip, in the caller's transaction): creates the
 * conversation (when `readVersion` is undefined) or moves it from the version the turn was computed
 * from to the next, notes the customer's message on it (`CustomerNote`), appends the visitor's
 * message and the reply, and announces the change to the live inbox (a `NOTIFY`, heard once
 * committed; never for the console's preview). With a `claim` (an insert returning a row when this
 * is the first delivery of the message, `claimStatement`), the same statement claims the message and
 * stores the turn only if it got it: false when it did not (nothing is stored). Fails with
 * `StaleConversation` when another turn got there first (nothing is written; the caller's transaction
 * rolls back and the turn is computed again from the newer state). With `also`, further common
 * table expressions that join this statement, the last named `also` (they may test `exists (select
 * from stored)`, so that they write only with the turn), the answer carries the rows of `also`: what
 * would be a round trip of its own.
 */
export const storeTurn = <Also = never>(
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
    readonly note: CustomerNote
    /** The console's live preview (a new conversation only): kept out of the Inbox. */
    readonly preview?: boolean
    readonly claim?: postgres.PendingQuery<postgres.Row[]>
    readonly also?: postgres.PendingQuery<postgres.Row[]>
  },
): Effect.Effect<StoredTurn<Also> | false, StaleConversation> =>
  Effect.gen(function* () {
    const name = turn.note.customerName?.trim()
    const customerName = name === undefined || name === "" ? null : name
    const receivedAt = turn.note.receivedAt ?? null
    const stored = tx`
      ${
        turn.readVersion === undefined
          ? tx`
            insert into assistant.conversations
              (id, org_id, channel, customer, state, created_at, updated_at, preview, waiting, last_customer_at, customer_name)
            select ${turn.id}, ${turn.orgId}, ${turn.channel}::text, ${turn.customer}::text, ${jsonb(tx, turn.state)},
                   ${turn.at}::timestamptz, ${turn.at}::timestamptz, ${turn.preview ?? false}::boolean,
                   ${turn.note.waiting}::boolean, ${receivedAt}::timestamptz, ${customerName}::text
            where exists (select from claimed)
            on conflict do nothing`
          : tx`
            update assistant.conversations
            set state = ${jsonb(tx, turn.state)}, version = version + 1, updated_at = ${turn.at},
                waiting = waiting or ${turn.note.waiting},
                last_customer_at = coalesce(${receivedAt}, last_customer_at),
                customer_name = coalesce(${customerName}, customer_name)
            where id = ${turn.id} and version = ${turn.readVersion}::bigint and exists (select from claimed)`
      }
      returning id, org_id, public_id, preview`
    // Same transaction time for both: the sequence number keeps the visitor's message first.
    const [row] = yield* Effect.promise(
      () => tx<Array<{ claimed: boolean; id: string | null; also: ReadonlyArray<Also> }>>`
        with claimed as (${turn.claim ?? tx`select`}),
        stored as (${stored}),
        added as (
          insert into assistant.conversation_messages (conversation_id, role, text, created_at)
          select stored.id, message.role, message.text, message.created_at
          from stored cross join (values
            (1, 'visitor', ${turn.visitorText}::text, ${turn.at}::timestamptz),
            (2, 'assistant', ${turn.replyText}::text, ${new Date(turn.at.getTime() + 1)}::timestamptz)
          ) as message (position, role, text, created_at)
          order by message.position
        ),
        announced as (
          select pg_notify(${CONVERSATIONS_CHANNEL}, org_id || ' ' || public_id) from stored where not preview
        ),
        ${turn.also ?? tx`also as (select where false)`}
        select exists (select from claimed) as claimed, (select id from stored) as id,
               (select count(*) from announced) as announced,
               (select coalesce(json_agg(also), '[]'::json) from also) as also`,
    )
    if (row?.claimed !== true) return false
    if (row.id === null) return yield* Effect.fail(new StaleConversation())
    return { also: row.also }
  })

/** A turn `storeTurn` stored: the rows of its `also` (none without one). */
export interface StoredTurn<Also> {
  readonly also: ReadonlyArray<Also>
}

/** How often a turn that lost a race with another turn of its conversation is computed again. */
export const STALE_TURN_RETRIES = 5

/**
 * Starts a widget session with no message yet (the booking form used before the chat): its state
 * is what the chat goes on from. No `NOTIFY`: the Inbox is told of a conversation's messages.
 */
export const startWidgetSession = (
  tx: postgres.TransactionSql,
  session: { readonly id: string; readonly orgId: OrgId; readonly state: ConversationState; readonly at: Date },
) =>
  Effect.promise(
    () => tx`
      insert into assistant.conversations (id, org_id, channel, customer, state, created_at, updated_at)
      values (${session.id}, ${session.orgId}, null, null, ${jsonb(tx, session.state)}, ${session.at}, ${session.at})`,
  )

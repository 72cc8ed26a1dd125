import type { ChannelKind, OrgId } from "@parley/contracts"
import { Database, makeGroupCommit } from "@parley/db"
import { Context, Effect, Layer, Option } from "effect"
import type postgres from "postgres"
import type { StoredChannel } from "../channels/repository.ts"

/**
 * A send to record `pending`, before its provider call, on the channel `resolveSendChannel` would
 * pick: `channel` when asked for, else cloud when configured, else bridge.
 */
export interface PendingRow {
  readonly id: string
  readonly orgId: OrgId
  readonly channel: ChannelKind | undefined
  readonly phone: string
  readonly type: "text" | "template"
  readonly text: string
  readonly campaignId: string | null
  readonly sourceKey: string | null
}

/** A send's outcome: the provider's id when it took the message, else why it failed. */
export interface Settlement {
  readonly id: string
  readonly providerMessageId: string | null
  readonly error: string | null
}

/**
 * A send's two writes, each committed before the send goes on: the `pending` row, answering the
 * channel it was recorded on (none when its source key was recorded before, or the organization
 * has no such channel), and the outcome. Alone, each is its own statement; under
 * `SendWriteBatches` concurrent sends share the transactions (see `SendWriteBatches.layer`).
 */
export interface SendWrites {
  readonly record: (row: PendingRow) => Effect.Effect<Option.Option<StoredChannel>>
  readonly settle: (settlement: Settlement) => Effect.Effect<void>
}

/**
 * The channel is read by the insert itself rather than by a statement before it: one round trip per
 * send fewer, and the channel a send uses is the one its row was recorded on, as of that statement
 * (a token rotated by `PUT /api/channels/cloud` before it is used, on any process, as before).
 * On the bridge Parley's id is the message id, known before the call, so a status the bridge reports
 * while our post is still in flight already finds the message.
 */
const recordPending = (tx: postgres.Sql | postgres.TransactionSql, rows: ReadonlyArray<PendingRow>) =>
  Effect.promise(
    () => tx<Array<StoredChannel & { message_id: string }>>`
      with recorded as (
        insert into messaging.messages
          (id, org_id, channel, direction, phone, type, text, status, campaign_id, source_key, provider_message_id)
        select r.id, r.org_id, c.kind, 'outbound', r.phone, r.type, r.text, 'pending', r.campaign_id, r.source_key,
               case when c.kind = 'bridge' then r.id end
        from unnest(${rows.map((r) => r.id)}::text[], ${rows.map((r) => r.orgId)}::text[],
                    ${rows.map((r) => r.channel ?? null)}::text[], ${rows.map((r) => r.phone)}::text[],
                    ${rows.map((r) => r.type)}::text[], ${rows.map((r) => r.text)}::text[],
                    ${rows.map((r) => r.campaignId)}::text[], ${rows.map((r) => r.sourceKey)}::text[])
          as r (id, org_id, requested, phone, type, text, campaign_id, source_key)
        cross join lateral (
          select kind from messaging.channels c
          where c.org_id = r.org_id and (c.kind = r.requested or r.requested is null)
          order by c.kind = 'cloud' desc
          limit 1) c
        on conflict (org_id, source_key) where source_key is not null do nothing
        returning id, org_id, channel)
      -- the same snapshot as the insert's: the channel row it was recorded on
      select recorded.id as message_id, c.*
      from recorded join messaging.channels c on c.org_id = recorded.org_id and c.kind = recorded.channel`,
  ).pipe(
    Effect.map((recorded) => {
      const channels = new Map(recorded.map(({ message_id, ...channel }) => [message_id, channel]))
      return rows.map((row) => Option.fromNullishOr(channels.get(row.id)))
    }),
  )

const settle = (tx: postgres.Sql | postgres.TransactionSql, settlements: ReadonlyArray<Settlement>) =>
  Effect.promise(
    () => tx`
      update messaging.messages m
      set provider_message_id = coalesce(s.provider_message_id, m.provider_message_id),
          error = coalesce(s.error, m.error),
          updated_at = now(),
          -- a bridge may report "delivered" before it answers our post: keep the further status
          status = case when s.error is not null then 'failed' when m.status = 'pending' then 'sent' else m.status end
      -- unnest, not jsonb_to_recordset: the planner knows how many rows an array holds (10 in a
      -- generic plan), while a set-returning function is taken for 100, which made it hash-join a
      -- sequential scan of every message instead of looking each one up by its primary key
      from unnest(${settlements.map((s) => s.id)}::text[], ${settlements.map((s) => s.providerMessageId)}::text[],
                  ${settlements.map((s) => s.error)}::text[]) as s (id, provider_message_id, error)
      where m.id = s.id`,
  ).pipe(Effect.map(() => settlements.map(() => undefined)))

/** One of a send's writes, as the shared group commit carries it. */
type SendWrite =
  | { readonly _tag: "record"; readonly row: PendingRow }
  | { readonly _tag: "settle"; readonly settlement: Settlement }

/** A batch's `pending` rows and outcomes, each kind in one statement; answers each row's channel. */
const applyWrites = (tx: postgres.TransactionSql, writes: ReadonlyArray<SendWrite>) =>
  Effect.gen(function* () {
    const rows = writes.flatMap((write) => (write._tag === "record" ? [write.row] : []))
    const settlements = writes.flatMap((write) => (write._tag === "settle" ? [write.settlement] : []))
    const recorded = rows.length === 0 ? [] : yield* recordPending(tx, rows)
    if (settlements.length > 0) yield* settle(tx, settlements)
    const channels = new Map(rows.map((row, i) => [row.id, recorded[i] ?? Option.none<StoredChannel>()]))
    return writes.map((write) => (write._tag === "record" ? channels.get(write.row.id) : undefined) ?? Option.none())
  })

/**
 * Concurrent sends' writes in shared transactions (`makeGroupCommit`): the reply sender handles
 * many bus records at once, and each send still goes on only once its own write committed, so what
 * a crash can leave behind is the same as with a statement each. One group commit for both kinds:
 * under load replies start while others finish, and their rows and outcomes share a transaction
 * (one commit instead of two).
 */
export class SendWriteBatches extends Context.Service<SendWriteBatches, SendWrites>()(
  "@parley/messaging/SendWriteBatches",
) {
  /** The group commit, shared by the handlers of the subscription it is built for. */
  static readonly layer = Layer.effect(
    SendWriteBatches,
    Effect.gen(function* () {
      const writes = yield* makeGroupCommit(applyWrites)
      return SendWriteBatches.of({
        record: (row) => writes.submit({ _tag: "record", row }),
        settle: (settlement) => writes.submit({ _tag: "settle", settlement }).pipe(Effect.asVoid),
      })
    }),
  )
}

export const sendWrites: Effect.Effect<SendWrites, never, Database> = Effect.gen(function* () {
  const batches = yield* Effect.serviceOption(SendWriteBatches)
  if (Option.isSome(batches)) return batches.value
  const { sql } = yield* Database
  return {
    record: (row) => recordPending(sql, [row]).pipe(Effect.map((recorded) => recorded[0] ?? Option.none())),
    settle: (settlement) => settle(sql, [settlement]).pipe(Effect.asVoid),
  }
})

import type { ChannelKind, OrgId } from "@parley/contracts"
import { Database, makeGroupCommit } from "@parley/db"
import { Context, Effect, Layer, Option } from "effect"
import type postgres from "postgres"
import { type StoredChannel, sendChannelChoice } from "../channels/repository.ts"

/**
 * A send to record `pending`, before its provider call, on the channel `sendChannelChoice` picks:
 * `channel` when asked for, else cloud when configured, else bridge.
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
 * `SendWriteBatches` concurrent sends share statements (see `SendWriteBatches.layer`).
 */
export interface SendWrites {
  readonly record: (row: PendingRow) => Effect.Effect<Option.Option<StoredChannel>>
  readonly settle: (settlement: Settlement) => Effect.Effect<void>
}

/** One of a send's writes, as the group commit carries it. */
type SendWrite =
  | { readonly _tag: "record"; readonly row: PendingRow }
  | { readonly _tag: "settle"; readonly settlement: Settlement }

/**
 * A batch of writes in one statement (one round trip, one commit): the outcomes, and the `pending`
 * rows, answering each row's channel.
 *
 * The channel is read by the insert itself rather than by a statement before it: one round trip per
 * send fewer, and the channel a send uses is the one its row was recorded on, as of that statement
 * (a token rotated by `PUT /api/channels/cloud` before it is used, on any process, as before).
 * On the bridge Parley's id is the message id, known before the call, so a status the bridge reports
 * while our post is still in flight already finds the message.
 *
 * Arrays, not jsonb_to_recordset: the planner knows how many rows an array holds (10 in a generic
 * plan), while it takes a set-returning function for 100, which made it settle by a hash join over a
 * sequential scan of every message instead of looking each one up by its primary key.
 */
const applyWrites = (sql: postgres.Sql | postgres.TransactionSql, writes: ReadonlyArray<SendWrite>) => {
  const rows = writes.flatMap((write) => (write._tag === "record" ? [write.row] : []))
  const settlements = writes.flatMap((write) => (write._tag === "settle" ? [write.settlement] : []))
  return Effect.promise(
    () => sql<Array<StoredChannel & { message_id: string }>>`
      with settled as (
        update messaging.messages m
        set provider_message_id = coalesce(s.provider_message_id, m.provider_message_id),
            error = coalesce(s.error, m.error),
            updated_at = now(),
            -- a bridge may report "delivered" before it answers our post: keep the further status
            status = case when s.error is not null then 'failed' when m.status = 'pending' then 'sent' else m.status end
        from unnest(${settlements.map((s) => s.id)}::text[], ${settlements.map((s) => s.providerMessageId)}::text[],
                    ${settlements.map((s) => s.error)}::text[]) as s (id, provider_message_id, error)
        where m.id = s.id),
      recorded as (
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
          where ${sendChannelChoice(sql, sql`r.org_id`, sql`r.requested`)}) c
        on conflict (org_id, source_key) where source_key is not null do nothing
        returning id, org_id, channel)
      -- the same snapshot as the insert's: the channel row it was recorded on
      select recorded.id as message_id, c.*
      from recorded join messaging.channels c on c.org_id = recorded.org_id and c.kind = recorded.channel`,
  ).pipe(
    Effect.map((recorded) => {
      const channels = new Map(recorded.map(({ message_id, ...channel }) => [message_id, channel]))
      return writes.map((write) =>
        Option.fromNullishOr(write._tag === "record" ? channels.get(write.row.id) : undefined),
      )
    }),
  )
}

/**
 * Concurrent sends' writes in shared statements (`makeGroupCommit`): the reply sender handles many
 * bus records at once, and each send still goes on only once its own write committed, so what a
 * crash can leave behind is the same as with a statement each. One group commit for both kinds:
 * under load replies start while others finish, and their rows and outcomes share a statement (one
 * commit instead of two). A batch is that one statement, atomic alone, so it runs without BEGIN and
 * COMMIT round trips around it. One statement at a time: the next batch gathers every write that
 * came meanwhile, for at most one statement's wait (flat out, 0.53 → 0.33 statements, each a writing
 * transaction, per message).
 */
export class SendWriteBatches extends Context.Service<SendWriteBatches, SendWrites>()(
  "@parley/messaging/SendWriteBatches",
) {
  /** The group commit, shared by the handlers of the subscription it is built for. */
  static readonly layer = Layer.effect(
    SendWriteBatches,
    Effect.gen(function* () {
      const writes = yield* makeGroupCommit(applyWrites, { atomicity: "statement", maxConcurrent: 1 })
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
    record: (row) =>
      applyWrites(sql, [{ _tag: "record", row }]).pipe(Effect.map(([channel]) => channel ?? Option.none())),
    settle: (settlement) => applyWrites(sql, [{ _tag: "settle", settlement }]).pipe(Effect.asVoid),
  }
})

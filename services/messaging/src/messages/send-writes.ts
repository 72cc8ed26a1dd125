import type { ChannelKind, OrgId } from "@parley/contracts"
import { Database, jsonb, makeGroupCommit } from "@parley/db"
import { Context, Effect, Layer, Option } from "effect"
import type postgres from "postgres"

/** A send as recorded, `pending`, before its provider call. */
export interface PendingRow {
  readonly id: string
  readonly orgId: OrgId
  readonly channel: ChannelKind
  readonly phone: string
  readonly type: "text" | "template"
  readonly text: string
  readonly campaignId: string | null
  readonly sourceKey: string | null
  readonly providerMessageId: string | null
}

/** A send's outcome: the provider's id when it took the message, else why it failed. */
export interface Settlement {
  readonly id: string
  readonly providerMessageId: string | null
  readonly error: string | null
}

/**
 * A send's two writes, each committed before the send goes on: the `pending` row (answers false
 * when its source key was recorded before) and the outcome. Alone, each is its own statement;
 * under `SendWriteBatches` concurrent sends share the transactions (see `SendWriteBatches.layer`).
 */
export interface SendWrites {
  readonly record: (row: PendingRow) => Effect.Effect<boolean>
  readonly settle: (settlement: Settlement) => Effect.Effect<void>
}

const recordPending = (tx: postgres.Sql | postgres.TransactionSql, rows: ReadonlyArray<PendingRow>) =>
  Effect.promise(
    () => tx<Array<{ id: string }>>`
      insert into messaging.messages
        (id, org_id, channel, direction, phone, type, text, status, campaign_id, source_key, provider_message_id)
      select r.id, r.org_id, r.channel, 'outbound', r.phone, r.type, r.text, 'pending', r.campaign_id, r.source_key,
             r.provider_message_id
      from jsonb_to_recordset(${jsonb(tx, rows.map(pendingColumns))}) as r (
        id text, org_id text, channel text, phone text, type text, text text, campaign_id text, source_key text,
        provider_message_id text)
      on conflict (org_id, source_key) where source_key is not null do nothing
      returning id`,
  ).pipe(
    Effect.map((inserted) => {
      const ids = new Set(inserted.map((row) => row.id))
      return rows.map((row) => ids.has(row.id))
    }),
  )

const pendingColumns = (row: PendingRow) => ({
  id: row.id,
  org_id: row.orgId,
  channel: row.channel,
  phone: row.phone,
  type: row.type,
  text: row.text,
  campaign_id: row.campaignId,
  source_key: row.sourceKey,
  provider_message_id: row.providerMessageId,
})

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

/**
 * Concurrent sends' writes in shared transactions (`makeGroupCommit`): the reply sender handles
 * many bus records at once, and each send still goes on only once its own write committed, so what
 * a crash can leave behind is the same as with a statement each.
 */
export class SendWriteBatches extends Context.Service<SendWriteBatches, SendWrites>()(
  "@parley/messaging/SendWriteBatches",
) {
  /** The two group commits, shared by the handlers of the subscription it is built for. */
  static readonly layer = Layer.effect(
    SendWriteBatches,
    Effect.gen(function* () {
      const records = yield* makeGroupCommit(recordPending)
      const settlements = yield* makeGroupCommit(settle)
      return SendWriteBatches.of({ record: records.submit, settle: settlements.submit })
    }),
  )
}

export const sendWrites: Effect.Effect<SendWrites, never, Database> = Effect.gen(function* () {
  const batches = yield* Effect.serviceOption(SendWriteBatches)
  if (Option.isSome(batches)) return batches.value
  const { sql } = yield* Database
  return {
    record: (row) => recordPending(sql, [row]).pipe(Effect.map((inserted) => inserted[0] === true)),
    settle: (settlement) => settle(sql, [settlement]).pipe(Effect.asVoid),
  }
})

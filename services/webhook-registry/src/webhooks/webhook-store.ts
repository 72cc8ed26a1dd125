import { OutboxWriter } from "@parley/bus"
import type { EventName, OrgId } from "@parley/contracts"
import { Database, withTransaction } from "@parley/db"
import { newId } from "@parley/platform"
import { Context, Effect, Layer } from "effect"
import type postgres from "postgres"
import { ResourceNotFound, WebhookLimitReached } from "../errors.ts"
import { PreviousSecretWindowMs } from "./rotation.ts"
import { type WebhookRow, webhookChanged } from "./webhook-record.ts"

/** docs/contract.md §5: at most five webhooks per organization. */
export const MaxWebhooksPerOrg = 5

export interface NewWebhook {
  readonly url: string
  readonly events: ReadonlyArray<EventName>
  readonly sealedSecret: string
}

export interface WebhookChanges {
  readonly url?: string
  readonly events?: ReadonlyArray<EventName>
  readonly enabled?: boolean
  readonly secret?: NewSecret
}

/** A secret given on update: sealed for storage, and how to tell whether it is the key in use already. */
export interface NewSecret {
  readonly sealed: string
  /** True when the sealed current key is this very key (then nothing rotates). */
  readonly isCurrent: (currentSealed: string) => boolean
}

const query = <A>(run: () => Promise<A>): Effect.Effect<A> => Effect.promise(run)

/**
 * Webhooks of one schema. Every change writes the row and appends its `WebhookChanged` to the
 * outbox in one transaction, so the dispatcher's projection never misses or invents a change.
 */
export class WebhookStore extends Context.Service<
  WebhookStore,
  {
    readonly create: (orgId: OrgId, webhook: NewWebhook) => Effect.Effect<WebhookRow, WebhookLimitReached>
    readonly list: (orgId: OrgId) => Effect.Effect<ReadonlyArray<WebhookRow>>
    readonly find: (orgId: OrgId, id: string) => Effect.Effect<WebhookRow, ResourceNotFound>
    readonly update: (orgId: OrgId, id: string, changes: WebhookChanges) => Effect.Effect<WebhookRow, ResourceNotFound>
    readonly remove: (orgId: OrgId, id: string) => Effect.Effect<void, ResourceNotFound>
    /**
     * Erases the previous keys whose window ended by `now` and publishes each webhook's state without
     * it (one version on), so the dispatcher's projection and the compacted topic forget it too.
     * Safe to run on several instances at once: a row is cleared, and published, by one of them.
     */
    readonly forgetExpiredPreviousSecrets: (now?: Date) => Effect.Effect<number>
  }
>()("@parley/webhook-registry/WebhookStore") {
  /** The store of the webhooks in `schema`, on the service's Database and OutboxWriter. */
  static readonly layer = (schema: string) =>
    Layer.effect(
      WebhookStore,
      Effect.gen(function* () {
        const database = yield* Database
        const outbox = yield* OutboxWriter
        const provided = <A, E>(effect: Effect.Effect<A, E, Database | OutboxWriter>) =>
          effect.pipe(Effect.provideService(Database, database), Effect.provideService(OutboxWriter, outbox))
        const store = storeOf(schema, database.sql)
        return WebhookStore.of({
          create: (orgId, webhook) => provided(store.create(orgId, webhook)),
          list: store.list,
          find: store.find,
          update: (orgId, id, changes) => provided(store.update(orgId, id, changes)),
          remove: (orgId, id) => provided(store.remove(orgId, id)),
          forgetExpiredPreviousSecrets: (now) => provided(store.forgetExpiredPreviousSecrets(now)),
        })
      }),
    )
}

const storeOf = (schema: string, sql: postgres.Sql) => {
  const table = (sql: postgres.Sql | postgres.TransactionSql) => sql(schema)

  const create = (orgId: OrgId, webhook: NewWebhook) =>
    withTransaction((tx) =>
      Effect.gen(function* () {
        const outbox = yield* OutboxWriter
        // One creation at a time per organization, so the count below cannot be raced past five.
        yield* query(() => tx`select pg_advisory_xact_lock(hashtext(${`webhook_registry.limit.${orgId}`}))`)
        const [counted] = yield* query(
          () => tx<Array<{ n: number }>>`select count(*)::int as n from ${table(tx)}.webhooks where org_id = ${orgId}`,
        )
        if ((counted?.n ?? 0) >= MaxWebhooksPerOrg) {
          return yield* new WebhookLimitReached()
        }
        const now = new Date()
        const [row] = yield* query(
          () => tx<Array<WebhookRow>>`
            insert into ${table(tx)}.webhooks (id, org_id, url, events, enabled, sealed_secret, version, created_at, updated_at)
            values (${newId("wh")}, ${orgId}, ${webhook.url}, ${webhook.events as Array<string>}, true,
                    ${webhook.sealedSecret}, 1, ${now}, ${now})
            returning *`,
        )
        const created = row as WebhookRow
        yield* outbox.append(tx, [webhookChanged(created, false)])
        return created
      }),
    )

  const list = (orgId: OrgId) =>
    query(
      () => sql<Array<WebhookRow>>`
        select * from ${table(sql)}.webhooks where org_id = ${orgId} order by created_at desc, id desc`,
    )

  const find = (orgId: OrgId, id: string): Effect.Effect<WebhookRow, ResourceNotFound> =>
    query(
      () => sql<Array<WebhookRow>>`select * from ${table(sql)}.webhooks where id = ${id} and org_id = ${orgId}`,
    ).pipe(Effect.flatMap(([row]) => (row === undefined ? Effect.fail(new ResourceNotFound()) : Effect.succeed(row))))

  const update = (orgId: OrgId, id: string, changes: WebhookChanges) =>
    withTransaction((tx) =>
      Effect.gen(function* () {
        const outbox = yield* OutboxWriter
        // The key in use, read under the row's lock: a rotation keeps exactly it as the previous key.
        const [current] = yield* query(
          () => tx<Array<{ sealed_secret: string }>>`
            select sealed_secret from ${table(tx)}.webhooks where id = ${id} and org_id = ${orgId} for update`,
        )
        if (current === undefined) return yield* new ResourceNotFound()
        const secret = changes.secret
        const rotates = secret !== undefined && !secret.isCurrent(current.sealed_secret)
        const previousExpiresAt = rotates ? new Date(Date.now() + PreviousSecretWindowMs) : null
        const [row] = yield* query(
          () => tx<Array<WebhookRow>>`
            update ${table(tx)}.webhooks set
              url = coalesce(${changes.url ?? null}, url),
              events = coalesce(${(changes.events as Array<string> | undefined) ?? null}::text[], events),
              enabled = coalesce(${changes.enabled ?? null}::boolean, enabled),
              sealed_secret = coalesce(${secret?.sealed ?? null}, sealed_secret),
              previous_sealed_secret = case when ${rotates} then sealed_secret else previous_sealed_secret end,
              previous_secret_expires_at = case when ${rotates} then ${previousExpiresAt}::timestamptz
                                                else previous_secret_expires_at end,
              version = version + 1,
              updated_at = greatest(now(), updated_at)
            where id = ${id} and org_id = ${orgId}
            returning *`,
        )
        if (row === undefined) return yield* new ResourceNotFound()
        yield* outbox.append(tx, [webhookChanged(row, false)])
        return row
      }),
    )

  const forgetExpiredPreviousSecrets = (now: Date = new Date()) =>
    withTransaction((tx) =>
      Effect.gen(function* () {
        const outbox = yield* OutboxWriter
        const rows = yield* query(
          () => tx<Array<WebhookRow>>`
            update ${table(tx)}.webhooks set
              previous_sealed_secret = null, previous_secret_expires_at = null, version = version + 1
            where previous_secret_expires_at <= ${now}
            returning *`,
        )
        if (rows.length > 0)
          yield* outbox.append(
            tx,
            rows.map((row) => webhookChanged(row, false)),
          )
        return rows.length
      }),
    )

  const remove = (orgId: OrgId, id: string) =>
    withTransaction((tx) =>
      Effect.gen(function* () {
        const outbox = yield* OutboxWriter
        const [row] = yield* query(
          () => tx<Array<WebhookRow>>`
            delete from ${table(tx)}.webhooks where id = ${id} and org_id = ${orgId} returning *`,
        )
        if (row === undefined) return yield* new ResourceNotFound()
        // The last record of a deleted webhook: its state, one version on, marked deleted.
        yield* outbox.append(tx, [webhookChanged({ ...row, version: row.version + 1, updated_at: new Date() }, true)])
      }),
    )

  return { create, list, find, update, remove, forgetExpiredPreviousSecrets }
}

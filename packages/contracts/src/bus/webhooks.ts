import { Schema } from "effect"
import { EventName } from "../events.ts"
import { OrgId, WebhookId } from "../ids.ts"
import { IsoTimestamp, isoTimestamp } from "../values.ts"

/**
 * A webhook secret sealed with AES-256-GCM under `PARLEY_SECRET_KEY` (`v1.<iv>.<ct>.<tag>`,
 * base64url parts, as `SecretBox` in `@parley/platform` writes it). The pattern refuses a plaintext
 * secret, so one can never be published on the bus by mistake.
 */
export const SealedSecret = Schema.String.check(
  Schema.isPattern(/^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/u, {
    expected: "a sealed secret v1.<iv>.<ct>.<tag>",
  }),
).annotate({ identifier: "SealedSecret" })

/**
 * The key a webhook used before its latest rotation, which keeps signing `webhook-signature` beside
 * the new one until `expiresAt` (docs/contract.md §5: 24 hours), sealed like the current one.
 */
export const PreviousSecret = Schema.Struct({
  sealedSecret: SealedSecret,
  expiresAt: IsoTimestamp,
}).annotate({ identifier: "PreviousSecret" })
export type PreviousSecret = typeof PreviousSecret.Type

/**
 * `parley.registry.webhooks.v1` (key: webhookId, compacted): the whole state of a webhook after
 * every change; `deleted: true` is the last record of a deleted one. `version` grows by one on
 * every change, so a projection ignores a record older than the one it holds. `previousSecret` is
 * null (or absent, in records written before rotations kept one) outside a rotation's window; the
 * registry publishes the state again without it once the window ends, so compaction forgets it.
 */
export const WebhookChanged = Schema.Struct({
  webhookId: WebhookId,
  orgId: OrgId,
  url: Schema.String,
  events: Schema.Array(EventName),
  enabled: Schema.Boolean,
  sealedSecret: SealedSecret,
  previousSecret: Schema.optionalKey(Schema.NullOr(PreviousSecret)),
  deleted: Schema.Boolean,
  version: Schema.Int.check(Schema.isGreaterThanOrEqualTo(1)),
  changedAt: IsoTimestamp,
}).annotate({ identifier: "WebhookChanged" })
export type WebhookChanged = typeof WebhookChanged.Type

/**
 * A webhook's state as a database row, in the columns both the registry's `webhooks` table and the
 * dispatcher's projection of it store: the one codec between those rows and `WebhookChanged`.
 */
export interface WebhookStateRow {
  readonly org_id: OrgId
  readonly url: string
  readonly events: Array<EventName>
  readonly enabled: boolean
  readonly sealed_secret: string
  /** The key before the latest rotation, sealed, while its window lasts (else null, as its expiry). */
  readonly previous_sealed_secret: string | null
  readonly previous_secret_expires_at: Date | null
}

/** The columns of `WebhookStateRow`, for `select ${sql(webhookStateColumns)}`. */
export const webhookStateColumns = [
  "org_id",
  "url",
  "events",
  "enabled",
  "sealed_secret",
  "previous_sealed_secret",
  "previous_secret_expires_at",
] as const satisfies ReadonlyArray<keyof WebhookStateRow>

/** The change record of a webhook whose state is `row`: the whole state, its secrets still sealed. */
export const webhookChangedOf = (
  webhookId: WebhookId,
  row: WebhookStateRow,
  change: { readonly deleted: boolean; readonly version: number; readonly changedAt: Date },
): WebhookChanged => ({
  webhookId,
  orgId: row.org_id,
  url: row.url,
  events: row.events,
  enabled: row.enabled,
  sealedSecret: row.sealed_secret,
  previousSecret:
    row.previous_sealed_secret === null || row.previous_secret_expires_at === null
      ? null
      : { sealedSecret: row.previous_sealed_secret, expiresAt: isoTimestamp(row.previous_secret_expires_at) },
  deleted: change.deleted,
  version: change.version,
  changedAt: isoTimestamp(change.changedAt),
})

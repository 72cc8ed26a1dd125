import { Schema } from "effect"
import { EventName } from "../events.ts"
import { OrgId, WebhookId } from "../ids.ts"
import { IsoTimestamp } from "../values.ts"

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

/**
 * The `KeyChanged` record of a key: its state after a change, published on `parley.identity.keys.v1`
 * (keyed by key id, so a compacted topic keeps the latest). Gateways evict the key on every record.
 */
import type { OutgoingRecord } from "@parley/bus"
import { encodeBusValue, KeyChanged, Topics } from "@parley/contracts"
import type { ApiKey } from "../api-keys/api-key.ts"

export const keyChangedRecord = (key: ApiKey, digest: string, changedAt: Date): OutgoingRecord => ({
  topic: Topics.identityKeys,
  key: key.id,
  value: encodeBusValue(KeyChanged, {
    keyId: key.id,
    orgId: key.orgId,
    digest,
    prefix: key.prefix,
    scopes: key.scopes,
    allowedOrigins: key.allowedOrigins,
    revokedAt: key.revokedAt === null ? null : key.revokedAt.toISOString(),
    changedAt: changedAt.toISOString(),
  }),
})

import { Schema } from "effect"
import { KeyId, OrgId } from "../ids.ts"
import { Scope } from "../scopes.ts"
import { IsoTimestamp } from "../values.ts"

/**
 * `parley.identity.keys.v1` (key: keyId, compacted): the state of an API key after every change,
 * so that gateways can cache keys and drop revoked ones within a second. Never the key itself.
 */
export const KeyChanged = Schema.Struct({
  keyId: KeyId,
  orgId: OrgId,
  /** Lowercase hex SHA-256 of the full key, the gateway's lookup key. */
  digest: Schema.String.check(Schema.isPattern(/^[0-9a-f]{64}$/u, { expected: "a lowercase hex SHA-256 digest" })),
  prefix: Schema.String,
  scopes: Schema.Array(Scope),
  allowedOrigins: Schema.Array(Schema.String),
  revokedAt: Schema.NullOr(IsoTimestamp),
  changedAt: IsoTimestamp,
}).annotate({ identifier: "KeyChanged" })
export type KeyChanged = typeof KeyChanged.Type

/** `parley.identity.key-usage.v1` (key: keyId): a key authenticated a request at `usedAt`. */
export const KeyUsed = Schema.Struct({
  keyId: KeyId,
  orgId: OrgId,
  usedAt: IsoTimestamp,
}).annotate({ identifier: "KeyUsed" })
export type KeyUsed = typeof KeyUsed.Type

/** An API key as identity sees it, and its JSON form (docs/contract.md §4). */
import type { ApiKeyRecord, KeyId, OrgId, Scope } from "@parley/contracts"

export interface ApiKey {
  readonly id: KeyId
  readonly orgId: OrgId
  readonly name: string
  readonly prefix: string
  readonly scopes: ReadonlyArray<Scope>
  readonly allowedOrigins: ReadonlyArray<string>
  readonly createdAt: Date
  readonly lastUsedAt: Date | null
  readonly revokedAt: Date | null
}

const iso = (date: Date | null): string | null => (date === null ? null : date.toISOString())

/** Exactly the KeyRecord of docs/contract.md §4: never the secret nor its digest. */
export const keyRecordJson = (key: ApiKey): ApiKeyRecord => ({
  id: key.id,
  name: key.name,
  prefix: key.prefix,
  scopes: key.scopes,
  allowedOrigins: key.allowedOrigins,
  createdAt: key.createdAt.toISOString(),
  lastUsedAt: iso(key.lastUsedAt),
  revokedAt: iso(key.revokedAt),
})

/** The `identity.api_keys` table: digests of keys, never the keys. */
import type { KeyId, OrgId, Scope } from "@parley/contracts"
import { Effect } from "effect"
import type { Sql } from "../postgres/sql.ts"
import type { ApiKey } from "./api-key.ts"

interface ApiKeyRow {
  id: KeyId
  org_id: OrgId
  name: string
  prefix: string
  scopes: Array<Scope>
  allowed_origins: Array<string>
  created_at: Date
  last_used_at: Date | null
  revoked_at: Date | null
}

const COLUMNS = "id, org_id, name, prefix, scopes, allowed_origins, created_at, last_used_at, revoked_at"

const toApiKey = (row: ApiKeyRow): ApiKey => ({
  id: row.id,
  orgId: row.org_id,
  name: row.name,
  prefix: row.prefix,
  scopes: row.scopes,
  allowedOrigins: row.allowed_origins,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
  revokedAt: row.revoked_at,
})

const first = (rows: ReadonlyArray<ApiKeyRow>): ApiKey | undefined =>
  rows[0] === undefined ? undefined : toApiKey(rows[0])

export const insertApiKey = (
  sql: Sql,
  key: {
    id: KeyId
    orgId: OrgId
    name: string
    prefix: string
    digest: string
    scopes: ReadonlyArray<Scope>
    allowedOrigins: ReadonlyArray<string>
  },
): Effect.Effect<ApiKey> =>
  Effect.promise(
    () => sql<Array<ApiKeyRow>>`
      insert into identity.api_keys (id, org_id, name, prefix, digest, scopes, allowed_origins)
      values (${key.id}, ${key.orgId}, ${key.name}, ${key.prefix}, ${key.digest},
              ${sql.array([...key.scopes])}, ${sql.array([...key.allowedOrigins])})
      returning ${sql.unsafe(COLUMNS)}`,
  ).pipe(Effect.map((rows) => toApiKey(rows[0] as ApiKeyRow)))

export const countActiveApiKeys = (sql: Sql, orgId: OrgId): Effect.Effect<number> =>
  Effect.promise(
    () => sql<Array<{ n: number }>>`
      select count(*)::int as n from identity.api_keys where org_id = ${orgId} and revoked_at is null`,
  ).pipe(Effect.map((rows) => rows[0]?.n ?? 0))

export const listApiKeys = (sql: Sql, orgId: OrgId): Effect.Effect<ReadonlyArray<ApiKey>> =>
  Effect.promise(
    () => sql<Array<ApiKeyRow>>`
      select ${sql.unsafe(COLUMNS)} from identity.api_keys where org_id = ${orgId}
      order by created_at desc, id desc`,
  ).pipe(Effect.map((rows) => rows.map(toApiKey)))

export const findApiKey = (sql: Sql, orgId: OrgId, id: string): Effect.Effect<ApiKey | undefined> =>
  Effect.promise(
    () => sql<Array<ApiKeyRow>>`
      select ${sql.unsafe(COLUMNS)} from identity.api_keys where id = ${id} and org_id = ${orgId}`,
  ).pipe(Effect.map(first))

/**
 * Revokes a key of the organization; a key already revoked keeps its first revocation time.
 * `changed` says whether this call revoked it; `digest` is what the gateways cache it under.
 */
export const revokeApiKey = (
  sql: Sql,
  orgId: OrgId,
  id: string,
): Effect.Effect<{ key: ApiKey; digest: string; changed: boolean } | undefined> =>
  Effect.promise(
    () => sql<Array<ApiKeyRow & { digest: string; was_active: boolean }>>`
      update identity.api_keys k set revoked_at = coalesce(k.revoked_at, now())
      from identity.api_keys before
      where k.id = ${id} and k.org_id = ${orgId} and before.id = k.id
      returning k.id, k.org_id, k.name, k.prefix, k.scopes, k.allowed_origins, k.created_at, k.last_used_at,
                k.revoked_at, k.digest, before.revoked_at is null as was_active`,
  ).pipe(
    Effect.map((rows) => {
      const row = rows[0]
      return row === undefined ? undefined : { key: toApiKey(row), digest: row.digest, changed: row.was_active }
    }),
  )

/** The organization's active keys with their digests, to announce them again after a plan change. */
export const listActiveApiKeysWithDigest = (
  sql: Sql,
  orgId: OrgId,
): Effect.Effect<ReadonlyArray<{ key: ApiKey; digest: string }>> =>
  Effect.promise(
    () => sql<Array<ApiKeyRow & { digest: string }>>`
      select ${sql.unsafe(COLUMNS)}, digest from identity.api_keys
      where org_id = ${orgId} and revoked_at is null`,
  ).pipe(Effect.map((rows) => rows.map((row) => ({ key: toApiKey(row), digest: row.digest }))))

export interface KeyWithOrganization {
  readonly key: ApiKey
  readonly digest: string
  readonly orgFeatures: ReadonlyArray<string>
  readonly orgName: string
}

/** The key with that digest (revoked ones too, so the gateway can cache the refusal). */
export const findApiKeyByDigest = (sql: Sql, digest: string): Effect.Effect<KeyWithOrganization | undefined> =>
  Effect.promise(
    () => sql<Array<ApiKeyRow & { digest: string; org_features: Array<string>; org_name: string }>>`
      select k.id, k.org_id, k.name, k.prefix, k.scopes, k.allowed_origins, k.created_at, k.last_used_at,
             k.revoked_at, k.digest, o.features as org_features, o.name as org_name
      from identity.api_keys k join identity.organizations o on o.id = k.org_id
      where k.digest = ${digest}`,
  ).pipe(
    Effect.map((rows) => {
      const row = rows[0]
      return row === undefined
        ? undefined
        : { key: toApiKey(row), digest: row.digest, orgFeatures: row.org_features, orgName: row.org_name }
    }),
  )

/**
 * Moves `last_used_at` forward for many keys in one statement. `greatest` ignores nulls and never
 * moves the time back, so replays and out-of-order records change nothing (idempotent). A usage
 * naming another organization than the key's changes nothing either.
 */
export const recordKeyUsage = (
  sql: Sql,
  usages: ReadonlyArray<{ readonly keyId: string; readonly orgId: OrgId; readonly usedAt: Date }>,
): Effect.Effect<void> =>
  usages.length === 0
    ? Effect.void
    : Effect.promise(
        () => sql`
          update identity.api_keys k
          set last_used_at = greatest(k.last_used_at, u.used_at)
          from unnest(${sql.array(usages.map((u) => u.keyId))}::text[],
                      ${sql.array(usages.map((u) => u.orgId))}::text[],
                      ${sql.array(usages.map((u) => u.usedAt.toISOString()))}::timestamptz[]) as u(id, org_id, used_at)
          where k.id = u.id and k.org_id = u.org_id`,
      ).pipe(Effect.asVoid)

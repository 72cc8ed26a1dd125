/**
 * API keys of an organization (docs/contract.md §2.1, §4). Every creation and revocation appends a
 * `KeyChanged` record in the same transaction, which is how every gateway drops a revoked key from
 * its cache within a second. At most 10 active keys: creations of one organization are serialized
 * on its row lock, so concurrent creations at nine active keys let exactly one through.
 */
import { OutboxWriter } from "@parley/bus"
import { type CreateApiKeyRequest, KeyId, normalizeOrigin, type OrgId } from "@parley/contracts"
import { Database, withTransaction } from "@parley/db"
import { newId, sha256Hex } from "@parley/platform"
import { Clock, Context, Effect, Layer } from "effect"
import type postgres from "postgres"
import { keyChangedRecord } from "../bus/key-announcements.ts"
import { KeyLimitReached, PlanFeatureRequired, ResourceNotFound } from "../errors.ts"
import { lockOrganization } from "../organizations/organization-repository.ts"
import type { ApiKey } from "./api-key.ts"
import {
  countActiveApiKeys,
  findApiKey,
  findApiKeyByDigest,
  insertApiKey,
  type KeyWithOrganization,
  listApiKeys,
  revokeApiKey,
} from "./api-key-repository.ts"
import { mintApiKey } from "./api-key-secret.ts"

export const MAX_ACTIVE_KEYS = 10

export class ApiKeys extends Context.Service<
  ApiKeys,
  {
    /** The new key's record and its full value, which exists only in this answer. */
    readonly create: (
      orgId: OrgId,
      request: CreateApiKeyRequest,
    ) => Effect.Effect<{ record: ApiKey; key: string }, PlanFeatureRequired | KeyLimitReached | ResourceNotFound>
    readonly list: (orgId: OrgId) => Effect.Effect<ReadonlyArray<ApiKey>>
    readonly get: (orgId: OrgId, keyId: string) => Effect.Effect<ApiKey, ResourceNotFound>
    /** Soft revoke; revoking a revoked key changes nothing and answers the same record. */
    readonly revoke: (orgId: OrgId, keyId: string) => Effect.Effect<ApiKey, PlanFeatureRequired | ResourceNotFound>
    readonly lookup: (digest: string) => Effect.Effect<KeyWithOrganization, ResourceNotFound>
  }
>()("@parley/identity/ApiKeys") {
  static readonly layer = Layer.effect(
    ApiKeys,
    Effect.gen(function* () {
      const database = yield* Database
      const outbox = yield* OutboxWriter
      const { sql } = database

      const announce = (tx: postgres.TransactionSql, key: ApiKey, digest: string) =>
        Clock.currentTimeMillis.pipe(
          Effect.flatMap((now) => outbox.append(tx, [keyChangedRecord(key, digest, new Date(now))])),
        )

      /** Locks the organization and checks it may manage keys (the `api_access` plan feature). */
      const lockWithApiAccess = (tx: postgres.TransactionSql, orgId: OrgId) =>
        Effect.gen(function* () {
          const org = yield* lockOrganization(tx, orgId)
          if (org === undefined) return yield* new ResourceNotFound()
          if (!org.features.includes("api_access")) return yield* new PlanFeatureRequired({ feature: "api_access" })
          return org
        })

      const transaction = <A, E>(f: (tx: postgres.TransactionSql) => Effect.Effect<A, E>) =>
        withTransaction(f).pipe(Effect.provideService(Database, database))

      return ApiKeys.of({
        create: (orgId, request) =>
          transaction((tx) =>
            Effect.gen(function* () {
              yield* lockWithApiAccess(tx, orgId)
              if ((yield* countActiveApiKeys(tx, orgId)) >= MAX_ACTIVE_KEYS) return yield* new KeyLimitReached()
              const minted = mintApiKey()
              const digest = sha256Hex(minted.key)
              const record = yield* insertApiKey(tx, {
                id: KeyId.make(newId("key")),
                orgId,
                name: request.name,
                prefix: minted.prefix,
                digest,
                scopes: [...new Set(request.scopes ?? [])],
                allowedOrigins: [...new Set((request.allowedOrigins ?? []).map((o) => normalizeOrigin(o) ?? o))],
              })
              yield* announce(tx, record, digest)
              return { record, key: minted.key }
            }),
          ).pipe(Effect.withSpan("identity.createApiKey")),
        list: (orgId) => listApiKeys(sql, orgId),
        get: (orgId, keyId) =>
          findApiKey(sql, orgId, keyId).pipe(
            Effect.flatMap((key) => (key === undefined ? Effect.fail(new ResourceNotFound()) : Effect.succeed(key))),
          ),
        revoke: (orgId, keyId) =>
          transaction((tx) =>
            Effect.gen(function* () {
              yield* lockWithApiAccess(tx, orgId)
              const revoked = yield* revokeApiKey(tx, orgId, keyId)
              // Missing and another organization's key get the same answer.
              if (revoked === undefined) return yield* new ResourceNotFound()
              if (revoked.changed) yield* announce(tx, revoked.key, revoked.digest)
              return revoked.key
            }),
          ).pipe(Effect.withSpan("identity.revokeApiKey")),
        lookup: (digest) =>
          findApiKeyByDigest(sql, digest).pipe(
            Effect.flatMap((found) =>
              found === undefined ? Effect.fail(new ResourceNotFound()) : Effect.succeed(found),
            ),
          ),
      })
    }),
  )
}

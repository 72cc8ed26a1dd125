/**
 * API key management (CONTRACT.md §4). Administrators only; creating and revoking also need the
 * `api_access` plan feature, checked under the organization's lock together with the key limit.
 */
import { CreateApiKeyRequest, IdentityPathParams } from "@parley/contracts"
import { decodeBody, decodeParams, effectHandler, principalOf, requirePrincipal } from "@parley/platform"
import { Effect, type Redacted } from "effect"
import type { FastifyInstance } from "fastify"
import { keyRecordJson } from "../../domain/model.ts"
import { ApiKeys } from "../../services/api-keys.ts"
import { answering } from "../error-mapping.ts"
import { requireAdmin } from "../guards.ts"
import type { IdentityRuntime } from "../runtime.ts"

export const apiKeyRoutes =
  (runtime: IdentityRuntime, internalSecret: Redacted.Redacted<string>) =>
  async (app: FastifyInstance): Promise<void> => {
    app.addHook("onRequest", requirePrincipal(internalSecret))

    app.post(
      "/",
      effectHandler(runtime, (request, reply) =>
        Effect.gen(function* () {
          const principal = principalOf(request)
          yield* requireAdmin(principal)
          const body = yield* decodeBody(CreateApiKeyRequest)(request)
          const created = yield* ApiKeys.use((k) => k.create(principal.orgId, body))
          reply.code(201)
          return { ...keyRecordJson(created.record), key: created.key }
        }).pipe(answering),
      ),
    )

    app.get(
      "/",
      effectHandler(runtime, (request) =>
        Effect.gen(function* () {
          const principal = principalOf(request)
          yield* requireAdmin(principal)
          const keys = yield* ApiKeys.use((k) => k.list(principal.orgId))
          return { data: keys.map(keyRecordJson) }
        }).pipe(answering),
      ),
    )

    app.get(
      "/:id",
      effectHandler(runtime, (request) =>
        Effect.gen(function* () {
          const principal = principalOf(request)
          yield* requireAdmin(principal)
          const { id } = yield* decodeParams(IdentityPathParams)(request)
          return keyRecordJson(yield* ApiKeys.use((k) => k.get(principal.orgId, id)))
        }).pipe(answering),
      ),
    )

    app.delete(
      "/:id",
      effectHandler(runtime, (request) =>
        Effect.gen(function* () {
          const principal = principalOf(request)
          yield* requireAdmin(principal)
          const { id } = yield* decodeParams(IdentityPathParams)(request)
          return keyRecordJson(yield* ApiKeys.use((k) => k.revoke(principal.orgId, id)))
        }).pipe(answering),
      ),
    )
  }

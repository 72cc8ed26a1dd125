/**
 * API keys (docs/contract.md §4). Administrators only; creating and revoking also need the
 * `api_access` plan feature, checked under the organization's lock together with the key limit.
 */
import { Effect } from "effect"
import { keyRecordJson } from "../api-keys/api-key.ts"
import { ApiKeys } from "../api-keys/api-keys.ts"
import type { IdentityHandlers } from "./runtime.ts"

export const apiKeyHandlers = {
  createApiKey: ({ principal, body }) =>
    Effect.gen(function* () {
      const request = yield* body
      const created = yield* ApiKeys.use((k) => k.create(principal.orgId, request))
      return { ...keyRecordJson(created.record), key: created.key }
    }),

  listApiKeys: ({ principal }) =>
    ApiKeys.use((k) => k.list(principal.orgId)).pipe(Effect.map((keys) => ({ data: keys.map(keyRecordJson) }))),

  getApiKey: ({ principal, params }) =>
    ApiKeys.use((k) => k.get(principal.orgId, params.id)).pipe(Effect.map(keyRecordJson)),

  revokeApiKey: ({ principal, params }) =>
    ApiKeys.use((k) => k.revoke(principal.orgId, params.id)).pipe(Effect.map(keyRecordJson)),
} satisfies Partial<IdentityHandlers>

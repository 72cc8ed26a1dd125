/**
 * Lookups the gateway makes on every request it has not cached (docs/internal-apis.md). They act
 * for no tenant, so they take `x-parley-internal` instead of a principal. Callers send digests, never
 * a key or a session token.
 */
import { constantTimeEqual } from "@parley/platform"
import { Effect } from "effect"
import { Accounts } from "../accounts/accounts.ts"
import { ApiKeys } from "../api-keys/api-keys.ts"
import { ResourceNotFound } from "../errors.ts"
import type { IdentityHandlers } from "./runtime.ts"

export const internalHandlers = {
  lookupKey: ({ body }) =>
    Effect.gen(function* () {
      const { digest } = yield* body
      const found = yield* ApiKeys.use((k) => k.lookup(digest))
      // The index found it by equality already; the constant-time check is the contract's rule
      // that a key is never compared any other way.
      if (!constantTimeEqual(found.digest, digest)) return yield* new ResourceNotFound()
      return {
        keyId: found.key.id,
        orgId: found.key.orgId,
        prefix: found.key.prefix,
        scopes: found.key.scopes,
        allowedOrigins: found.key.allowedOrigins,
        revokedAt: found.key.revokedAt === null ? null : found.key.revokedAt.toISOString(),
        orgFeatures: found.orgFeatures,
        orgName: found.orgName,
      }
    }),

  lookupSession: ({ body }) =>
    Effect.gen(function* () {
      const { tokenDigest } = yield* body
      const session = yield* Accounts.use((a) => a.lookupSession(tokenDigest))
      return {
        sessionId: session.sessionId,
        userId: session.userId,
        orgId: session.orgId,
        role: session.role,
        expiresAt: session.expiresAt.toISOString(),
        orgName: session.orgName,
        email: session.email,
      }
    }),
} satisfies Partial<IdentityHandlers>

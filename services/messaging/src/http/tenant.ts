import { ErrorText } from "@parley/contracts"
import { type ApiError, forbidden, principalOf } from "@parley/platform"
import { Effect } from "effect"
import type { FastifyRequest } from "fastify"
import { apiErrorOf, type MessagingError } from "../errors.ts"

/**
 * The organization a private-API request acts for. CONTRACT.md §9: every messaging route needs an
 * administrator (a session's admin, or a non-widget key, which the gateway already presents as
 * admin); a member's session is refused.
 */
export const tenantOf = (request: FastifyRequest): Effect.Effect<string, ApiError> =>
  Effect.suspend(() => {
    const principal = principalOf(request)
    return principal.role === "admin"
      ? Effect.succeed(principal.orgId)
      : Effect.fail(forbidden("admin_required", ErrorText.adminRequired))
  })

/** Domain failures to the contract's errors, in one place. */
export const asApiErrors = <A, R>(
  effect: Effect.Effect<A, MessagingError | ApiError, R>,
): Effect.Effect<A, ApiError, R> =>
  Effect.mapError(effect, (error) => (error._tag === "ApiError" ? error : apiErrorOf(error)))

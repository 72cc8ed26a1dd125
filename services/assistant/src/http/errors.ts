import { ErrorText } from "@parley/contracts"
import { type ApiError, conflict, forbidden, invalidRequest, notFound, principalOf } from "@parley/platform"
import { Effect } from "effect"
import type { FastifyRequest } from "fastify"
import type { AssistantError } from "../errors.ts"

/** The one place the assistant's domain errors become CONTRACT.md's status, code and text. */
export const toApiError = (error: AssistantError): ApiError => {
  switch (error._tag) {
    case "ResourceNotFound":
      return notFound()
    case "InvalidCursor":
      return invalidRequest("cursor is not one this API issued", [{ path: "cursor", message: "is not valid" }])
    case "BookingRefused":
      return error.reason === "pastDate"
        ? invalidRequest("date is in the past", [{ path: "date", message: "is in the past" }])
        : conflict(error.detail)
  }
}

export const answering = <A, R>(
  effect: Effect.Effect<A, AssistantError | ApiError, R>,
): Effect.Effect<A, ApiError, R> =>
  Effect.mapError(effect, (error) => (error._tag === "ApiError" ? error : toApiError(error)))

/** The organization of a widget request (the gateway already checked the key's scope). */
export const widgetOrg = (request: FastifyRequest): Effect.Effect<string> =>
  Effect.sync(() => principalOf(request).orgId)

/**
 * The organization of a private-API request open to every member (a session of any role, or a
 * non-widget key: the gateway already refused widget-only keys on the private API).
 */
export const memberOrg = (request: FastifyRequest): Effect.Effect<string> =>
  Effect.sync(() => principalOf(request).orgId)

/** The organization's name as the gateway passed it, or `""` (CONTRACT.md §8's default business name). */
export const organizationNameOf = (request: FastifyRequest): string => principalOf(request).orgName ?? ""

/** The organization of a private-API request: an administrator (session) or a non-widget key. */
export const adminOrg = (request: FastifyRequest): Effect.Effect<string, ApiError> =>
  Effect.suspend(() => {
    const principal = principalOf(request)
    return principal.role === "admin"
      ? Effect.succeed(principal.orgId)
      : Effect.fail(forbidden("admin_required", ErrorText.adminRequired))
  })

/**
 * The operator API (docs/contract.md §2.5), for the platform itself. With PARLEY_OPERATOR_TOKEN unset
 * every route here answers 404 as if it did not exist; with it set, a missing or wrong bearer token
 * gets 401. The check runs on `onRequest`, before the body is even read.
 */
import { constantTimeEqual, sha256Hex } from "@parley/platform"
import { Effect, Redacted } from "effect"
import type { FastifyRequest } from "fastify"
import { InvalidOperatorToken, OperatorApiDisabled } from "../errors.ts"
import { memberJson } from "../members/member.ts"
import { organizationJson } from "../organizations/organization.ts"
import { Organizations } from "../organizations/organizations.ts"
import { toApiError } from "./errors.ts"
import type { IdentityHandlers } from "./runtime.ts"

const bearerOf = (request: FastifyRequest): string | undefined => {
  const header = request.headers.authorization
  const match = typeof header === "string" ? /^Bearer (\S+)$/i.exec(header) : null
  return match?.[1]
}

/** Compares digests, so neither the token's content nor its length shows in the timing. */
export const operatorCheck = (token: Redacted.Redacted<string> | undefined) => async (request: FastifyRequest) => {
  if (token === undefined) throw toApiError(new OperatorApiDisabled())
  const presented = bearerOf(request)
  if (presented === undefined || !constantTimeEqual(sha256Hex(presented), sha256Hex(Redacted.value(token)))) {
    throw toApiError(new InvalidOperatorToken())
  }
}

export const operatorHandlers = {
  createOrganization: ({ body }) =>
    Effect.gen(function* () {
      const request = yield* body
      const created = yield* Organizations.use((o) => o.create(request))
      return { organization: organizationJson(created.organization), admin: memberJson(created.admin) }
    }),

  updateOrganization: ({ body, params }) =>
    Effect.gen(function* () {
      const request = yield* body
      return organizationJson(yield* Organizations.use((o) => o.update(params.id, request)))
    }),

  getOrganization: ({ params }) => Organizations.use((o) => o.get(params.id)).pipe(Effect.map(organizationJson)),
} satisfies Partial<IdentityHandlers>

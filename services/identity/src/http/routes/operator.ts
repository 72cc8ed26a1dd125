/**
 * The operator API (CONTRACT.md §2.5), for the platform itself. With PARLEY_OPERATOR_TOKEN unset
 * every route here answers 404 as if it did not exist; with it set, a missing or wrong bearer token
 * gets 401. The check runs on `onRequest`, before the body is even read.
 */
import { CreateOrganizationRequest, IdentityPathParams, UpdateOrganizationRequest } from "@parley/contracts"
import { constantTimeEqual, decodeBody, decodeParams, effectHandler, sha256Hex } from "@parley/platform"
import { Effect, Redacted } from "effect"
import type { FastifyInstance, FastifyRequest } from "fastify"
import { memberJson, organizationJson } from "../../domain/model.ts"
import { InvalidOperatorToken, OperatorApiDisabled } from "../../errors.ts"
import { Organizations } from "../../services/organizations.ts"
import { answering, toApiError } from "../error-mapping.ts"
import type { IdentityRuntime } from "../runtime.ts"

const bearerOf = (request: FastifyRequest): string | undefined => {
  const header = request.headers.authorization
  const match = typeof header === "string" ? /^Bearer (\S+)$/i.exec(header) : null
  return match?.[1]
}

/** Compares digests, so neither the token's content nor its length shows in the timing. */
const operatorCheck = (token: Redacted.Redacted<string> | undefined) => async (request: FastifyRequest) => {
  if (token === undefined) throw toApiError(new OperatorApiDisabled())
  const presented = bearerOf(request)
  if (presented === undefined || !constantTimeEqual(sha256Hex(presented), sha256Hex(Redacted.value(token)))) {
    throw toApiError(new InvalidOperatorToken())
  }
}

export const operatorRoutes =
  (runtime: IdentityRuntime, token: Redacted.Redacted<string> | undefined) =>
  async (app: FastifyInstance): Promise<void> => {
    app.addHook("onRequest", operatorCheck(token))

    app.post(
      "/organizations",
      effectHandler(runtime, (request, reply) =>
        Effect.gen(function* () {
          const body = yield* decodeBody(CreateOrganizationRequest)(request)
          const created = yield* Organizations.use((o) => o.create(body))
          reply.code(201)
          return { organization: organizationJson(created.organization), admin: memberJson(created.admin) }
        }).pipe(answering),
      ),
    )

    app.patch(
      "/organizations/:id",
      effectHandler(runtime, (request) =>
        Effect.gen(function* () {
          const body = yield* decodeBody(UpdateOrganizationRequest)(request)
          const { id } = yield* decodeParams(IdentityPathParams)(request)
          return organizationJson(yield* Organizations.use((o) => o.update(id, body)))
        }).pipe(answering),
      ),
    )

    app.get(
      "/organizations/:id",
      effectHandler(runtime, (request) =>
        Effect.gen(function* () {
          const { id } = yield* decodeParams(IdentityPathParams)(request)
          return organizationJson(yield* Organizations.use((o) => o.get(id)))
        }).pipe(answering),
      ),
    )
  }

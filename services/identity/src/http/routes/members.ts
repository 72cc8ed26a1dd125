/** An organization's dashboard users (CONTRACT.md §2.4): list for anyone, add and remove for admins. */
import { CreateMemberRequest, IdentityPathParams } from "@parley/contracts"
import { decodeBody, decodeParams, effectHandler, principalOf, requirePrincipal } from "@parley/platform"
import { Effect, type Redacted } from "effect"
import type { FastifyInstance } from "fastify"
import { memberJson } from "../../domain/model.ts"
import { Members } from "../../services/members.ts"
import { answering } from "../error-mapping.ts"
import { requireAdmin } from "../guards.ts"
import type { IdentityRuntime } from "../runtime.ts"

export const memberRoutes =
  (runtime: IdentityRuntime, internalSecret: Redacted.Redacted<string>) =>
  async (app: FastifyInstance): Promise<void> => {
    app.addHook("onRequest", requirePrincipal(internalSecret))

    app.post(
      "/",
      effectHandler(runtime, (request, reply) =>
        Effect.gen(function* () {
          const principal = principalOf(request)
          yield* requireAdmin(principal)
          const body = yield* decodeBody(CreateMemberRequest)(request)
          const user = yield* Members.use((m) => m.add(principal.orgId, body))
          reply.code(201)
          return memberJson(user)
        }).pipe(answering),
      ),
    )

    app.get(
      "/",
      effectHandler(runtime, (request) =>
        Effect.gen(function* () {
          const users = yield* Members.use((m) => m.list(principalOf(request).orgId))
          return { data: users.map(memberJson) }
        }).pipe(answering),
      ),
    )

    app.delete(
      "/:id",
      effectHandler(runtime, (request, reply) =>
        Effect.gen(function* () {
          const principal = principalOf(request)
          yield* requireAdmin(principal)
          const { id } = yield* decodeParams(IdentityPathParams)(request)
          yield* Members.use((m) => m.remove(principal, id))
          return reply.code(204).send()
        }).pipe(answering),
      ),
    )
  }

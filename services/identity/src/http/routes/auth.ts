/**
 * Dashboard sessions (CONTRACT.md §2.4). Login carries no principal (it is how one is obtained);
 * logout and me carry the gateway's principal, and logout also the Cookie header so the very
 * session presented is deleted server-side.
 */
import { LoginRequest } from "@parley/contracts"
import { decodeBody, effectHandler, principalOf, requirePrincipal } from "@parley/platform"
import { Effect, type Redacted } from "effect"
import type { FastifyInstance } from "fastify"
import { memberJson } from "../../domain/model.ts"
import { clearedSessionCookie, sessionCookie, sessionTokenFromCookie } from "../../domain/session-token.ts"
import { Accounts } from "../../services/accounts.ts"
import { answering } from "../error-mapping.ts"
import { requireUser } from "../guards.ts"
import type { IdentityRuntime } from "../runtime.ts"

export interface AuthRouteOptions {
  readonly internalSecret: Redacted.Redacted<string>
  /** Cookies get `Secure` when the public URL is https. */
  readonly secureCookies: boolean
}

const currentUserJson = (user: Parameters<typeof memberJson>[0], organization: { id: string; name: string }) => ({
  user: memberJson(user),
  organization: { id: organization.id, name: organization.name },
})

export const authRoutes =
  (runtime: IdentityRuntime, options: AuthRouteOptions) =>
  async (app: FastifyInstance): Promise<void> => {
    app.post(
      "/login",
      effectHandler(runtime, (request, reply) =>
        Effect.gen(function* () {
          const body = yield* decodeBody(LoginRequest)(request)
          const signedIn = yield* Accounts.use((a) => a.login(body.email, body.password))
          reply.header("set-cookie", sessionCookie(signedIn.token, options.secureCookies))
          return currentUserJson(signedIn.user, signedIn.organization)
        }).pipe(answering),
      ),
    )

    const withPrincipal = { onRequest: requirePrincipal(options.internalSecret) }

    app.post(
      "/logout",
      withPrincipal,
      effectHandler(runtime, (request, reply) =>
        Effect.gen(function* () {
          const userId = yield* requireUser(principalOf(request))
          yield* Accounts.use((a) => a.logout(userId, sessionTokenFromCookie(request.headers.cookie)))
          reply.header("set-cookie", clearedSessionCookie(options.secureCookies))
          return reply.code(204).send()
        }).pipe(answering),
      ),
    )

    app.get(
      "/me",
      withPrincipal,
      effectHandler(runtime, (request) =>
        Effect.gen(function* () {
          const principal = principalOf(request)
          const userId = yield* requireUser(principal)
          const { user, organization } = yield* Accounts.use((a) => a.current(principal.orgId, userId))
          return currentUserJson(user, organization)
        }).pipe(answering),
      ),
    )
  }

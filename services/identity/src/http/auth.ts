/**
 * Dashboard sessions (docs/contract.md §2.4). Login carries no principal (it is how one is obtained);
 * logout and me carry the gateway's principal, and logout also the Cookie header so the very
 * session presented is deleted server-side.
 */
import { Effect } from "effect"
import { Accounts } from "../accounts/accounts.ts"
import { deviceCookie, deviceTokenFromCookie } from "../accounts/login-throttle.ts"
import { memberJson } from "../members/member.ts"
import { clearedSessionCookie, sessionCookie, sessionTokenFromCookie } from "../sessions/session-token.ts"
import { requireUser } from "./guards.ts"
import type { IdentityHandlers } from "./runtime.ts"

export interface AuthRouteOptions {
  /** Cookies get `Secure` when the public URL is https. */
  readonly secureCookies: boolean
}

const currentUserJson = (user: Parameters<typeof memberJson>[0], organization: { id: string; name: string }) => ({
  user: memberJson(user),
  organization: { id: organization.id, name: organization.name },
})

export const authHandlers = (options: AuthRouteOptions) =>
  ({
    login: ({ body, request, reply }) =>
      Effect.gen(function* () {
        const { email, password, organizationId } = yield* body
        const presented = deviceTokenFromCookie(request.headers.cookie)
        const signedIn = yield* Accounts.use((a) => a.login(email, password, presented, organizationId))
        reply.header("set-cookie", [
          sessionCookie(signedIn.token, options.secureCookies),
          deviceCookie(signedIn.deviceToken, options.secureCookies),
        ])
        return currentUserJson(signedIn.user, signedIn.organization)
      }),

    logout: ({ principal, request, reply }) =>
      Effect.gen(function* () {
        const userId = yield* requireUser(principal)
        yield* Accounts.use((a) => a.logout(userId, sessionTokenFromCookie(request.headers.cookie)))
        reply.header("set-cookie", clearedSessionCookie(options.secureCookies))
      }),

    changePassword: ({ principal, body, request }) =>
      Effect.gen(function* () {
        const userId = yield* requireUser(principal)
        const change = yield* body
        yield* Accounts.use((a) =>
          a.changePassword(principal.orgId, userId, change, sessionTokenFromCookie(request.headers.cookie)),
        )
      }),

    currentUser: ({ principal }) =>
      Effect.gen(function* () {
        const userId = yield* requireUser(principal)
        const { user, organization } = yield* Accounts.use((a) => a.current(principal.orgId, userId))
        return currentUserJson(user, organization)
      }),
  }) satisfies Partial<IdentityHandlers>

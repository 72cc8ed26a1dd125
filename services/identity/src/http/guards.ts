/** Who may call what: the decisions identity takes from the gateway's signed principal. */
import { Effect } from "effect"
import type { FastifyRequest } from "fastify"
import { AdminRequired, SessionRequired } from "../errors.ts"

/** The verified principal, as `@parley/platform` hands it to a route. */
export type Principal = NonNullable<FastifyRequest["principal"]>

/** Administrator routes: a member's session is refused (a key acting for the org comes as admin). */
export const requireAdmin = (principal: Principal): Effect.Effect<void, AdminRequired> =>
  principal.role === "admin" ? Effect.void : Effect.fail(new AdminRequired())

/** Routes about the signed-in person: only a dashboard session has one. */
export const requireUser = (principal: Principal): Effect.Effect<string, SessionRequired> =>
  principal.actor.type === "user" ? Effect.succeed(principal.actor.userId) : Effect.fail(new SessionRequired())

/** Who may call what, beyond the declared access `serveRoutes` enforces: routes about a signed-in person. */
import type { Principal } from "@parley/contracts"
import { Effect } from "effect"
import { SessionRequired } from "../errors.ts"

/** Routes about the signed-in person: only a dashboard session has one. */
export const requireUser = (principal: Principal): Effect.Effect<string, SessionRequired> =>
  principal.actor.type === "user" ? Effect.succeed(principal.actor.userId) : Effect.fail(new SessionRequired())

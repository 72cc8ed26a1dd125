/**
 * Who may call what, from the contract (`generated/access.ts`, each operation's `access`): the
 * console hides from a member what only an administrator may read or do, and a screen names the
 * operations it needs so that the compiler refuses one the contract does not have.
 */
import { type RouteKey, routeAccess } from "./generated/access.ts"

export type { RouteKey }
export type Role = "admin" | "member"

/** Whether a session of `role` may call `route` (the API decides; this only avoids a sure refusal). */
export const allows = (role: Role, route: RouteKey): boolean => {
  const access: string = routeAccess[route]
  if (access === "member" || access === "session") return true
  return role === "admin" && (access === "admin" || access === "adminWithApiAccess")
}

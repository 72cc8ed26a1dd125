/**
 * The ways a client can write one route's path that a router might, or might not, read as that
 * route: what the gateway's gates are tested against, for every declared route
 * (`allServiceRoutes`), so that a new route is covered the day it is declared. Each spelling says
 * whether the services' router (Fastify's find-my-way, under its defaults) serves it as the route:
 * then it must meet the route's gates; otherwise it must be a 404 — never served without them.
 */
import type { RouteDeclaration } from "@parley/contracts"

export interface RouteSpelling {
  /** What the spelling is, for a failure message. */
  readonly label: string
  readonly method: string
  /** The path to request (no query). */
  readonly path: string
  /** Whether the services' router serves it as the route (else: 404). */
  readonly routes: boolean
}

/** A declared path with each `:param` filled (`x_1` unless told). */
export const filledPath = (path: string, value = "x_1"): string => path.replace(/:[^/]+/g, value)

const hex = (char: string): string => `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`

/**
 * Every spelling of one declared route: as declared; with unreserved characters percent-encoded
 * (one, and a whole segment); an encoded slash; a trailing and a doubled slash; a letter's case
 * changed; `HEAD` of a `GET` route; `OPTIONS`. Parameters are filled with `param`.
 */
export const spellingsOf = (route: Pick<RouteDeclaration, "method" | "path">, param = "x_1"): Array<RouteSpelling> => {
  const segments = filledPath(route.path, param).slice(1).split("/")
  const literal = route.path.slice(1).split("/")
  // The last literal segment: the one that tells this route from its neighbours.
  const at = literal.findLastIndex((segment) => !segment.startsWith(":"))
  const last = segments[at] ?? ""
  const join = (parts: ReadonlyArray<string>) => `/${parts.join("/")}`
  const replaced = (segment: string) => join(segments.map((s, i) => (i === at ? segment : s)))
  const canonical = join(segments)
  const spellings: Array<RouteSpelling> = [
    { label: "as declared", method: route.method, path: canonical, routes: true },
    {
      label: "an unreserved character percent-encoded",
      method: route.method,
      path: replaced(`${last.slice(0, -1)}${hex(last.at(-1) ?? "")}`),
      routes: true,
    },
    {
      label: "a whole segment percent-encoded",
      method: route.method,
      path: replaced([...last].map(hex).join("")),
      routes: true,
    },
    {
      label: "lower-case hex escapes",
      method: route.method,
      path: replaced([...last].map((c) => hex(c).toLowerCase()).join("")),
      routes: true,
    },
    {
      label: "an encoded slash",
      method: route.method,
      path:
        at === 0
          ? `/${last}%2F${segments.slice(1).join("/")}`
          : `${join(segments.slice(0, at))}%2F${segments.slice(at).join("/")}`,
      routes: false,
    },
    { label: "a trailing slash", method: route.method, path: `${canonical}/`, routes: false },
    {
      label: "a doubled slash",
      method: route.method,
      path: `${join(segments.slice(0, at))}//${segments.slice(at).join("/")}`,
      routes: false,
    },
    {
      label: "a letter's case changed",
      method: route.method,
      path: replaced(last.replace(/[a-z]/, (c) => c.toUpperCase())),
      routes: false,
    },
    { label: "OPTIONS", method: "OPTIONS", path: canonical, routes: false },
  ]
  if (route.method === "GET") spellings.push({ label: "HEAD", method: "HEAD", path: canonical, routes: true })
  return spellings
}

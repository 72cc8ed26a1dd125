/**
 * Which declared route serves a request — its owning service, the surface it belongs to (that
 * decides how a caller authenticates), its scope, heavy flag, body kind and limit — compiled once,
 * when the gateway starts, from the route declarations in `@parley/contracts`
 * (`packages/contracts/src/api/routes/`). Nothing about a route is written here.
 *
 * One path, one gate (docs/design.md §2): the gateway decides on the route the service will serve, so
 * it reads the path as the services' router (Fastify's find-my-way) does — percent-escapes of
 * anything but a reserved character decoded (`routingPath`), case-sensitive, no trailing or doubled
 * slash ignored, `HEAD` served by the `GET` route — and answers a JSON 404 for anything that is not a
 * declared route: there is no fallback to a service's mount. It forwards the route's canonical path
 * (`canonicalPath`: the declared literal segments, the parameters as sent), so the service cannot
 * route the request anywhere else.
 *
 * The matcher runs on every request, so it is plain code that allocates nothing for a path as
 * clients write it: a map per method for the paths without parameters, then the parameterised
 * paths of that method segment by segment.
 */
import {
  allServiceRoutes,
  isProviderAccess,
  JSON_BODY_LIMIT,
  type RouteAccess,
  type RouteDeclaration,
  type Scope,
  type ServiceName,
  type ServiceRoutes,
  underPrefix,
} from "@parley/contracts"

export type { ServiceName } from "@parley/contracts"

/**
 * - `public`: `/api/public/*`, the widget surface: a key in any of the four forms, scopes checked.
 * - `private`: the rest of `/api/*`: `X-API-Key` or a session cookie.
 * - `auth`: `/api/auth/*`: identity reads the session cookie itself (login, logout, me).
 * - `operator`: `/api/operator/*`: identity checks the operator bearer token itself.
 * - `channels`: `/channels/*`: providers sign their payloads; neither authenticated nor counted.
 */
export type Surface = "public" | "private" | "auth" | "operator" | "channels"

/**
 * How the body travels: `json` is read whole (within the limit), checked and forwarded; `media` and
 * `csv` are streamed with a byte budget (a NUL byte refuses a CSV); `raw` (provider callbacks) is
 * streamed untouched, whatever its type, because the provider's signature covers the exact bytes.
 */
export type BodyKind = "json" | "media" | "csv" | "raw"

export interface Route {
  readonly service: ServiceName
  readonly surface: Surface
  readonly body: BodyKind
  readonly bodyLimit: number
  /** Counts against the heavy limit as well as the general one (docs/contract.md §3). */
  readonly heavy: boolean
  /** The scope a key needs on `/api/public/*`; `undefined` elsewhere. */
  readonly scope: Scope | undefined
  /** The content types a `media` or `csv` body may have; `undefined` for `json` and `raw`. */
  readonly mediaTypes: RegExp | undefined
  /**
   * The answer is a stream that stays open (server-sent events, `GET /api/conversations/events`):
   * forwarded over connections of its own, so open streams never hold the pool other calls wait on.
   */
  readonly stream?: true
  /** The declared path's segments after the leading `/`, `undefined` for a `:param`. */
  readonly pattern: Pattern
}

/** The surface a route's access puts it on; `undefined` for internal routes, which the gateway never serves. */
export const surfaceOf = (access: RouteAccess): Surface | undefined => {
  switch (access) {
    case "public":
      return "public"
    case "anonymous":
    case "session":
      return "auth"
    case "operator":
      return "operator"
    case "cloudProvider":
    case "bridge":
      return "channels"
    case "member":
    case "admin":
    case "adminWithApiAccess":
      return "private"
    case "internal":
      return undefined
  }
}

/** `image/*` → any `image/<subtype>`; anything else exactly (compared lower-case, parameters stripped). */
const mediaTypesPattern = (types: ReadonlyArray<string>): RegExp =>
  new RegExp(
    `^(?:${types
      .map((type) =>
        type.endsWith("/*") ? `${escapeRegExp(type.slice(0, -1))}[a-z0-9!#$&^_.+-]+` : escapeRegExp(type.toLowerCase()),
      )
      .join("|")})$`,
  )

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")

const declaredRoute = (service: ServiceName, surface: Surface, declared: RouteDeclaration): Route => {
  const body = declared.body
  let kind: BodyKind = "json"
  if (isProviderAccess(declared.access) || body?.kind === "signedJson") kind = "raw"
  else if (body?.kind === "media" || body?.kind === "csv") kind = body.kind
  return {
    service,
    surface,
    body: kind,
    bodyLimit: body?.limit ?? JSON_BODY_LIMIT,
    heavy: declared.heavy ?? false,
    scope: declared.scope,
    mediaTypes: body !== undefined && "mediaTypes" in body ? mediaTypesPattern(body.mediaTypes) : undefined,
    ...(answersEventStream(declared) ? { stream: true as const } : {}),
    pattern: patternOf(declared.path),
  }
}

const answersEventStream = (declared: RouteDeclaration): boolean =>
  Object.values(declared.responses).some((reply) => reply.content?.["text/event-stream"] !== undefined)

/** A path's segments after the leading `/`; `undefined` stands for a `:param`. */
export type Pattern = ReadonlyArray<string | undefined>

const patternOf = (path: string): Pattern =>
  path
    .slice(1)
    .split("/")
    .map((segment) => (segment.startsWith(":") ? undefined : segment))

/** Whether `path` has exactly the pattern's segments, a parameter being any non-empty segment. */
const matches = (pattern: Pattern, path: string): boolean => {
  let at = 1
  for (const segment of pattern) {
    if (at > path.length) return false
    let end = path.indexOf("/", at)
    if (end < 0) end = path.length
    if (segment === undefined) {
      if (end === at) return false
    } else if (end - at !== segment.length || !path.startsWith(segment, at)) {
      return false
    }
    at = end + 1
  }
  return at === path.length + 1
}

/** Whether some path matches both patterns (same length, and no two literal segments differ). */
const overlap = (a: Pattern, b: Pattern): boolean =>
  a.length === b.length && a.every((segment, i) => segment === undefined || b[i] === undefined || segment === b[i])

export interface RouteTable {
  /**
   * The declared route that serves `method` on `path` — the path as the services' router reads it
   * (`routingPath`), without the query — or `undefined`: no such route (a 404). `HEAD` is served
   * by the `GET` route, as Fastify serves it; `OPTIONS` by none (see `preflightRouteOf`).
   */
  readonly routeOf: (method: string, path: string) => Route | undefined
  /** A route of any method at `path`: what a CORS preflight asks about. */
  readonly preflightRouteOf: (path: string) => Route | undefined
}

/** The methods routes are declared with (`HEAD` is `GET`'s, `OPTIONS` is never forwarded). */
const DECLARED_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const

/**
 * Compiles the declarations into the matcher. Throws when two services claim one prefix, when the
 * routes under one mount would be authenticated on different surfaces, or when two parameterised
 * routes of one method could match the same path (the services' router would choose between them
 * by its own priorities, which the gateway would then have to copy).
 */
export const compileRouteTable = (
  services: ReadonlyArray<ServiceRoutes<Record<string, RouteDeclaration>, ServiceName>>,
): RouteTable => {
  const exact = new Map<string, Map<string, Route>>()
  const parameterised = new Map<string, Array<Route>>()
  const mounts: Array<{ readonly prefix: string; readonly service: ServiceName }> = []

  for (const { service, mounts: prefixes, routes } of services) {
    const declared = Object.values(routes)
    for (const prefix of prefixes) {
      const surfaces = new Set(
        declared.filter((route) => underPrefix(route.path, prefix)).map((route) => surfaceOf(route.access)),
      )
      if (surfaces.size !== 1) {
        throw new Error(`${service} mount ${prefix}: its routes must share one surface (${[...surfaces].join(", ")})`)
      }
      const [surface] = surfaces
      if (surface === undefined) continue
      const owner = mounts.find((mount) => underPrefix(prefix, mount.prefix) || underPrefix(mount.prefix, prefix))
      if (owner !== undefined) throw new Error(`${prefix} (${service}) overlaps ${owner.prefix} (${owner.service})`)
      mounts.push({ prefix, service })
    }
    for (const route of declared) {
      const surface = surfaceOf(route.access)
      if (surface === undefined) continue
      const compiled = declaredRoute(service, surface, route)
      if (route.path.includes("/:")) {
        const list = parameterised.get(route.method) ?? []
        const clash = list.find((other) => overlap(other.pattern, compiled.pattern))
        if (clash !== undefined) {
          throw new Error(
            `${route.method} ${route.path} (${service}) and /${clash.pattern.map((s) => s ?? ":param").join("/")} ` +
              `(${clash.service}) can match the same path`,
          )
        }
        list.push(compiled)
        parameterised.set(route.method, list)
      } else {
        const byPath = exact.get(route.method) ?? new Map<string, Route>()
        byPath.set(route.path, compiled)
        exact.set(route.method, byPath)
      }
    }
  }

  const routeOf = (method: string, path: string): Route | undefined => {
    const declaredMethod = method === "HEAD" ? "GET" : method
    const found = exact.get(declaredMethod)?.get(path)
    if (found !== undefined) return found
    const candidates = parameterised.get(declaredMethod)
    if (candidates !== undefined) {
      for (const candidate of candidates) if (matches(candidate.pattern, path)) return candidate
    }
    return undefined
  }

  return {
    routeOf,
    preflightRouteOf: (path) => {
      for (const method of DECLARED_METHODS) {
        const found = routeOf(method, path)
        if (found !== undefined) return found
      }
      return undefined
    },
  }
}

/** Parley's routes, as declared in `@parley/contracts`. */
export const routeTable: RouteTable = compileRouteTable(allServiceRoutes)

/** The route for `method` and `path` (as `routingPath` reads it, without the query), or `undefined`. */
export const routeOf = routeTable.routeOf

/** A route of any method at `path` (as `routingPath` reads it), or `undefined`. */
export const preflightRouteOf = routeTable.preflightRouteOf

/**
 * The path as the services' router (find-my-way, under Fastify's defaults) routes it: every
 * percent-escape decoded as `decodeURI` does — except the reserved characters (`/`, `?`, `#`, `%`,
 * …), which stay escaped and so never split or end a segment. `undefined` for a path that router
 * would read otherwise or refuse: a `#` (find-my-way ends the path there; no HTTP client sends a
 * fragment) or a malformed escape. A path without `%` is returned as it is: the common case costs
 * one scan and no allocation.
 */
export const routingPath = (path: string): string | undefined => {
  if (path.includes("#")) return undefined
  if (!path.includes("%")) return path
  try {
    // find-my-way keeps `%25` as sent by escaping it once more before `decodeURI`.
    return decodeURI(path.replaceAll("%25", "%2525"))
  } catch {
    return undefined
  }
}

/**
 * The path the gateway forwards for `route`, given the path as the client sent it: the declared
 * literal segments, and each parameter's segment exactly as sent (the service decodes it into the
 * parameter's value). `sent` itself when it needed no decoding.
 */
export const canonicalPath = (route: Route, sent: string, routed: string): string => {
  if (sent === routed) return sent
  const segments = sent.slice(1).split("/")
  return `/${route.pattern.map((literal, i) => literal ?? segments[i]).join("/")}`
}

/**
 * A path with a dot segment (`/api/public/../org/api-keys`, also percent-encoded) could be read
 * differently here and by the service behind; such paths are refused rather than normalised.
 */
export const hasDotSegment = (path: string): boolean =>
  path.split("/").some((segment) => {
    if (!segment.includes(".") && !segment.includes("%")) return false
    let decoded = segment
    try {
      decoded = decodeURIComponent(segment)
    } catch {
      return true
    }
    return decoded === "." || decoded === ".." || decoded.includes("/") || decoded.includes("\\")
  })

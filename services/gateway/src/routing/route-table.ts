/**
 * Which service owns a path, which surface it belongs to (that decides how a caller authenticates),
 * and what a route's body and rate-limit rules are — compiled once, when the gateway starts, from
 * the route declarations in `@parley/contracts` (`packages/contracts/src/api/routes/`). Nothing
 * about a route is written here: its owner, access, scope, heavy flag and body limit are its
 * declaration's. Everything outside the services' mounts is a JSON 404 at the edge.
 *
 * The matcher runs on every request, so it is plain code that allocates nothing: a map per method
 * for the paths without parameters, then the parameterised paths of that method segment by
 * segment, then the mounts (an undeclared path under a service's mount is forwarded, authenticated
 * as that mount's routes are, and answered by the service: a JSON 404).
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
  /** Counts against the heavy limit as well as the general one (CONTRACT.md §3). */
  readonly heavy: boolean
  /** The scope a key needs on `/api/public/*`; `undefined` elsewhere or on an undeclared public path. */
  readonly scope: Scope | undefined
  /** The content types a `media` or `csv` body may have; `undefined` for `json` and `raw`. */
  readonly mediaTypes: RegExp | undefined
  /**
   * The answer is a stream that stays open (server-sent events, `GET /api/conversations/events`):
   * forwarded over connections of its own, so open streams never hold the pool other calls wait on.
   */
  readonly stream?: true
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
  }
}

const answersEventStream = (declared: RouteDeclaration): boolean =>
  Object.values(declared.responses).some((reply) => reply.content?.["text/event-stream"] !== undefined)

/** A path's segments after the leading `/`; `undefined` stands for a `:param`. */
type Pattern = ReadonlyArray<string | undefined>

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

export interface RouteTable {
  /** The route for `method` and `path` (without the query), or `undefined` for a path no service owns. */
  readonly routeOf: (method: string, path: string) => Route | undefined
}

/**
 * Compiles the declarations into the matcher. Throws when two services claim one prefix, or when
 * the routes under one mount would be authenticated on different surfaces.
 */
export const compileRouteTable = (
  services: ReadonlyArray<ServiceRoutes<Record<string, RouteDeclaration>, ServiceName>>,
): RouteTable => {
  const exact = new Map<string, Map<string, Route>>()
  const parameterised = new Map<string, Array<{ readonly pattern: Pattern; readonly route: Route }>>()
  const mounts: Array<{ readonly prefix: string; readonly route: Route }> = []

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
      if (owner !== undefined)
        throw new Error(`${prefix} (${service}) overlaps ${owner.prefix} (${owner.route.service})`)
      mounts.push({
        prefix,
        route: {
          service,
          surface,
          body: surface === "channels" ? "raw" : "json",
          bodyLimit: JSON_BODY_LIMIT,
          heavy: false,
          scope: undefined,
          mediaTypes: undefined,
        },
      })
    }
    for (const route of declared) {
      const surface = surfaceOf(route.access)
      if (surface === undefined) continue
      const compiled = declaredRoute(service, surface, route)
      if (route.path.includes("/:")) {
        const list = parameterised.get(route.method) ?? []
        list.push({ pattern: patternOf(route.path), route: compiled })
        parameterised.set(route.method, list)
      } else {
        const byPath = exact.get(route.method) ?? new Map<string, Route>()
        byPath.set(route.path, compiled)
        exact.set(route.method, byPath)
      }
    }
  }

  return {
    routeOf: (method, path) => {
      const found = exact.get(method)?.get(path)
      if (found !== undefined) return found
      const candidates = parameterised.get(method)
      if (candidates !== undefined) {
        for (const candidate of candidates) if (matches(candidate.pattern, path)) return candidate.route
      }
      for (const mount of mounts) if (underPrefix(path, mount.prefix)) return mount.route
      return undefined
    },
  }
}

/** Parley's routes, as declared in `@parley/contracts`. */
export const routeTable: RouteTable = compileRouteTable(allServiceRoutes)

/** The route for `method` and `path` (without the query), or `undefined` for an unknown path. */
export const routeOf = routeTable.routeOf

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

/**
 * Which service owns a path, which surface it belongs to (that decides how a caller authenticates),
 * and what a route's body and rate-limit rules are. The table is docs/internal-apis.md's
 * "Gateway route table"; everything not in it is a JSON 404 at the edge.
 */
import type { Scope } from "@parley/contracts"

export type ServiceName = "identity" | "webhookRegistry" | "assistant" | "messaging"

/**
 * - `public`: `/api/public/*`, the widget surface: a key in any of the four forms, scopes checked.
 * - `private`: the rest of `/api/*`: `X-API-Key` or a session cookie.
 * - `auth`: `/api/auth/*`: identity reads the session cookie itself (login, logout, me).
 * - `operator`: `/api/operator/*`: identity checks the operator bearer token itself.
 * - `channels`: `/channels/*`: providers sign their payloads; neither authenticated nor counted.
 */
export type Surface = "public" | "private" | "auth" | "operator" | "channels"

/**
 * How the body travels: `json` is read whole (≤ 1 MiB), checked and forwarded; `media` and `csv`
 * are streamed with a byte budget; `raw` (provider callbacks) is streamed untouched, whatever its
 * type, because the provider's signature covers the exact bytes.
 */
export type BodyKind = "json" | "media" | "csv" | "raw"

export interface Route {
  readonly service: ServiceName
  readonly surface: Surface
  readonly body: BodyKind
  readonly bodyLimit: number
  /** Counts against the heavy limit as well as the general one (CONTRACT.md §3). */
  readonly heavy: boolean
  /** The scope a key needs on `/api/public/*`; `undefined` elsewhere or on an unlisted public path. */
  readonly scope: Scope | undefined
}

export const MiB = 1024 * 1024
export const JSON_BODY_LIMIT = MiB
export const MEDIA_BODY_LIMIT = 16 * MiB
export const IMPORT_BODY_LIMIT = 10 * MiB
/**
 * CONTRACT.md §9 lets a campaign name up to 100,000 recipients, which does not fit §1's 1 MiB JSON
 * limit (≈ 2.8 MB written as "+1 (415) 555-0100"); this route alone gets room for that.
 */
export const CAMPAIGN_BODY_LIMIT = 4 * MiB

const PREFIXES: ReadonlyArray<readonly [string, ServiceName]> = [
  ["/api/operator", "identity"],
  ["/api/auth", "identity"],
  ["/api/org/members", "identity"],
  ["/api/org/api-keys", "identity"],
  ["/api/org/webhooks", "webhookRegistry"],
  ["/api/org/webhook-events", "webhookRegistry"],
  ["/api/public", "assistant"],
  ["/api/leads", "assistant"],
  ["/api/bookings", "assistant"],
  ["/api/assistant", "assistant"],
  ["/api/channels", "messaging"],
  ["/api/messages", "messaging"],
  ["/api/templates", "messaging"],
  ["/api/campaigns", "messaging"],
  ["/api/contacts", "messaging"],
  ["/api/media", "messaging"],
  ["/channels", "messaging"],
]

const underPrefix = (path: string, prefix: string): boolean =>
  path === prefix || (path.startsWith(prefix) && path.charCodeAt(prefix.length) === 47) /* "/" */

const surfaceOf = (prefix: string): Surface => {
  switch (prefix) {
    case "/api/public":
      return "public"
    case "/api/auth":
      return "auth"
    case "/api/operator":
      return "operator"
    case "/channels":
      return "channels"
    default:
      return "private"
  }
}

/** The scope each widget route needs (CONTRACT.md §8). */
const publicScopeOf = (method: string, path: string): Scope | undefined => {
  if (method === "POST" && (path === "/api/public/chat" || path === "/api/public/chat/reset")) return "chat:write"
  if (method === "GET" && /^\/api\/public\/chat\/[^/]+$/.test(path)) return "chat:read"
  if (method === "GET" && path === "/api/public/bookings/slots") return "bookings:read"
  if (method === "POST" && path === "/api/public/bookings") return "bookings:write"
  return undefined
}

const isHeavy = (method: string, path: string): boolean =>
  (method === "POST" && (path === "/api/media" || path === "/api/contacts/import")) ||
  (method === "GET" && path === "/api/leads/export")

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

/** The route for `method` and `path` (without the query), or `undefined` for an unknown path. */
export const routeOf = (method: string, path: string): Route | undefined => {
  const match = PREFIXES.find(([prefix]) => underPrefix(path, prefix))
  if (match === undefined) return undefined
  const [prefix, service] = match
  const surface = surfaceOf(prefix)
  let body: BodyKind = "json"
  let bodyLimit = JSON_BODY_LIMIT
  if (surface === "channels") body = "raw"
  else if (method === "POST" && path === "/api/media") {
    body = "media"
    bodyLimit = MEDIA_BODY_LIMIT
  } else if (method === "POST" && path === "/api/contacts/import") {
    body = "csv"
    bodyLimit = IMPORT_BODY_LIMIT
  } else if (method === "POST" && path === "/api/campaigns") {
    bodyLimit = CAMPAIGN_BODY_LIMIT
  }
  return {
    service,
    surface,
    body,
    bodyLimit,
    heavy: isHeavy(method, path),
    scope: surface === "public" ? publicScopeOf(method, path) : undefined,
  }
}

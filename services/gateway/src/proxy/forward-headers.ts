/**
 * What crosses the gateway in each direction. Hop-by-hop headers (RFC 9110 §7.6.1, plus those the
 * `Connection` header names) stop here; credentials stop here too, except where the service behind
 * needs them (the cookie for `/api/auth/*`, the operator token for `/api/operator/*`, the bridge's
 * bearer token and the provider's signature for `/channels/*`); the internal headers a client might
 * send (`x-parley-principal`, `x-parley-internal`) are always dropped and the gateway's own principal
 * set in their place.
 */
import type { IncomingHttpHeaders } from "node:http"
import { INTERNAL_HEADER, PRINCIPAL_HEADER } from "@parley/platform"
import type { Surface } from "../routing/route-table.ts"

const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "http2-settings",
])

// Headers the gateway decides itself, never passed from the client.
const GATEWAY_OWNED = new Set([
  "host",
  "expect",
  "content-length",
  "x-request-id",
  "x-forwarded-for",
  "x-forwarded-host",
  "x-forwarded-proto",
  PRINCIPAL_HEADER,
  INTERNAL_HEADER,
])

const connectionTokens = (headers: IncomingHttpHeaders): Set<string> => {
  const value = headers.connection
  if (value === undefined) return new Set()
  return new Set(
    value
      .split(",")
      .map((token) => token.trim().toLowerCase())
      .filter((token) => token !== ""),
  )
}

const keepsCredential = (name: string, surface: Surface): boolean => {
  switch (name) {
    case "x-api-key":
      return false
    case "authorization":
      return surface === "operator" || surface === "channels"
    case "cookie":
      return surface === "auth"
    default:
      return true
  }
}

export interface ForwardContext {
  readonly surface: Surface
  readonly requestId: string
  readonly clientIp: string
  readonly protocol: string
  readonly host: string | undefined
  /** The signed principal, for authenticated callers. */
  readonly principal: string | undefined
  /** The body's length when the gateway knows it (a buffered JSON body). */
  readonly contentLength: number | undefined
}

export const requestHeadersFor = (
  headers: IncomingHttpHeaders,
  context: ForwardContext,
): Record<string, string | Array<string>> => {
  const named = connectionTokens(headers)
  const out: Record<string, string | Array<string>> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue
    if (HOP_BY_HOP.has(name) || GATEWAY_OWNED.has(name) || named.has(name)) continue
    if (!keepsCredential(name, context.surface)) continue
    out[name] = value
  }
  if (context.contentLength !== undefined) out["content-length"] = String(context.contentLength)
  else if (headers["content-length"] !== undefined) out["content-length"] = headers["content-length"]
  out["x-request-id"] = context.requestId
  const forwardedFor = headers["x-forwarded-for"]
  out["x-forwarded-for"] = forwardedFor === undefined ? context.clientIp : `${forwardedFor}, ${context.clientIp}`
  out["x-forwarded-proto"] = context.protocol
  if (context.host !== undefined) out["x-forwarded-host"] = context.host
  if (context.principal !== undefined) out[PRINCIPAL_HEADER] = context.principal
  return out
}

const RESPONSE_DROPPED = new Set([...HOP_BY_HOP, "x-request-id", PRINCIPAL_HEADER, INTERNAL_HEADER])

export const responseHeadersFor = (
  headers: Record<string, string | Array<string> | undefined>,
): Record<string, string | Array<string>> => {
  const named = new Set<string>()
  const connection = headers.connection
  if (typeof connection === "string") for (const token of connection.split(",")) named.add(token.trim().toLowerCase())
  const out: Record<string, string | Array<string>> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || RESPONSE_DROPPED.has(name) || named.has(name)) continue
    out[name] = value
  }
  return out
}

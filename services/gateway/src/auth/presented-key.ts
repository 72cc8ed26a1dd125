/**
 * Where a caller put its API key (docs/contract.md §2.2). On `/api/public/*` four forms are accepted in
 * a fixed precedence — `X-API-Key`, `Authorization: Bearer`, the JSON body's `apiKey`, the query's
 * `apiKey` — and the first form PRESENT is the one used: a later form is never consulted when an
 * earlier one is present but invalid, so a caller cannot shop among credentials. The private API
 * reads `X-API-Key` only (a bearer token there is treated as absent).
 */
import type { IncomingHttpHeaders } from "node:http"

export type KeyForm = "header" | "bearer" | "body" | "query"

export interface PresentedKey {
  readonly form: KeyForm
  /** The credential as given; `undefined` when the form is present but not a string (a 401). */
  readonly value: string | undefined
}

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i

const headerValue = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const value = headers[name]
  return Array.isArray(value) ? value[0] : value
}

/** The key in `X-API-Key`, the only form the private API accepts. */
export const headerKey = (headers: IncomingHttpHeaders): PresentedKey | undefined => {
  const value = headerValue(headers, "x-api-key")
  return value === undefined ? undefined : { form: "header", value: value.trim() }
}

/** A bearer token in `Authorization`, or `undefined` when there is none (or another scheme). */
export const bearerToken = (headers: IncomingHttpHeaders): string | undefined => {
  const value = headerValue(headers, "authorization")
  if (value === undefined) return undefined
  return BEARER.exec(value)?.[1]
}

export interface PublicKeySources {
  readonly headers: IncomingHttpHeaders
  /** The parsed JSON body, when the request has one. */
  readonly body: unknown
  readonly query: URLSearchParams | undefined
}

export const hasBodyKey = (body: unknown): body is Record<string, unknown> =>
  body !== null && typeof body === "object" && !Array.isArray(body) && Object.hasOwn(body, "apiKey")

/** The key a `/api/public/*` request presents, by precedence. */
export const publicKey = (sources: PublicKeySources): PresentedKey | undefined => {
  const header = headerKey(sources.headers)
  if (header !== undefined) return header
  const authorization = headerValue(sources.headers, "authorization")
  if (authorization !== undefined && /^Bearer(?:[ \t]|$)/i.test(authorization)) {
    return { form: "bearer", value: bearerToken(sources.headers) }
  }
  if (hasBodyKey(sources.body)) {
    const value = sources.body.apiKey
    return { form: "body", value: typeof value === "string" ? value : undefined }
  }
  if (sources.query?.has("apiKey") === true) return { form: "query", value: sources.query.get("apiKey") ?? "" }
  return undefined
}

/** The headers Parley sets on every delivery. */
export const DeliveryHeaders = {
  event: "X-Service-Event",
  signature: "X-Service-Signature",
  delivery: "X-Service-Delivery",
  attempt: "X-Service-Attempt",
  /** `true` on a test delivery (`POST /api/org/webhooks/:id/test`), its retries, redeliveries and replays. */
  test: "X-Service-Test",
} as const

/**
 * The Standard Webhooks headers Parley sets beside its own (https://www.standardwebhooks.com/), so
 * that any Standard Webhooks or Svix library verifies a delivery.
 */
export const StandardHeaders = {
  /** The delivery id, the same on every attempt (as `X-Service-Delivery`). */
  id: "webhook-id",
  /** Unix seconds at which this attempt was signed. */
  timestamp: "webhook-timestamp",
  /** `v1,<base64>`, and during the 24 hours after a rotation ` v1,<base64>` by the previous key. */
  signature: "webhook-signature",
} as const

/**
 * Request headers as the common server APIs hand them over: a Fetch `Headers` (Deno, Bun, edge
 * runtimes, undici), or a plain object with any key case such as Node's `IncomingHttpHeaders`.
 */
export type HeadersLike =
  | Headers
  | { readonly [name: string]: string | ReadonlyArray<string> | number | undefined | null }

const isFetchHeaders = (headers: HeadersLike): headers is Headers =>
  typeof (headers as Headers).get === "function" && typeof (headers as Headers).has === "function"

/** The value of one header, case-insensitively; the first when it was sent more than once. */
export const headerValue = (headers: HeadersLike, name: string): string | undefined => {
  if (isFetchHeaders(headers)) return headers.get(name) ?? undefined
  const wanted = name.toLowerCase()
  for (const key of Object.keys(headers)) {
    if (key.toLowerCase() !== wanted) continue
    const value = headers[key]
    if (value === undefined || value === null) return undefined
    if (typeof value === "string") return value
    if (typeof value === "number") return String(value)
    return value[0]
  }
  return undefined
}

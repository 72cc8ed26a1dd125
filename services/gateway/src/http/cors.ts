/**
 * CORS for the widget surface `/api/public/*` (docs/contract.md §8).
 *
 * Preflights are answered for ANY origin: a preflight carries no credential (browsers never send
 * `X-API-Key` or the body on it), so it cannot be attributed to a key and its `allowedOrigins`.
 * The restriction is enforced on the actual request instead, which does carry the key: an `Origin`
 * outside the key's list gets 403 `origin_not_allowed`. Letting any origin preflight therefore grants
 * nothing a server-side client could not already do. No credentials mode (`Allow-Credentials`): the
 * widget authenticates with a key, never with cookies.
 */
import type { FastifyReply, FastifyRequest } from "fastify"

const ALLOWED_METHODS = "GET, POST, OPTIONS"
const ALLOWED_HEADERS = "X-API-Key, Authorization, Content-Type"
/**
 * `Date` is exposed so that the widget can read Parley's clock: a visitor's clock days behind would
 * otherwise make the booking form ask for a day Parley calls past, and hide the form.
 */
const EXPOSED_HEADERS =
  "X-Request-Id, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, RateLimit-Policy, Retry-After, Date"
const PREFLIGHT_MAX_AGE_SECONDS = "600"

/** Adds the CORS headers of an actual (non-preflight) response. */
export const applyCors = (request: FastifyRequest, reply: FastifyReply): void => {
  const origin = request.headers.origin
  reply.header("vary", "Origin")
  if (typeof origin !== "string") return
  reply.header("access-control-allow-origin", origin)
  reply.header("access-control-expose-headers", EXPOSED_HEADERS)
}

export const isPreflight = (request: FastifyRequest): boolean => request.method === "OPTIONS"

/** Answers a preflight: 204 with what the widget may send. */
export const answerPreflight = (request: FastifyRequest, reply: FastifyReply): FastifyReply => {
  applyCors(request, reply)
  reply.header("access-control-allow-methods", ALLOWED_METHODS)
  reply.header("access-control-allow-headers", ALLOWED_HEADERS)
  reply.header("access-control-max-age", PREFLIGHT_MAX_AGE_SECONDS)
  return reply.code(204).send()
}

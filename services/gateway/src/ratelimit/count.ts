/**
 * One request counted against the limits of docs/contract.md §3: the `RateLimit-*` headers go on the
 * reply, and a refused request ends with 429 `rate_limited` (and `Retry-After`). The API pipeline
 * and the gateway's own routes (`/docs`) count through this one function, so both say the same.
 */
import type { FastifyReply } from "fastify"
import { RateLimited } from "../errors.ts"
import { toApiError } from "../http/errors.ts"
import type { GatewayInstruments } from "../metrics.ts"
import { resetSeconds, setRateLimitHeaders } from "./headers.ts"
import type { RateLimiter, RateLimits } from "./policy.ts"

/** Counts the request under `subject` (`org:<id>`, `key:<id>:ip:<ip>`, `ip:<ip>`); throws the 429. */
export type RequestCounter = (reply: FastifyReply, subject: string, heavy: boolean) => Promise<void>

export const makeRequestCounter = (deps: {
  readonly limiter: RateLimiter
  readonly limits: RateLimits
  readonly metrics: GatewayInstruments
}): RequestCounter => {
  const { limiter, limits, metrics } = deps
  return async (reply, subject, heavy) => {
    const decision = await limiter.check({ subject, heavy })
    setRateLimitHeaders(reply, decision, limits.windowMs)
    if (!decision.allowed) {
      metrics.rateLimited.inc()
      throw toApiError(new RateLimited({ retryAfterSeconds: resetSeconds(decision.state.resetMs) }))
    }
  }
}

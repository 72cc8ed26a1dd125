/**
 * The rate-limit rules of docs/contract.md §3 as data, and the decision a limiter returns. Both
 * limiters (Redis, in-memory) implement one algorithm — a sliding-window log — so a request is
 * treated the same whichever answers.
 *
 * Why a sliding-window log: it is exact. A request passes when fewer than `limit` requests passed
 * in the last `windowMs` milliseconds, so of 301 requests inside any 60 s, exactly 300 pass, at
 * any boundary. A fixed window lets 2× through across a boundary; GCRA with a burst of 300 lets
 * the 301st through once 200 ms have elapsed. The log costs one sorted-set entry per passed
 * request (≤ 300 per subject per minute, a few KiB), which is affordable at these limits.
 */
export interface RateLimits {
  readonly generalPerWindow: number
  readonly heavyPerWindow: number
  readonly windowMs: number
}

export const DEFAULT_RATE_LIMITS: RateLimits = { generalPerWindow: 300, heavyPerWindow: 20, windowMs: 60_000 }

/** One limit's state after a request: the numbers behind the `RateLimit-*` headers. */
export interface LimitState {
  readonly limit: number
  readonly remaining: number
  /** Milliseconds until the window frees capacity (the oldest counted request ages out). */
  readonly resetMs: number
}

export interface RateDecision {
  readonly allowed: boolean
  /** The tighter of the limits that applied: the one that refused, else the one with less left. */
  readonly state: LimitState
}

export interface RateRequest {
  /** Who is counted: `org:<id>`, `key:<id>:ip:<ip>` or `ip:<ip>`. */
  readonly subject: string
  readonly heavy: boolean
}

export interface RateLimiter {
  check(request: RateRequest): Promise<RateDecision>
}

/** Picks the limit that answers: a refusing one first, then the fewest remaining, then the later reset. */
export const tighter = (states: ReadonlyArray<LimitState>): LimitState =>
  states.reduce((a, b) => {
    if (a.remaining !== b.remaining) return a.remaining < b.remaining ? a : b
    return a.resetMs >= b.resetMs ? a : b
  })

export const decide = (states: ReadonlyArray<LimitState>, allowed: boolean): RateDecision => ({
  allowed,
  state: tighter(states),
})

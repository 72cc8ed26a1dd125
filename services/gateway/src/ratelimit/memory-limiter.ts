/**
 * The sliding-window log in process memory: the limiter without `REDIS_URL`, and the fallback while
 * Redis is unreachable. Per instance only — with N instances a subject may get N × the limit while
 * Redis is down, which is the price of staying up.
 */
import {
  decide,
  type LimitState,
  type RateDecision,
  type RateLimiter,
  type RateLimits,
  type RateRequest,
} from "./policy.ts"

export interface MemoryRateLimiter extends RateLimiter {
  /** Drops subjects whose log has aged out entirely (called on a timer). */
  sweep(): void
  readonly size: number
}

export const makeMemoryRateLimiter = (limits: RateLimits, now: () => number = Date.now): MemoryRateLimiter => {
  // Timestamps of passed requests, oldest first, per `<subject>:<limit name>`.
  const logs = new Map<string, Array<number>>()

  const logOf = (key: string, at: number): Array<number> => {
    let log = logs.get(key)
    if (log === undefined) {
      log = []
      logs.set(key, log)
    }
    let expired = 0
    while (expired < log.length && (log[expired] as number) <= at - limits.windowMs) expired++
    if (expired > 0) log.splice(0, expired)
    return log
  }

  const stateOf = (log: ReadonlyArray<number>, limit: number, at: number): LimitState => ({
    limit,
    remaining: Math.max(0, limit - log.length),
    resetMs: log.length === 0 ? limits.windowMs : (log[0] as number) + limits.windowMs - at,
  })

  return {
    check: async (request: RateRequest): Promise<RateDecision> => {
      const at = now()
      const applied: Array<readonly [Array<number>, number]> = [
        [logOf(`${request.subject}:general`, at), limits.generalPerWindow],
      ]
      if (request.heavy) applied.push([logOf(`${request.subject}:heavy`, at), limits.heavyPerWindow])
      const allowed = applied.every(([log, limit]) => log.length < limit)
      if (allowed) for (const [log] of applied) log.push(at)
      return decide(
        applied.map(([log, limit]) => stateOf(log, limit, at)),
        allowed,
      )
    },
    sweep: () => {
      const at = now()
      for (const [key, log] of logs) {
        if (log.length === 0 || (log[log.length - 1] as number) <= at - limits.windowMs) logs.delete(key)
      }
    },
    get size() {
      return logs.size
    },
  }
}

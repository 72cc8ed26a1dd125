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

/**
 * One subject's log: timestamps of passed requests, oldest first, in an array read from `head`
 * (dropping expired entries is moving `head`, not shifting the array; the array is compacted when
 * more than half of it is dead).
 */
class RequestLog {
  times: Array<number> = []
  head = 0

  get size(): number {
    return this.times.length - this.head
  }

  oldest(): number | undefined {
    return this.times[this.head]
  }

  newest(): number | undefined {
    return this.times[this.times.length - 1]
  }

  expire(before: number): void {
    while (this.head < this.times.length && (this.times[this.head] as number) <= before) this.head++
    if (this.head > 64 && this.head * 2 > this.times.length) {
      this.times = this.times.slice(this.head)
      this.head = 0
    }
  }

  push(at: number): void {
    this.times.push(at)
  }
}

/**
 * A promise resolved once the event loop has polled every connection ready in this turn (its check
 * phase), shared by every request decided in the turn. See `check`.
 */
let turnEnd: Promise<void> | undefined
const endOfTurn = (): Promise<void> => {
  turnEnd ??= new Promise((resolve) =>
    setImmediate(() => {
      turnEnd = undefined
      resolve()
    }),
  )
  return turnEnd
}

export const makeMemoryRateLimiter = (limits: RateLimits, now: () => number = Date.now): MemoryRateLimiter => {
  const logs = new Map<string, RequestLog>()

  const logOf = (key: string, at: number): RequestLog => {
    let log = logs.get(key)
    if (log === undefined) {
      log = new RequestLog()
      logs.set(key, log)
    }
    log.expire(at - limits.windowMs)
    return log
  }

  const stateOf = (log: RequestLog, limit: number, at: number): LimitState => {
    const oldest = log.oldest()
    return {
      limit,
      remaining: Math.max(0, limit - log.size),
      resetMs: oldest === undefined ? limits.windowMs : oldest + limits.windowMs - at,
    }
  }

  /** The decision, counted at once: two requests of one turn never see the same remaining count. */
  const decideNow = (request: RateRequest): RateDecision => {
    const at = now()
    const general = logOf(`${request.subject}:general`, at)
    const applied: Array<readonly [RequestLog, number]> = [[general, limits.generalPerWindow]]
    if (request.heavy) applied.push([logOf(`${request.subject}:heavy`, at), limits.heavyPerWindow])
    const allowed = applied.every(([log, limit]) => log.size < limit)
    if (allowed) for (const [log] of applied) log.push(at)
    return decide(
      applied.map(([log, limit]) => stateOf(log, limit, at)),
      allowed,
    )
  }

  return {
    /**
     * Decided and counted at once, answered when the event loop has read every request ready in
     * this turn: the answers then leave together, as they do when Redis's replies come back in a
     * batch. Answered one by one, each in the turn that read its request, every answer's socket
     * write woke the waiting client on its own; that was why `npm start` cost more CPU per request
     * (and its answer's write twice the share of its profile) with the limit in memory than with
     * the Redis round trip (test/bench/gateway, issue #28).
     */
    check: async (request: RateRequest): Promise<RateDecision> => {
      const decision = decideNow(request)
      await endOfTurn()
      return decision
    },
    sweep: () => {
      const at = now()
      for (const [key, log] of logs) {
        const newest = log.newest()
        if (log.size === 0 || newest === undefined || newest <= at - limits.windowMs) logs.delete(key)
      }
    },
    get size() {
      return logs.size
    },
  }
}

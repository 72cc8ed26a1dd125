/** How often a single-node consumer talks to Postgres; tests shorten them, production keeps these. */
export interface BusTimings {
  /** Member heartbeat and rebalance check. */
  readonly heartbeatMs: number
  /** A member (and its leases) is presumed dead this long after its last heartbeat. */
  readonly sessionMs: number
  /**
   * A fallback poll for records no wake-up announced; none by default (infinite): every append
   * NOTIFYs at commit, and a LISTEN connection that reconnects wakes every worker, so an idle bus
   * sends no query at all between heartbeats.
   */
  readonly pollMs: number
  /** Failed handler retries: base * 2^attempt, capped. */
  readonly retryBaseMs: number
  readonly retryMaxMs: number
  /** On graceful shutdown, how long in-flight handlers may take before being interrupted. */
  readonly drainTimeoutMs: number
  /**
   * Least time between two commits of a partition's progress (each is a writing transaction). A
   * longer interval means fewer of them under load, and more records handled again after a crash
   * (handlers are idempotent: at least once, as promised); a drain commits at once.
   */
  readonly commitIntervalMs: number
}

export const defaultTimings: BusTimings = {
  heartbeatMs: 3_000,
  sessionMs: 10_000,
  pollMs: Number.POSITIVE_INFINITY,
  retryBaseMs: 200,
  retryMaxMs: 30_000,
  drainTimeoutMs: 15_000,
  // One second: under load a partition commits about once a second instead of five times (at
  // 240 messages/s, 0.18 → 0.04 offset commits per message), for at most a second of records seen
  // again after a hard kill.
  commitIntervalMs: 1_000,
}

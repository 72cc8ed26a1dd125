/**
 * Bounds the attempts in flight per webhook (DESIGN.md §3: a slow or dead endpoint occupies only its
 * own share of concurrency). Work beyond the bound waits in a per-webhook queue. When the queue is
 * long and the webhook's latest attempt failed, `tryRun` answers "saturated" so the caller can park
 * the delivery on a delay topic instead of holding a slot of the partition window that healthy
 * endpoints need; a healthy endpoint working through a burst is never parked.
 */
export class WebhookLimiter {
  readonly #maxInFlight: number
  readonly #maxWaiting: number
  readonly #lanes = new Map<string, Lane>()
  /** Latest outcome per webhook, kept after its lane empties (bounded: cleared when it grows large). */
  readonly #failing = new Map<string, boolean>()

  readonly #now: () => number

  constructor(options: { maxInFlight: number; maxWaiting: number; now?: () => number }) {
    this.#maxInFlight = options.maxInFlight
    this.#maxWaiting = options.maxWaiting
    this.#now = options.now ?? Date.now
  }

  /** Runs `work` within the webhook's bound, or answers `saturated` without running it. */
  async tryRun<A>(
    webhookId: string,
    work: () => Promise<A>,
    failed: (value: A) => boolean = () => false,
  ): Promise<{ saturated: true } | { saturated: false; value: A }> {
    let lane = this.#lanes.get(webhookId)
    if (lane === undefined) {
      lane = { inFlight: 0, waiting: [], started: [] }
      this.#lanes.set(webhookId, lane)
    }
    if (lane.inFlight >= this.#maxInFlight) {
      if (lane.waiting.length >= this.#maxWaiting && this.#struggling(webhookId, lane)) return { saturated: true }
      await new Promise<void>((resolve) => lane.waiting.push(resolve))
    } else {
      lane.inFlight++
    }
    const started = this.#now()
    lane.started.push(started)
    try {
      const value = await work()
      if (this.#failing.size > 100_000) this.#failing.clear()
      this.#failing.set(webhookId, failed(value))
      return { saturated: false, value }
    } finally {
      lane.started.splice(lane.started.indexOf(started), 1)
      const next = lane.waiting.shift()
      // The slot passes straight to the next waiter; otherwise it is released.
      if (next !== undefined) next()
      else if (--lane.inFlight === 0) this.#lanes.delete(webhookId)
    }
  }

  /** Its latest attempt failed, or one in flight has run past SlowAttemptMs (a hung endpoint has no outcome yet). */
  #struggling(webhookId: string, lane: Lane): boolean {
    if (this.#failing.get(webhookId) === true) return true
    const now = this.#now()
    return lane.started.some((started) => now - started > SlowAttemptMs)
  }

  inFlight(webhookId: string): number {
    return this.#lanes.get(webhookId)?.inFlight ?? 0
  }
}

interface Lane {
  inFlight: number
  readonly waiting: Array<() => void>
  /** Start times of the attempts in flight. */
  readonly started: Array<number>
}

/** An attempt running longer than this marks its endpoint as slow. */
export const SlowAttemptMs = 1_000

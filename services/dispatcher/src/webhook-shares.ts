/**
 * Each webhook's bounded share of concurrency (DESIGN.md §3.3): at most `first` first attempts and
 * `retry` later attempts in flight per webhook in this process. Two shares, not one, so that a
 * webhook's retries are never queued behind its own backlog of first attempts: a hung endpoint
 * holds every first attempt for the whole timeout, and with one share its second and third attempts
 * would wait for those, losing the 5 s / 10 s gaps. With twice as many retry slots as first-attempt
 * slots there is room for the two retries each failed first attempt leads to.
 *
 * A delivery that finds its share full may wait here only briefly and only while the webhook
 * answers promptly: once an attempt in flight has run past `slowAttemptMs`, or a delivery has waited
 * `maxWaitMs`, every waiter is turned away (`acquire` answers `undefined`) and the caller parks it
 * durably, so no partition window holds a slow endpoint's backlog. A healthy endpoint working
 * through a burst is served from memory, as fast as it answers.
 */
export type AttemptClass = "first" | "retry"

export const classOf = (attempt: number): AttemptClass => (attempt === 1 ? "first" : "retry")

/** A place in a webhook's share; `release` it once the attempt has its outcome. */
export interface Slot {
  release(): void
}

export interface WebhookSharesOptions {
  readonly first: number
  readonly retry: number
  /** An attempt running longer than this marks its endpoint as slow: nothing more waits for it. */
  readonly slowAttemptMs: number
  /** The longest a delivery waits in memory for its webhook's share before it is parked. */
  readonly maxWaitMs: number
  /** A slot of this class became free with nobody waiting for it (parked work may take it). */
  readonly onFree?: (webhookId: string, attemptClass: AttemptClass) => void
  readonly now?: () => number
}

interface Waiter {
  readonly since: number
  readonly resolve: (slot: Slot | undefined) => void
}

interface Lane {
  readonly webhookId: string
  readonly attemptClass: AttemptClass
  readonly max: number
  inFlight: number
  /** Start times of the attempts in flight. */
  readonly started: Set<{ readonly at: number }>
  readonly waiting: Array<Waiter>
  timer: ReturnType<typeof setTimeout> | undefined
}

export class WebhookShares {
  readonly #options: WebhookSharesOptions
  readonly #now: () => number
  readonly #lanes = new Map<string, Lane>()

  constructor(options: WebhookSharesOptions) {
    this.#options = options
    this.#now = options.now ?? Date.now
  }

  /** A slot at once, or `undefined` when the share is full. */
  tryAcquire(webhookId: string, attemptClass: AttemptClass): Slot | undefined {
    const lane = this.#lane(webhookId, attemptClass)
    if (lane.inFlight >= lane.max) {
      this.#dropIfIdle(lane)
      return undefined
    }
    lane.inFlight++
    return this.#slot(lane)
  }

  /**
   * A slot at once or after a short wait, or `undefined` when the webhook is slow or the wait ran out:
   * then the delivery belongs in the parked queue, not in a partition's window.
   */
  acquire(webhookId: string, attemptClass: AttemptClass): Promise<Slot | undefined> {
    const slot = this.tryAcquire(webhookId, attemptClass)
    if (slot !== undefined) return Promise.resolve(slot)
    const lane = this.#lane(webhookId, attemptClass)
    if (this.#slow(lane)) return Promise.resolve(undefined)
    return new Promise((resolve) => {
      lane.waiting.push({ since: this.#now(), resolve })
      this.#watch(lane)
    })
  }

  /** Free places of this class right now. */
  free(webhookId: string, attemptClass: AttemptClass): number {
    const lane = this.#lanes.get(`${attemptClass}:${webhookId}`)
    return lane === undefined ? this.#max(attemptClass) : Math.max(0, lane.max - lane.inFlight - lane.waiting.length)
  }

  inFlight(webhookId: string, attemptClass: AttemptClass): number {
    return this.#lanes.get(`${attemptClass}:${webhookId}`)?.inFlight ?? 0
  }

  #max(attemptClass: AttemptClass): number {
    return attemptClass === "first" ? this.#options.first : this.#options.retry
  }

  #lane(webhookId: string, attemptClass: AttemptClass): Lane {
    const key = `${attemptClass}:${webhookId}`
    let lane = this.#lanes.get(key)
    if (lane === undefined) {
      lane = {
        webhookId,
        attemptClass,
        max: this.#max(attemptClass),
        inFlight: 0,
        started: new Set(),
        waiting: [],
        timer: undefined,
      }
      this.#lanes.set(key, lane)
    }
    return lane
  }

  #dropIfIdle(lane: Lane): void {
    if (lane.inFlight === 0 && lane.waiting.length === 0) {
      if (lane.timer !== undefined) clearTimeout(lane.timer)
      this.#lanes.delete(`${lane.attemptClass}:${lane.webhookId}`)
    }
  }

  #slot(lane: Lane): Slot {
    const start = { at: this.#now() }
    lane.started.add(start)
    let released = false
    return {
      release: () => {
        if (released) return
        released = true
        lane.started.delete(start)
        const next = lane.waiting.shift()
        // The place passes straight to the next waiter; otherwise it is free for parked work.
        if (next !== undefined) {
          next.resolve(this.#slot(lane))
          return
        }
        lane.inFlight--
        this.#dropIfIdle(lane)
        this.#options.onFree?.(lane.webhookId, lane.attemptClass)
      },
    }
  }

  #slow(lane: Lane): boolean {
    const now = this.#now()
    for (const start of lane.started) if (now - start.at > this.#options.slowAttemptMs) return true
    return false
  }

  /** Turns every waiter away once the endpoint is slow or the oldest waiter has waited long enough. */
  #watch(lane: Lane): void {
    if (lane.timer !== undefined) {
      clearTimeout(lane.timer)
      lane.timer = undefined
    }
    const head = lane.waiting[0]
    if (head === undefined) {
      this.#dropIfIdle(lane)
      return
    }
    const now = this.#now()
    if (this.#slow(lane) || now - head.since >= this.#options.maxWaitMs) {
      for (const waiter of lane.waiting.splice(0)) waiter.resolve(undefined)
      this.#dropIfIdle(lane)
      return
    }
    let due = head.since + this.#options.maxWaitMs
    for (const start of lane.started) due = Math.min(due, start.at + this.#options.slowAttemptMs + 1)
    lane.timer = setTimeout(() => this.#watch(lane), Math.max(1, due - now))
    lane.timer.unref?.()
  }
}

/** DESIGN.md §3.3: a webhook's first attempts in flight, per dispatcher process. */
export const FirstAttemptsPerWebhook = 8
/** Its second and third attempts in flight: two for each first attempt, so retries keep their gaps. */
export const RetriesPerWebhook = 16
/**
 * An attempt running longer than this marks its endpoint as slow. Short: until then deliveries of a
 * webhook that has just hung wait in memory, holding their partition's window.
 */
export const SlowAttemptMs = 500
/** The longest a delivery waits in memory for its webhook's share. */
export const MaxShareWaitMs = 1_000

/**
 * Each webhook's bounded share of concurrency (docs/design.md §3.3): at most `first` first attempts and
 * `retry` later attempts in flight per webhook in this process. Two shares, not one, so that a
 * webhook's retries are never queued behind its own backlog of first attempts: a hung endpoint
 * holds every first attempt for the whole timeout, and with one share its second and third attempts
 * would wait for those, losing the 5 s / 10 s gaps. With twice as many retry places as first-attempt
 * places there is room for the two retries each failed first attempt leads to.
 *
 * A delivery that finds its share full waits here only while the webhook answers promptly, and at
 * most `maxWaitMs`: a healthy endpoint working through a burst is served from memory, as fast as it
 * answers. A webhook is slow while an attempt in flight has run past `slowAttemptMs`, or its latest
 * attempt took that long (a hung endpoint's attempts end by timing out); then `acquire` answers
 * `undefined` at once, every waiter is turned away likewise, and the caller parks the delivery
 * durably, so no partition window holds a slow endpoint's backlog.
 *
 * A place freed while deliveries of that webhook are parked (`hasParked`) goes to the parked ones
 * every other time even when deliveries wait here, so neither side starves the other.
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
  /** An attempt running (or having run) longer than this marks its endpoint as slow. */
  readonly slowAttemptMs: number
  /** The longest a delivery waits in memory for its webhook's share before it is parked. */
  readonly maxWaitMs: number
  /** A place became free without being handed to a waiter: parked deliveries may take it. */
  readonly onFree?: (webhookId: string, attemptClass: AttemptClass) => void
  /** Whether deliveries of this webhook and class are parked (they then get every other free place). */
  readonly hasParked?: (webhookId: string, attemptClass: AttemptClass) => boolean
  readonly now?: () => number
}

interface Waiter {
  readonly since: number
  readonly resolve: (slot: Slot | undefined) => void
}

interface Lane {
  readonly key: string
  readonly webhookId: string
  readonly attemptClass: AttemptClass
  readonly max: number
  inFlight: number
  /** Start times of the attempts in flight. */
  readonly started: Set<{ readonly at: number }>
  readonly waiting: Array<Waiter>
  timer: ReturnType<typeof setTimeout> | undefined
  /** Flips on every release while deliveries are parked: which side the place goes to. */
  toParked: boolean
}

export class WebhookShares {
  readonly #options: WebhookSharesOptions
  readonly #now: () => number
  readonly #lanes = new Map<string, Lane>()
  /** Lanes whose latest attempt took longer than `slowAttemptMs` (kept after the lane empties; bounded). */
  readonly #slowLately = new Set<string>()

  constructor(options: WebhookSharesOptions) {
    this.#options = options
    this.#now = options.now ?? Date.now
  }

  /** A place at once, or `undefined` when the share is full. */
  tryAcquire(webhookId: string, attemptClass: AttemptClass): Slot | undefined {
    const lane = this.#lane(webhookId, attemptClass)
    if (lane.inFlight >= lane.max) return undefined
    lane.inFlight++
    return this.#slot(lane)
  }

  /**
   * A place at once or after a short wait, or `undefined` when the webhook is slow or the wait ran
   * out: then the delivery belongs in the parked queue, not in a partition's window.
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

  inFlight(webhookId: string, attemptClass: AttemptClass): number {
    return this.#lanes.get(`${attemptClass}:${webhookId}`)?.inFlight ?? 0
  }

  #lane(webhookId: string, attemptClass: AttemptClass): Lane {
    const key = `${attemptClass}:${webhookId}`
    let lane = this.#lanes.get(key)
    if (lane === undefined) {
      lane = {
        key,
        webhookId,
        attemptClass,
        max: attemptClass === "first" ? this.#options.first : this.#options.retry,
        inFlight: 0,
        started: new Set(),
        waiting: [],
        timer: undefined,
        toParked: false,
      }
      this.#lanes.set(key, lane)
    }
    return lane
  }

  #dropIfIdle(lane: Lane): void {
    if (lane.inFlight === 0 && lane.waiting.length === 0 && this.#lanes.get(lane.key) === lane) {
      if (lane.timer !== undefined) clearTimeout(lane.timer)
      this.#lanes.delete(lane.key)
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
        if (this.#now() - start.at > this.#options.slowAttemptMs) {
          if (this.#slowLately.size > 100_000) this.#slowLately.clear()
          this.#slowLately.add(lane.key)
        } else {
          this.#slowLately.delete(lane.key)
        }
        const parked = this.#options.hasParked?.(lane.webhookId, lane.attemptClass) === true
        lane.toParked = parked && !lane.toParked
        const next = lane.toParked || this.#slow(lane) ? undefined : lane.waiting.shift()
        // The place passes straight to the next waiter; otherwise it is free for parked work.
        if (next !== undefined) {
          next.resolve(this.#slot(lane))
          return
        }
        lane.inFlight--
        // Slow now: nobody waits for it any more.
        if (this.#slow(lane)) this.#turnAway(lane)
        this.#options.onFree?.(lane.webhookId, lane.attemptClass)
        this.#dropIfIdle(lane)
      },
    }
  }

  #slow(lane: Lane): boolean {
    if (this.#slowLately.has(lane.key)) return true
    const now = this.#now()
    for (const start of lane.started) if (now - start.at > this.#options.slowAttemptMs) return true
    return false
  }

  #turnAway(lane: Lane): void {
    for (const waiter of lane.waiting.splice(0)) waiter.resolve(undefined)
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
      this.#turnAway(lane)
      this.#dropIfIdle(lane)
      return
    }
    let due = head.since + this.#options.maxWaitMs
    for (const start of lane.started) due = Math.min(due, start.at + this.#options.slowAttemptMs + 1)
    lane.timer = setTimeout(() => this.#watch(lane), Math.max(1, due - now))
    lane.timer.unref?.()
  }
}

/** docs/design.md §3.3: a webhook's first attempts in flight, per dispatcher process. */
export const FirstAttemptsPerWebhook = 8
/** Its second and third attempts in flight: two for each first attempt, so retries keep their gaps. */
export const RetriesPerWebhook = 16
/**
 * An attempt running longer than this marks its endpoint as slow. Until then deliveries of a webhook
 * that has just hung wait in memory (a second of its events, in a window of 512); much shorter, and
 * a loaded host's healthy attempts would pass for slow and be parked for nothing.
 */
export const SlowAttemptMs = 1_000
/**
 * The longest a delivery waits in memory for the share of a webhook that answers promptly but is at
 * capacity (a burst): generous, since parking costs a few writes per delivery, yet a bound, so one
 * tenant's burst cannot hold a shared partition's window for long.
 */
export const MaxShareWaitMs = 5_000

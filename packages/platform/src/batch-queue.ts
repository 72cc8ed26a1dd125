/**
 * The batch queue, the one in Parley (group commit): concurrent callers' items are written together,
 * one batch per round trip, with at most `maxConcurrent` batches in flight. Idle, an item goes out at
 * once (no linger); busy, items pile up behind the running batches and leave together, so a thousand
 * handlers finishing at once cost a handful of transactions (or publishes) instead of a thousand —
 * and a handful of pool connections.
 *
 * Plain promises, no Effect: the dispatcher batches every publish of its attempt path through one
 * (test/bench/dispatcher). `@parley/db`'s `makeGroupCommit` (group commit for Effect code) is this
 * queue with a transaction per batch, item-by-item retry of a failed batch, and a Scope.
 */
import { activeTraceContext, batchTraceContext, Otel } from "./tracing.ts"

export interface BatchQueueOptions {
  /** Most items in one batch (default 1,000). */
  readonly maxBatch?: number
  /** Most batches in flight at once (default 2: one finishes while the next runs). */
  readonly maxConcurrent?: number
}

interface Waiter<T, R> {
  readonly item: T
  /** The submitter's trace context, when tracing is on (the batch runs in it, or links to it). */
  readonly trace: Otel.Context | undefined
  readonly resolve: (result: R) => void
  readonly reject: (error: unknown) => void
}

export class BatchQueue<T, R = void> {
  readonly #run: (items: ReadonlyArray<T>) => Promise<ReadonlyArray<R>>
  readonly #maxBatch: number
  readonly #maxConcurrent: number
  readonly #pending: Array<Waiter<T, R>> = []
  #running = 0
  #closed = false
  #onDrained: (() => void) | undefined

  /** `run` answers one result per item, in order; if it rejects, every item of the batch does. */
  constructor(run: (items: ReadonlyArray<T>) => Promise<ReadonlyArray<R>>, options: BatchQueueOptions = {}) {
    this.#run = run
    this.#maxBatch = Math.max(1, options.maxBatch ?? 1_000)
    this.#maxConcurrent = Math.max(1, options.maxConcurrent ?? 2)
  }

  /**
   * Answers once the batch holding `item` ran. Aborting `signal` withdraws the item if its batch
   * has not started (the promise then rejects with the signal's reason); after `close`, rejects.
   */
  submit(item: T, signal?: AbortSignal): Promise<R> {
    if (this.#closed) return Promise.reject(new Error("group commit: submitted after its scope closed"))
    return new Promise<R>((resolve, reject) => {
      const waiter: Waiter<T, R> = { item, trace: activeTraceContext(), resolve, reject }
      this.#pending.push(waiter)
      if (signal !== undefined) {
        signal.addEventListener(
          "abort",
          () => {
            const index = this.#pending.indexOf(waiter)
            if (index < 0) return
            this.#pending.splice(index, 1)
            reject(signal.reason)
            this.#drainedCheck()
          },
          { once: true },
        )
      }
      this.#pump()
    })
  }

  submitAll(items: ReadonlyArray<T>): Promise<ReadonlyArray<R>> {
    return Promise.all(items.map((item) => this.submit(item)))
  }

  /** Refuses new items and resolves once every item already submitted has its answer. */
  close(): Promise<void> {
    this.#closed = true
    return new Promise<void>((resolve) => {
      this.#onDrained = resolve
      this.#drainedCheck()
    })
  }

  #drainedCheck(): void {
    if (this.#closed && this.#running === 0 && this.#pending.length === 0) this.#onDrained?.()
  }

  #pump(): void {
    while (this.#running < this.#maxConcurrent && this.#pending.length > 0) {
      const batch = this.#pending.splice(0, this.#maxBatch)
      this.#running++
      const items = batch.map((waiter) => waiter.item)
      const trace = batchTraceContext(
        batch.map((waiter) => waiter.trace),
        "group commit",
      )
      ;(trace === undefined ? this.#run(items) : Otel.context.with(trace.context, () => this.#run(items)))
        .then(
          (results) => {
            for (const [i, waiter] of batch.entries()) waiter.resolve(results[i] as R)
          },
          (error: unknown) => {
            for (const waiter of batch) waiter.reject(error)
          },
        )
        .finally(() => {
          trace?.end()
          this.#running--
          this.#pump()
          this.#drainedCheck()
        })
    }
  }
}

/**
 * Group commit: concurrent callers' items are written together, one batch per round trip, with at
 * most `maxConcurrent` batches in flight. Idle, an item goes out at once (no linger); busy, items
 * pile up behind the running batch and leave together, so a thousand handlers finishing at once
 * cost a handful of transactions instead of a thousand — and a handful of pool connections.
 */
export class GroupCommit<T, R = void> {
  readonly #run: (items: ReadonlyArray<T>) => Promise<ReadonlyArray<R>>
  readonly #maxBatch: number
  readonly #maxConcurrent: number
  readonly #pending: Array<{ item: T; resolve: (result: R) => void; reject: (error: unknown) => void }> = []
  #running = 0

  /** `run` answers one result per item, in order. */
  constructor(
    run: (items: ReadonlyArray<T>) => Promise<ReadonlyArray<R>>,
    options: { maxBatch?: number; maxConcurrent?: number } = {},
  ) {
    this.#run = run
    this.#maxBatch = options.maxBatch ?? 1_000
    this.#maxConcurrent = options.maxConcurrent ?? 2
  }

  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.#pending.push({ item, resolve, reject })
      this.#pump()
    })
  }

  submitAll(items: ReadonlyArray<T>): Promise<ReadonlyArray<R>> {
    return Promise.all(items.map((item) => this.submit(item)))
  }

  #pump(): void {
    while (this.#running < this.#maxConcurrent && this.#pending.length > 0) {
      const batch = this.#pending.splice(0, this.#maxBatch)
      this.#running++
      this.#run(batch.map((entry) => entry.item))
        .then(
          (results) => {
            for (const [i, entry] of batch.entries()) entry.resolve(results[i] as R)
          },
          (error: unknown) => {
            for (const entry of batch) entry.reject(error)
          },
        )
        .finally(() => {
          this.#running--
          this.#pump()
        })
    }
  }
}

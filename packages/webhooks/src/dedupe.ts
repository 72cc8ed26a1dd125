import { Effect } from "effect"
import { MissingHeader } from "./errors.ts"
import { DeliveryHeaders, type HeadersLike, headerValue } from "./headers.ts"
import { runToPromise } from "./verify.ts"

/**
 * Parley delivers at least once: a delivery's attempts share one `X-Service-Delivery` id, and a
 * retry may follow a success the receiver already handled. The deduplicator runs a handler at
 * most once per delivery id (while the store remembers it), with a store you choose.
 */

export type ClaimState = "claimed" | "processing" | "done"

/**
 * Where delivery ids are remembered. Async so that Redis or SQL stores fit:
 * - Redis: `SET k processing NX EX lease` → `OK` is "claimed", else `GET k`; `complete` is
 *   `SET k done EX ttl`; `release` is `DEL k`.
 * - SQL: `INSERT … ON CONFLICT DO NOTHING RETURNING`, with an expiry column.
 */
export interface DeliveryStore {
  /**
   * Atomically: when `deliveryId` is unknown (or its entry expired), record it as processing for
   * `leaseSeconds` and answer "claimed"; otherwise answer its state.
   */
  claim(deliveryId: string, leaseSeconds: number): Promise<ClaimState>
  /** Records that the delivery was handled, remembered for `ttlSeconds`. */
  complete(deliveryId: string, ttlSeconds: number): Promise<void>
  /** Forgets a claim whose handling failed, so that the next attempt handles it again. */
  release(deliveryId: string): Promise<void>
}

/** A store in this process's memory: fine for one instance; entries expire after their TTL. */
export class MemoryDeliveryStore implements DeliveryStore {
  readonly #entries = new Map<string, { state: "processing" | "done"; expiresAt: number }>()
  readonly #now: () => number
  readonly #maxEntries: number

  constructor(options: { now?: () => number; maxEntries?: number } = {}) {
    this.#now = options.now ?? Date.now
    this.#maxEntries = options.maxEntries ?? 100_000
  }

  get size(): number {
    return this.#entries.size
  }

  async claim(deliveryId: string, leaseSeconds: number): Promise<ClaimState> {
    const now = this.#now()
    const entry = this.#entries.get(deliveryId)
    if (entry !== undefined && entry.expiresAt > now) return entry.state
    this.#sweep(now)
    this.#entries.set(deliveryId, { state: "processing", expiresAt: now + leaseSeconds * 1000 })
    return "claimed"
  }

  async complete(deliveryId: string, ttlSeconds: number): Promise<void> {
    this.#entries.delete(deliveryId) // re-inserted last, so the Map stays ordered by recency
    this.#entries.set(deliveryId, { state: "done", expiresAt: this.#now() + ttlSeconds * 1000 })
  }

  async release(deliveryId: string): Promise<void> {
    this.#entries.delete(deliveryId)
  }

  // Drops expired entries, then the oldest ones beyond the cap, so memory stays bounded.
  #sweep(now: number): void {
    for (const [id, entry] of this.#entries) if (entry.expiresAt <= now) this.#entries.delete(id)
    for (const id of this.#entries.keys()) {
      if (this.#entries.size < this.#maxEntries) break
      this.#entries.delete(id)
    }
  }
}

export interface DeduplicatorOptions {
  readonly store?: DeliveryStore
  /** How long a handled delivery id is remembered. Default one day (redeliveries are rarer later). */
  readonly ttlSeconds?: number
  /** How long a claim lasts if the process dies while handling. Default 60 s. */
  readonly leaseSeconds?: number
}

/**
 * What happened to a delivery: handled now; already handled ("duplicate": answer 2xx); or being
 * handled by a concurrent attempt ("in-progress": answer 2xx if that handling can be trusted to
 * finish, else a non-2xx so that Parley tries again later).
 */
export type DedupeOutcome<A> =
  | { readonly status: "handled"; readonly value: A }
  | { readonly status: "duplicate" }
  | { readonly status: "in-progress" }

export interface Deduplicator {
  /** Runs `handle` unless this delivery id was already handled; a failed handler frees the id. */
  once<A>(headers: HeadersLike, handle: () => Promise<A>): Promise<DedupeOutcome<A>>
  onceEffect<A, E, R>(
    headers: HeadersLike,
    handle: Effect.Effect<A, E, R>,
  ): Effect.Effect<DedupeOutcome<A>, E | MissingHeader, R>
}

export const makeDeduplicator = (options: DeduplicatorOptions = {}): Deduplicator => {
  const store = options.store ?? new MemoryDeliveryStore()
  const ttlSeconds = options.ttlSeconds ?? 86_400
  const leaseSeconds = options.leaseSeconds ?? 60

  const onceEffect = <A, E, R>(headers: HeadersLike, handle: Effect.Effect<A, E, R>) =>
    Effect.gen(function* () {
      const deliveryId = headerValue(headers, DeliveryHeaders.delivery)
      if (deliveryId === undefined || deliveryId === "") {
        return yield* new MissingHeader({ header: DeliveryHeaders.delivery })
      }
      const state = yield* Effect.promise(() => store.claim(deliveryId, leaseSeconds))
      if (state === "done") return { status: "duplicate" } as DedupeOutcome<A>
      if (state === "processing") return { status: "in-progress" } as DedupeOutcome<A>
      const value = yield* handle.pipe(Effect.onError(() => Effect.promise(() => store.release(deliveryId))))
      yield* Effect.promise(() => store.complete(deliveryId, ttlSeconds))
      return { status: "handled", value } as DedupeOutcome<A>
    })

  return {
    onceEffect,
    once: (headers, handle) => runToPromise(onceEffect(headers, Effect.tryPromise({ try: handle, catch: (e) => e }))),
  }
}

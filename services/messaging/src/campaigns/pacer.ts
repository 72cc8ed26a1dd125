import { Effect } from "effect"
import type postgres from "postgres"

/**
 * Paces campaign sends per sending number at `ratePerSecond` (docs/contract.md §9, PARLEY_CLOUD_SEND_RATE),
 * across every instance: the number's next free send time lives in `messaging.send_pace`, and a
 * worker reserves the slots of a whole batch at once by moving it forward in one statement. N
 * instances then interleave their batches and together send at the set rate, not N times it, for
 * one round trip per batch rather than per send, and no reserved slot goes unused. Slot times are
 * the database's clock, waited for here as offsets from the database's "now" read in the same
 * statement, so the instances' own clocks need not agree.
 */
export interface NumberPacer {
  /** Reserves `count` consecutive send slots of the number; answers when each is (`performance.now()` ms). */
  readonly reserve: (phoneNumberId: string, count: number) => Effect.Effect<ReadonlyArray<number>>
  /** Waits for one slot of the number (a retry's). */
  readonly pace: (phoneNumberId: string) => Effect.Effect<void>
  /**
   * Waits until the slot and at least one gap after this process's previous call to the number.
   * Slots are kept by sleeping, and a paused process (a long GC, a busy machine) wakes with every
   * slot that passed meanwhile due at once: spaced here, this process never calls the provider
   * faster than the rate, however late it woke.
   */
  readonly release: (phoneNumberId: string, slot: number) => Effect.Effect<void>
}

/** Sleeps until a reserved slot. */
export const waitFor = (slot: number) =>
  Effect.suspend(() => {
    const wait = slot - performance.now()
    return wait > 0 ? Effect.sleep(wait) : Effect.void
  })

export const makeNumberPacer = (sql: postgres.Sql, ratePerSecond: number): NumberPacer => {
  const gapMs = 1000 / Math.max(1, ratePerSecond)
  const reserve = (phoneNumberId: string, count: number) =>
    Effect.promise(async () => {
      if (count <= 0) return []
      const spanSeconds = (count * gapMs) / 1000
      const [row] = await sql<Array<{ wait_ms: number }>>`
        insert into messaging.send_pace as p (phone_number_id, next_at)
        values (${phoneNumberId}, clock_timestamp() + make_interval(secs => ${spanSeconds}))
        on conflict (phone_number_id) do update
          set next_at = greatest(p.next_at, clock_timestamp()) + make_interval(secs => ${spanSeconds})
        returning (extract(epoch from (next_at - clock_timestamp())) * 1000)::float8 - ${spanSeconds * 1000} as wait_ms`
      const first = performance.now() + Math.max(0, row?.wait_ms ?? 0)
      return Array.from({ length: count }, (_, i) => first + i * gapMs)
    })
  const lastCall = new Map<string, number>()
  const release = (phoneNumberId: string, slot: number) =>
    Effect.suspend(() => {
      // A slot already passed counts from now: the previous call's gap runs from when it really went.
      const at = Math.max(slot, performance.now(), (lastCall.get(phoneNumberId) ?? Number.NEGATIVE_INFINITY) + gapMs)
      lastCall.set(phoneNumberId, at)
      return waitFor(at)
    })
  return {
    reserve,
    pace: (phoneNumberId) => Effect.flatMap(reserve(phoneNumberId, 1), (slots) => waitFor(slots[0] ?? 0)),
    release,
  }
}

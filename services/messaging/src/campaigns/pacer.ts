import { Effect, Semaphore } from "effect"
import type postgres from "postgres"

/**
 * Paces campaign sends per sending number at `ratePerSecond` (CONTRACT.md §9, PARLEY_CLOUD_SEND_RATE),
 * across every instance: the number's next free send time lives in `messaging.send_pace`, and a
 * worker reserves a block of slots at once (about a fifth of a second's worth) by moving it
 * forward in one statement. N instances then interleave their blocks and together send at the set
 * rate, not N times it, for one round trip per block rather than per send. Slot times are the
 * database's clock, waited for here as offsets from the database's "now" read in the same
 * statement, so the instances' own clocks need not agree.
 */
export interface NumberPacer {
  /** Waits for this number's next send slot. */
  readonly pace: (phoneNumberId: string) => Effect.Effect<void>
}

interface Block {
  /** When the next slot of the block is, in this process's monotonic milliseconds. */
  next: number
  left: number
}

export const makeNumberPacer = (sql: postgres.Sql, ratePerSecond: number): NumberPacer => {
  const gapMs = 1000 / Math.max(1, ratePerSecond)
  const blockSize = Math.max(1, Math.round(ratePerSecond / 5))
  const blocks = new Map<string, Block>()
  const locks = new Map<string, Semaphore.Semaphore>()
  const lockOf = (id: string) => {
    let lock = locks.get(id)
    if (lock === undefined) {
      lock = Semaphore.makeUnsafe(1)
      locks.set(id, lock)
    }
    return lock
  }

  const reserve = (phoneNumberId: string) =>
    Effect.promise(async () => {
      const span = blockSize * gapMs
      const [row] = await sql<Array<{ wait_ms: number }>>`
        insert into messaging.send_pace as p (phone_number_id, next_at)
        values (${phoneNumberId}, clock_timestamp() + make_interval(secs => ${span / 1000}))
        on conflict (phone_number_id) do update
          set next_at = greatest(p.next_at, clock_timestamp()) + make_interval(secs => ${span / 1000})
        returning (extract(epoch from (next_at - clock_timestamp())) * 1000)::float8 - ${span} as wait_ms`
      return { next: performance.now() + Math.max(0, row?.wait_ms ?? 0), left: blockSize } satisfies Block
    })

  // One caller at a time per number takes a slot (and, when the block is spent, reserves the next),
  // then sleeps outside the lock until its slot.
  const take = (phoneNumberId: string) =>
    lockOf(phoneNumberId).withPermits(1)(
      Effect.gen(function* () {
        let block = blocks.get(phoneNumberId)
        if (block === undefined || block.left === 0 || block.next < performance.now() - gapMs) {
          block = yield* reserve(phoneNumberId)
          blocks.set(phoneNumberId, block)
        }
        const slot = block.next
        block.next += gapMs
        block.left--
        return slot
      }),
    )

  return {
    pace: (phoneNumberId) =>
      Effect.gen(function* () {
        const slot = yield* take(phoneNumberId)
        const wait = slot - performance.now()
        if (wait > 0) yield* Effect.sleep(wait)
      }),
  }
}

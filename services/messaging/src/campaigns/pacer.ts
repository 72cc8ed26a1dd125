import { Clock, Effect } from "effect"

/**
 * Spaces provider calls evenly at `ratePerSecond` across every campaign this process sends: each
 * caller reserves the next free slot and sleeps until it. Shared by all in-flight sends, so the
 * concurrency window never pushes the rate past the limit.
 */
export const makePacer = (ratePerSecond: number) => {
  const gapMs = 1000 / Math.max(1, ratePerSecond)
  let nextSlot = 0
  return Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    const slot = Math.max(now, nextSlot)
    nextSlot = slot + gapMs
    if (slot > now) yield* Effect.sleep(slot - now)
  })
}

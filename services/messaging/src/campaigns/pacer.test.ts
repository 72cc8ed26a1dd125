import { Effect } from "effect"
import postgres from "postgres"
import { afterAll, expect, it } from "vitest"
import { makeNumberPacer } from "./pacer.ts"

// `release` is this process's own spacing; it never reaches the database (a client that is never used).
const sql = postgres("postgres://127.0.0.1:1/unused", { max: 1 })
afterAll(() => sql.end({ timeout: 0 }))

it("spaces this process's calls to a number at the rate, though their slots were released late all at once", async () => {
  const rate = 40
  const gap = 1000 / rate
  const pacer = makeNumberPacer(sql, rate)
  // Ten slots that passed 300 ms ago, as after a slow commit: released together, they go one gap apart.
  const past = performance.now() - 300
  const slots = Array.from({ length: 10 }, (_, i) => past + i * gap)
  const calledAt: Array<number> = []
  const releasedAt = performance.now()
  await Effect.runPromise(
    Effect.forEach(
      slots,
      (slot) => pacer.release("6660001", slot).pipe(Effect.map(() => calledAt.push(performance.now()))),
      {
        concurrency: "unbounded",
        discard: true,
      },
    ),
  )
  calledAt.sort((a, b) => a - b)
  // The i-th call no sooner than i gaps after they were released: never faster than the rate.
  for (const [i, at] of calledAt.entries()) expect(at - releasedAt).toBeGreaterThanOrEqual(i * gap - 1)
  // Another number is not held up by this one's spacing.
  const started = performance.now()
  await Effect.runPromise(pacer.release("6660002", 0))
  expect(performance.now() - started).toBeLessThan(gap)
})

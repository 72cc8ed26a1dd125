import { describe, expect, it } from "vitest"
import { makeMemoryRateLimiter } from "./memory-limiter.ts"

const limits = { generalPerWindow: 5, heavyPerWindow: 2, windowMs: 60_000 }

describe("the in-memory sliding-window limiter", () => {
  it("lets exactly the limit through within one window, at any alignment", async () => {
    let now = 1_000_000
    const limiter = makeMemoryRateLimiter(limits, () => now)
    const results: Array<boolean> = []
    for (let i = 0; i < 6; i++) {
      results.push((await limiter.check({ subject: "org:a", heavy: false })).allowed)
      now += 10_000 // six requests over 50 s: still one window
    }
    expect(results).toEqual([true, true, true, true, true, false])
  })

  it("frees capacity exactly when the oldest request leaves the window", async () => {
    let now = 0
    const limiter = makeMemoryRateLimiter(limits, () => now)
    for (let i = 0; i < 5; i++) await limiter.check({ subject: "s", heavy: false })
    now = 59_999
    const refused = await limiter.check({ subject: "s", heavy: false })
    expect(refused.allowed).toBe(false)
    expect(refused.state).toEqual({ limit: 5, remaining: 0, resetMs: 1 })
    now = 60_000
    expect((await limiter.check({ subject: "s", heavy: false })).allowed).toBe(true)
  })

  it("answers with the tighter limit on heavy routes and counts them in both", async () => {
    const limiter = makeMemoryRateLimiter(limits, () => 0)
    const first = await limiter.check({ subject: "s", heavy: true })
    expect(first.state).toMatchObject({ limit: 2, remaining: 1 })
    await limiter.check({ subject: "s", heavy: true })
    const third = await limiter.check({ subject: "s", heavy: true })
    expect(third.allowed).toBe(false)
    expect(third.state).toMatchObject({ limit: 2, remaining: 0 })
    // Two heavy requests also counted against the general limit of 5.
    expect((await limiter.check({ subject: "s", heavy: false })).state).toMatchObject({ limit: 5, remaining: 2 })
  })

  it("keeps subjects apart and forgets idle ones", async () => {
    let now = 0
    const limiter = makeMemoryRateLimiter(limits, () => now)
    for (let i = 0; i < 5; i++) await limiter.check({ subject: "a", heavy: false })
    expect((await limiter.check({ subject: "b", heavy: false })).allowed).toBe(true)
    now = 120_000
    limiter.sweep()
    expect(limiter.size).toBe(0)
  })
})

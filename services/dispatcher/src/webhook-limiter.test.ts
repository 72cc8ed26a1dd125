import { describe, expect, it } from "vitest"
import { WebhookLimiter } from "./webhook-limiter.ts"

const deferred = () => {
  let resolve = () => {}
  const promise = new Promise<void>((r) => {
    resolve = r
  })
  return { promise, resolve }
}

describe("WebhookLimiter", () => {
  it("never runs more than the bound at once for one webhook, and queues the rest", async () => {
    const limiter = new WebhookLimiter({ maxInFlight: 2, maxWaiting: 10 })
    const gate = deferred()
    let running = 0
    let peak = 0
    const work = async () => {
      running++
      peak = Math.max(peak, running)
      await gate.promise
      running--
    }
    const all = Array.from({ length: 6 }, () => limiter.tryRun("wh_a", work))
    await new Promise((r) => setImmediate(r))
    expect(running).toBe(2)
    gate.resolve()
    const results = await Promise.all(all)
    expect(peak).toBe(2)
    expect(results.every((r) => !r.saturated)).toBe(true)
    expect(limiter.inFlight("wh_a")).toBe(0)
  })

  it("lets another webhook run while one is at its bound", async () => {
    const limiter = new WebhookLimiter({ maxInFlight: 1, maxWaiting: 10 })
    const gate = deferred()
    const slow = limiter.tryRun("wh_slow", () => gate.promise)
    const fast = await limiter.tryRun("wh_fast", async () => "done")
    expect(fast).toEqual({ saturated: false, value: "done" })
    gate.resolve()
    await slow
  })

  it("answers saturated once a failing webhook's queue is full, without running the work", async () => {
    const limiter = new WebhookLimiter({ maxInFlight: 1, maxWaiting: 1 })
    await limiter.tryRun(
      "wh_a",
      async () => "failed",
      (v) => v === "failed",
    )
    const gate = deferred()
    const first = limiter.tryRun("wh_a", () => gate.promise)
    const second = limiter.tryRun("wh_a", async () => "queued")
    let ran = false
    const third = await limiter.tryRun("wh_a", async () => {
      ran = true
    })
    expect(third).toEqual({ saturated: true })
    expect(ran).toBe(false)
    gate.resolve()
    await first
    expect(await second).toEqual({ saturated: false, value: "queued" })
  })

  it("answers saturated for a hung webhook whose attempts have no outcome yet", async () => {
    let now = 0
    const limiter = new WebhookLimiter({ maxInFlight: 1, maxWaiting: 1, now: () => now })
    void limiter.tryRun("wh_hung", () => new Promise<void>(() => {}))
    void limiter.tryRun("wh_hung", async () => {})
    now = 1_500
    expect(await limiter.tryRun("wh_hung", async () => "ran")).toEqual({ saturated: true })
  })

  it("never parks a healthy webhook working through a burst", async () => {
    const limiter = new WebhookLimiter({ maxInFlight: 1, maxWaiting: 1 })
    const results = await Promise.all(Array.from({ length: 5 }, () => limiter.tryRun("wh_a", async () => "ok")))
    expect(results.every((r) => !r.saturated)).toBe(true)
  })
})

import { describe, expect, it } from "vitest"
import { type AttemptClass, WebhookShares, type WebhookSharesOptions } from "./webhook-shares.ts"

const shares = (overrides: Partial<WebhookSharesOptions> = {}) =>
  new WebhookShares({ first: 2, retry: 4, slowAttemptMs: 1_000, maxWaitMs: 1_000, ...overrides })

const settledWithin = async <A>(promise: Promise<A>, ms: number): Promise<{ value: A } | "pending"> =>
  Promise.race([
    promise.then((value) => ({ value })),
    new Promise<"pending">((resolve) => setTimeout(() => resolve("pending"), ms)),
  ])

describe("WebhookShares", () => {
  it("never gives one webhook more first attempts than its share, and lets another webhook run meanwhile", () => {
    const limiter = shares()
    const held = [limiter.tryAcquire("wh_a", "first"), limiter.tryAcquire("wh_a", "first")]
    expect(held.every((slot) => slot !== undefined)).toBe(true)
    expect(limiter.tryAcquire("wh_a", "first")).toBeUndefined()
    expect(limiter.tryAcquire("wh_b", "first")).toBeDefined()
    expect(limiter.inFlight("wh_a", "first")).toBe(2)
  })

  it("keeps retries out of the first attempts' share, so a backlog of first attempts never delays a retry", () => {
    const limiter = shares()
    limiter.tryAcquire("wh_a", "first")
    limiter.tryAcquire("wh_a", "first")
    const retries = Array.from({ length: 4 }, () => limiter.tryAcquire("wh_a", "retry"))
    expect(retries.every((slot) => slot !== undefined)).toBe(true)
    expect(limiter.tryAcquire("wh_a", "retry")).toBeUndefined()
  })

  it("hands a released place straight to the next waiter of a prompt webhook", async () => {
    const limiter = shares({ first: 1 })
    const first = limiter.tryAcquire("wh_a", "first")
    const waiting = limiter.acquire("wh_a", "first")
    expect(await settledWithin(waiting, 20)).toBe("pending")
    first?.release()
    const next = await waiting
    expect(next).toBeDefined()
    expect(limiter.inFlight("wh_a", "first")).toBe(1)
    next?.release()
    expect(limiter.inFlight("wh_a", "first")).toBe(0)
  })

  it("turns waiters away once an attempt in flight runs past the slow mark (a hung endpoint)", async () => {
    const limiter = shares({ first: 1, slowAttemptMs: 50, maxWaitMs: 10_000 })
    limiter.tryAcquire("wh_hung", "first")
    const waiting = limiter.acquire("wh_hung", "first")
    expect(await settledWithin(waiting, 500)).toEqual({ value: undefined })
    // And from then on nothing waits for it at all.
    expect(await settledWithin(limiter.acquire("wh_hung", "first"), 5)).toEqual({ value: undefined })
  })

  it("turns a waiter away after the longest wait even when the endpoint answers", async () => {
    const limiter = shares({ first: 1, slowAttemptMs: 10_000, maxWaitMs: 50 })
    limiter.tryAcquire("wh_busy", "first")
    const started = Date.now()
    expect(await limiter.acquire("wh_busy", "first")).toBeUndefined()
    expect(Date.now() - started).toBeGreaterThanOrEqual(45)
  })

  it("tells when a place frees with nobody waiting, per webhook and class", () => {
    const freed: Array<[string, AttemptClass]> = []
    const limiter = shares({ onFree: (webhookId, attemptClass) => freed.push([webhookId, attemptClass]) })
    const slot = limiter.tryAcquire("wh_a", "retry")
    slot?.release()
    slot?.release()
    expect(freed).toEqual([["wh_a", "retry"]])
    expect(limiter.inFlight("wh_a", "retry")).toBe(0)
  })

  it("remembers that a webhook's latest attempt was slow, so nothing waits for it while it has no attempt in flight", async () => {
    let now = 0
    const limiter = shares({ first: 1, slowAttemptMs: 100, now: () => now })
    const hung = limiter.tryAcquire("wh_hung", "first")
    now = 2_000
    hung?.release()
    limiter.tryAcquire("wh_hung", "first")
    expect(await settledWithin(limiter.acquire("wh_hung", "first"), 5)).toEqual({ value: undefined })
  })

  it("gives every other freed place to parked deliveries while deliveries also wait in memory", async () => {
    const freed: Array<string> = []
    const limiter = shares({
      first: 1,
      hasParked: () => true,
      onFree: (webhookId) => {
        freed.push(webhookId)
      },
    })
    const first = limiter.tryAcquire("wh_a", "first")
    const waiting = [limiter.acquire("wh_a", "first"), limiter.acquire("wh_a", "first")]
    first?.release()
    // This place went to the parked side: the parked work takes it as its drain would.
    expect(freed).toEqual(["wh_a"])
    const drained = limiter.tryAcquire("wh_a", "first")
    expect(drained).toBeDefined()
    drained?.release()
    // The next one goes to the first waiter.
    const next = await waiting[0]
    expect(next).toBeDefined()
    expect(freed).toEqual(["wh_a"])
    next?.release()
    limiter.tryAcquire("wh_a", "first")?.release()
    expect(await waiting[1]).toBeDefined()
  })
})

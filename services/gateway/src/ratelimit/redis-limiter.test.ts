import { makeLogger } from "@parley/platform"
import { Redis } from "ioredis"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeMemoryRateLimiter } from "./memory-limiter.ts"
import { makeRedisRateLimiter, withDeadline } from "./redis-limiter.ts"

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379"
let redis: Redis

beforeAll(async () => {
  redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 0 })
  await redis.ping()
})
afterAll(() => {
  redis?.disconnect()
})

/** Blocks the event loop, as a loaded host or a long garbage collection does. */
const stall = (ms: number) => {
  const until = Date.now() + ms
  while (Date.now() < until) {}
}

describe("withDeadline", () => {
  it("gives Redis's answer when the process itself stalled past the deadline after Redis answered", async () => {
    const answer = withDeadline(redis.ping(), 50)
    // Redis answers within a millisecond; the process does not look before the deadline has passed.
    stall(200)
    await expect(answer).resolves.toBe("PONG")
  })

  it("times out a command that gets no answer", async () => {
    await expect(withDeadline(new Promise<never>(() => {}), 20)).rejects.toThrow("did not answer within 20 ms")
  })
})

/** A limiter on this test's Redis, with a fallback that refuses everything (so a fallback answer shows). */
const limiterWith = (limits: { generalPerWindow: number; heavyPerWindow: number }, keyPrefix: string) =>
  makeRedisRateLimiter({
    redisUrl: REDIS_URL,
    limits: { ...limits, windowMs: 60_000 },
    keyPrefix,
    fallback: makeMemoryRateLimiter({ generalPerWindow: 0, heavyPerWindow: 0, windowMs: 60_000 }),
    logger: makeLogger({ service: "test", level: "silent" }),
    onFallbackChange: () => {},
  })

describe("the Redis limiter", () => {
  it("decides the requests of one turn in the order they came, each as if it ran alone", async () => {
    const limiter = limiterWith({ generalPerWindow: 3, heavyPerWindow: 1 }, `test:batch:${crypto.randomUUID()}:`)
    try {
      expect(await limiter.connected(2_000)).toBe(true)
      // All in one turn: one script call per subject. A refused request is not counted, so the
      // general limit's third place goes to the last request, not the refused heavy one.
      const decisions = await Promise.all([
        limiter.check({ subject: "org:a", heavy: true }),
        limiter.check({ subject: "org:b", heavy: false }),
        limiter.check({ subject: "org:a", heavy: false }),
        limiter.check({ subject: "org:a", heavy: true }),
        limiter.check({ subject: "org:a", heavy: false }),
        limiter.check({ subject: "org:a", heavy: false }),
      ])
      expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false, true, false])
      expect(decisions.map((d) => [d.state.limit, d.state.remaining])).toEqual([
        [1, 0],
        [3, 2],
        [3, 1],
        [1, 0],
        [3, 0],
        [3, 0],
      ])
      // Counted in Redis, not by the fallback (whose limits of 0 would have refused every one).
      expect(limiter.usingFallback).toBe(false)
    } finally {
      await limiter.close()
    }
  })
  it("counts every request of a turn larger than one ZADD carries", async () => {
    const keyPrefix = `test:batch:${crypto.randomUUID()}:`
    const limiter = limiterWith({ generalPerWindow: 1_000, heavyPerWindow: 1_000 }, keyPrefix)
    try {
      expect(await limiter.connected(2_000)).toBe(true)
      // The script adds a batch's members 200 at a time: 450 requests take three ZADDs.
      const decisions = await Promise.all(
        Array.from({ length: 450 }, () => limiter.check({ subject: "org:many", heavy: false })),
      )
      expect(decisions.every((d) => d.allowed)).toBe(true)
      expect(decisions.at(-1)?.state.remaining).toBe(550)
      expect(await redis.zcard(`${keyPrefix}{org:many}:general`)).toBe(450)
      expect((await limiter.check({ subject: "org:many", heavy: false })).state.remaining).toBe(549)
    } finally {
      await limiter.close()
    }
  })
})

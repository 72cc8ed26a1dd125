import { Redis } from "ioredis"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { withDeadline } from "./redis-limiter.ts"

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

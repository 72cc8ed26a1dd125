import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Answer, type System, startSystem } from "./support/system.ts"

// docs/contract.md §1 429 and §3: a system booted with small limits answers the request past the limit
// with 429 `rate_limited`, `Retry-After` and the `RateLimit-*` headers, exactly at the boundary.
// Large enough that the few unauthenticated setup calls (per IP) of back-to-back runs stay under it.
const GENERAL = 40
const HEAVY = 3
let system: System

beforeAll(async () => {
  system = await startSystem({
    env: {
      PARLEY_RATE_GENERAL_PER_MIN: String(GENERAL),
      PARLEY_RATE_HEAVY_PER_MIN: String(HEAVY),
      // Unauthenticated requests (the operator call, logins) are counted per client IP, shared with
      // every other test of this machine on the same Redis: a database of Redis of its own keeps
      // their counts out of this file's small limit.
      REDIS_URL: `${process.env.REDIS_URL ?? "redis://127.0.0.1:6379"}/9`,
    },
  })
}, 60_000)

afterAll(async () => {
  await system?.close()
})

const expectRateLimited = (answer: Answer, limit: number) => {
  expect(answer.status, answer.text).toBe(429)
  expect(answer.body).toEqual({ error: "Too many requests, slow down", code: "rate_limited" })
  const retryAfter = Number(answer.headers.get("retry-after"))
  expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`).toBe(true)
  expect(answer.headers.get("ratelimit-limit")).toBe(String(limit))
  expect(answer.headers.get("ratelimit-remaining")).toBe("0")
  expect(Number(answer.headers.get("ratelimit-reset"))).toBeGreaterThanOrEqual(1)
  expect(answer.headers.get("ratelimit-policy")).toBe(`${limit};w=60`)
  expect(answer.headers.get("x-request-id")).toBeTruthy()
}

describe("the general limit", () => {
  it(`lets exactly ${GENERAL} requests of an organization through, then answers 429 with Retry-After`, async () => {
    const tenant = await system.createTenant()
    const answers: Array<Answer> = []
    for (let i = 0; i < GENERAL; i++) answers.push(await tenant.admin.client.get("/api/org/webhooks"))
    expect(answers.map((answer) => answer.status)).toEqual(Array(GENERAL).fill(200))
    expect(answers.map((answer) => answer.headers.get("ratelimit-remaining"))).toEqual(
      Array.from({ length: GENERAL }, (_, i) => String(GENERAL - 1 - i)),
    )
    expect(answers[0]?.headers.get("ratelimit-policy")).toBe(`${GENERAL};w=60`)
    expectRateLimited(await tenant.admin.client.get("/api/org/webhooks"), GENERAL)
    // Another organization is counted apart.
    const other = await system.createTenant()
    expect((await other.admin.client.get("/api/org/webhooks")).status).toBe(200)
  })

  it("does not count health probes", async () => {
    const probe = await system.call("GET", "/health/live")
    expect(probe.status).toBe(200)
    expect(probe.headers.get("ratelimit-limit")).toBeNull()
  })
})

describe("the heavy limit", () => {
  it(`answers the ${HEAVY + 1}th export of a minute with 429, the heavy limit answering`, async () => {
    const tenant = await system.createTenant()
    for (let i = 0; i < HEAVY; i++) {
      const exported = await tenant.admin.client.get("/api/leads/export")
      expect(exported.status, exported.text).toBe(200)
      expect(exported.headers.get("ratelimit-limit")).toBe(String(HEAVY))
    }
    expectRateLimited(await tenant.admin.client.get("/api/leads/export"), HEAVY)
    // Light routes of the organization still pass: the general limit has room left.
    expect((await tenant.admin.client.get("/api/org/webhooks")).status).toBe(200)
  })
})

import { eventually } from "@parley/platform/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Answer, type MintedKey, type System, startSystem, type Tenant } from "./support/system.ts"

// docs/contract.md §1 503: "a dependency is down; Retry-After is set". The dependency taken down here is
// real: the TCP path from the services to Postgres is cut (open connections reset, new ones
// refused), then restored. Every service must answer 503 `unavailable` meanwhile — never 500 —
// and serve again once the database is back.
let system: System
let tenant: Tenant
let key: MintedKey

const ROUTES: ReadonlyArray<[string, string]> = [
  ["GET", "/api/org/members"],
  ["GET", "/api/org/webhooks"],
  ["GET", "/api/leads"],
  ["GET", "/api/channels"],
  ["GET", "/api/contacts"],
]

beforeAll(async () => {
  system = await startSystem()
  tenant = await system.createTenant()
  key = await tenant.mintKey()
}, 60_000)

afterAll(async () => {
  await system?.close()
})

const outcome = (answer: Answer) => ({
  status: answer.status,
  body: answer.body,
  retryAfter: Number(answer.headers.get("retry-after")) >= 1,
})

/**
 * The call's outcome, or "no answer" when none came within 10 s: a request left hanging is no 503
 * either. They answer in milliseconds now that the bus does not share their pool; the bound is the
 * database client's 5 s connect timeout and its reconnect delay (at most 1 s) with room to spare.
 */
const attempt = async (method: string, path: string, options: Parameters<System["call"]>[2]) => {
  try {
    return outcome(await system.call(method, path, { ...options, timeoutMs: 10_000 }))
  } catch {
    return "no answer within 10 s"
  }
}
const UNAVAILABLE = {
  status: 503,
  body: { error: "Service temporarily unavailable", code: "unavailable" },
  retryAfter: true,
}

describe("with the database down", () => {
  // Requests used to queue behind the bus's workers retrying their fetches in one shared pool and
  // answer after 17–30 s, or not within 20 s: the single-node bus now has a pool of its own, and
  // postgres.js's reconnect delay is capped at a second (packages/bus/src/infrastructure.ts).
  it("every service answers 503 with Retry-After, then serves again once it is back", {
    timeout: 240_000,
  }, async () => {
    for (const [method, path] of ROUTES) expect((await system.call(method, path, { key: key.key })).status).toBe(200)

    await system.databaseLink.cut()
    const seen: Record<string, unknown> = {}
    try {
      for (const [method, path] of ROUTES) {
        seen[`${method} ${path} (key)`] = await attempt(method, path, { key: key.key })
      }
      // A session is looked up at identity, whose database is down too.
      seen["GET /api/org/webhooks (session)"] = await attempt("GET", "/api/org/webhooks", {
        cookie: tenant.admin.cookie,
      })
    } finally {
      await system.databaseLink.restore()
    }

    // Back: every service serves again (a request still hanging or failing names its route).
    const recovered: Record<string, unknown> = {}
    await eventually(
      async () => {
        for (const [method, path] of ROUTES)
          recovered[`${method} ${path}`] = await attempt(method, path, { key: key.key })
        expect(Object.values(recovered).every((seen) => (seen as { status?: number }).status === 200)).toBe(true)
      },
      { timeoutMs: 15_000, intervalMs: 250 },
    ).catch(() => {})
    // Judged once the database is back, so that a failure leaves a system that shuts down cleanly.
    expect(seen).toEqual(Object.fromEntries(Object.keys(seen).map((route) => [route, UNAVAILABLE])))
    expect(
      Object.fromEntries(
        Object.entries(recovered).map(([route, seen]) => [route, (seen as { status?: number }).status ?? seen]),
      ),
    ).toEqual(Object.fromEntries(ROUTES.map(([method, path]) => [`${method} ${path}`, 200])))
  })
})

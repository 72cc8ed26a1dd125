import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  admin,
  call,
  newOrg,
  type RunningApp,
  startApp,
  startInfrastructure,
  type TestInfrastructure,
} from "./harness.ts"

let infra: TestInfrastructure
let app: RunningApp

beforeAll(async () => {
  infra = await startInfrastructure()
  app = await startApp(infra, { background: false })
})
afterAll(async () => {
  await app?.stop()
  await infra?.close()
})

const ROUTES: ReadonlyArray<readonly ["GET" | "POST" | "PUT", string, "widget" | "admin"]> = [
  ["POST", "/api/public/chat", "widget"],
  ["POST", "/api/public/chat/reset", "widget"],
  ["GET", "/api/public/chat/ses_x", "widget"],
  ["GET", "/api/public/bookings/slots", "widget"],
  ["POST", "/api/public/bookings", "widget"],
  ["GET", "/api/leads", "admin"],
  ["GET", "/api/leads/export", "admin"],
  ["GET", "/api/bookings", "admin"],
  ["GET", "/api/bookings/settings", "admin"],
  ["PUT", "/api/bookings/settings", "admin"],
  ["GET", "/api/conversations", "admin"],
  ["GET", "/api/conversations/cnv_0123456789abcdefABCD", "admin"],
  ["POST", "/api/conversations/cnv_0123456789abcdefABCD/messages", "admin"],
]

const BAD_BODIES: ReadonlyArray<unknown> = [
  null,
  [],
  "text",
  42,
  { message: ["a"] },
  { sessionId: {}, name: null },
  { date: "2026-99-99", time: "25:61" },
]
const BAD_QUERIES = [
  "?date=%00",
  "?limit=-1",
  "?cursor=%FF%FE",
  `?date=2026-01-01&service=${"x".repeat(500)}`,
  "?type[]=a",
]

describe("bad input is a 4xx, never a 500", () => {
  it.each(ROUTES.filter(([method]) => method !== "GET"))(
    "%s %s refuses malformed bodies",
    async (method, url, caller) => {
      for (const body of BAD_BODIES) {
        const response = await call(app, newOrg(), caller, method, url, body)
        expect(response.statusCode, `${JSON.stringify(body)} → ${response.body}`).toBeGreaterThanOrEqual(400)
        expect(response.statusCode, `${JSON.stringify(body)} → ${response.body}`).toBeLessThan(500)
      }
    },
  )

  it.each(ROUTES.filter(([method]) => method === "GET"))(
    "%s %s survives malformed queries",
    async (method, url, caller) => {
      for (const query of BAD_QUERIES) {
        const response = await call(app, newOrg(), caller, method, `${url}${query}`)
        expect(response.statusCode, `${query} → ${response.body}`).toBeLessThan(500)
      }
    },
  )

  it("answers a JSON route sent another content type with 415", async () => {
    const response = await app.app.inject({
      method: "POST",
      url: "/api/public/chat",
      headers: { "content-type": "text/plain", "x-parley-principal": "x" },
      payload: "hello",
    })
    expect([401, 415]).toContain(response.statusCode)
  })
})

describe("every route needs the gateway's principal", () => {
  it.each(ROUTES)("%s %s without it is 401", async (method, url) => {
    const response = await app.app.inject({ method, url })
    expect(response.statusCode).toBe(401)
  })
})

describe("settings belong to one organization", () => {
  it("never lets one organization's settings change another's slots", async () => {
    const owner = newOrg()
    const other = newOrg()
    await admin(app, owner, "PUT", "/api/bookings/settings", {
      timezone: "Asia/Tokyo",
      services: ["tea ceremony"],
      slotMinutes: 90,
      capacity: 3,
      hours: {},
    })
    expect((await admin(app, other, "GET", "/api/bookings/settings")).json()).toMatchObject({
      timezone: "UTC",
      services: ["consultation"],
    })
  })
})

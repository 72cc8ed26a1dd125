import { Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  asTenant,
  type FakeProvider,
  newOrg,
  type RunningApp,
  startApp,
  startFakeProvider,
  startInfrastructure,
  type TestInfrastructure,
  testConfig,
} from "./harness.ts"

/**
 * docs/contract.md §1: a query that fails validation is 400 `invalid_request`. A cursor is opaque,
 * so a tampered one is such a query — it once reached Postgres as a date it refuses (year 0000,
 * 30 February) or a key holding NUL, and every list answered 500.
 */

let infra: TestInfrastructure
let provider: FakeProvider
let app: RunningApp
const orgId = newOrg()

beforeAll(async () => {
  infra = await startInfrastructure()
  provider = await startFakeProvider()
  app = await startApp(infra, {
    config: testConfig(provider.server.url, { cloudAppSecret: Option.none(), cloudVerifyToken: Option.none() }),
  })
})

afterAll(async () => {
  await app?.stop()
  await provider?.server.close()
  await infra?.close()
})

const cursorOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url")

/** Each list with a key of the shape it orders by, so that only the tampered part is wrong. */
const lists = [
  ["/api/messages", "msg_0123456789abcdefABCDEF"],
  ["/api/contacts", "ct_0123456789abcdefABCDEF"],
  ["/api/campaigns", "cmp_0123456789abcdefABCDEF"],
  ["/api/sandbox/outbox", "wamid.0123456789abcdefABCDEF01"],
  ["/api/contacts/opt-outs", "14155550100"],
] as const

const tampered = (key: string) => [
  ["year 0000, as found", cursorOf(["0000-01-01 00:00:00+00", "x"])],
  ["30 February, as found", cursorOf(["2026-02-30 00:00:00+00", "x"])],
  ["a NUL in the id, as found", cursorOf(["2026-11-29 13:20:01.123456+00", "x\u0000"])],
  ["year 0000 with a well-formed key", cursorOf(["0000-01-01 00:00:00+00", key])],
  ["30 February with a well-formed key", cursorOf(["2026-02-30 00:00:00+00", key])],
  ["hour 24 with a well-formed key", cursorOf(["2026-11-29 24:00:00+00", key])],
  ["a NUL after a well-formed key", cursorOf(["2026-11-29 13:20:01.123456+00", `${key}\u0000`])],
  ["a NUL in the time", cursorOf(["2026-11-29 13:20:01\u0000+00", key])],
  ["a number for the key", cursorOf(["2026-11-29 13:20:01+00", 7])],
]

describe.each(lists)("GET %s with a tampered cursor", (path, key) => {
  it.each(tampered(key))("answers 400 invalid_request for %s", async (_, cursor) => {
    const response = await asTenant(app, orgId, "GET", `${path}?cursor=${cursor}`)
    expect(response.statusCode, response.body).toBe(400)
    expect(response.json()).toMatchObject({ code: "invalid_request", issues: [{ path: "cursor" }] })
  })

  it("still pages from a cursor of the same shape that names a real instant", async () => {
    const response = await asTenant(app, orgId, "GET", `${path}?cursor=${cursorOf(["2026-11-29 13:20:01+00", key])}`)
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json().data).toEqual([])
  })
})

describe("the sandbox outbox's own cursors", () => {
  it("page through what the sandbox provider received, newest first, with nothing skipped or repeated", async () => {
    const org = newOrg()
    expect((await asTenant(app, org, "PUT", "/api/channels/cloud", { sandbox: true })).statusCode).toBe(200)
    const numbers = ["14155550171", "14155550172", "14155550173"]
    for (const to of numbers) {
      expect((await asTenant(app, org, "POST", "/api/sandbox/inbound", { from: to, text: "hi" })).statusCode).toBe(202)
      const sent = await asTenant(app, org, "POST", "/api/messages", { to, text: `hello ${to}` })
      expect(sent.statusCode, sent.body).toBe(202)
    }
    const first = (await asTenant(app, org, "GET", "/api/sandbox/outbox?limit=2")).json()
    expect(first.data).toHaveLength(2)
    const second = (await asTenant(app, org, "GET", `/api/sandbox/outbox?limit=2&cursor=${first.nextCursor}`)).json()
    expect(second.nextCursor).toBeNull()
    const seen = [...first.data, ...second.data].map((row: { to: string }) => row.to)
    expect(seen.sort()).toEqual(numbers)
  })
})

describe("a campaign's recipients with a tampered cursor", () => {
  it("answers a list position past what the list can hold (its seq is a Postgres integer) with 400, not 500", async () => {
    const id = "cmp_tamperedtamperedtamp"
    // A completed campaign of no recipients, stored as the service stores one.
    await infra.db.sql`
      insert into messaging.campaigns (id, org_id, name, template_name, template_language, status, total_recipients)
      values (${id}, ${orgId}, 'Tampered', 'plain', 'en_US', 'completed', 0)`
    for (const seq of [2147483648, 9007199254740991, -1, 1.5]) {
      const response = await asTenant(
        app,
        orgId,
        "GET",
        `/api/campaigns/${id}/recipients?cursor=${cursorOf([id, seq])}`,
      )
      expect(response.statusCode, `${seq}: ${response.body}`).toBe(400)
      expect(response.json()).toMatchObject({ code: "invalid_request" })
    }
    const last = await asTenant(
      app,
      orgId,
      "GET",
      `/api/campaigns/${id}/recipients?cursor=${cursorOf([id, 2147483647])}`,
    )
    expect(last.statusCode, last.body).toBe(200)
    expect(last.json()).toEqual({ data: [], nextCursor: null })
  })
})

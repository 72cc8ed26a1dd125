/**
 * Page cursors are opaque, so whatever comes back is read strictly before a query sees it
 * (docs/contract.md §1: a value that fails validation is 400 `invalid_request`). A black-box tester
 * found tampered cursors answering 500 on other services' lists; these are the assistant's lists,
 * each with a cursor whose id is well formed and whose time names no instant, and a sequence past
 * Postgres' bigint.
 */
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

const cursor = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url")
const id = (prefix: string) => `${prefix}_0000000000000000000001`
const TIMES = [
  "0000-01-01 00:00:00+00",
  "2026-02-30 00:00:00+00",
  "2026-11-29 24:00:00+00",
  "+275760-09-13 00:00:00+00",
]

describe("a tampered cursor on the assistant's lists", () => {
  it.each([
    ["/api/leads", "lead"],
    ["/api/bookings", "bkg"],
    ["/api/conversations", "cnv"],
  ])("answers %s with 400 for a time that names no instant, or a NUL in the id", async (path, prefix) => {
    const orgId = newOrg()
    for (const tampered of [
      ...TIMES.map((at) => cursor([at, id(prefix)])),
      cursor(["2026-11-29 10:00:00+00", `${id(prefix)}\u0000`]),
    ]) {
      const response = await admin(app, orgId, "GET", `${path}?cursor=${tampered}`)
      expect({ path, tampered, status: response.statusCode, code: response.json().code }).toEqual({
        path,
        tampered,
        status: 400,
        code: "invalid_request",
      })
    }
    // A cursor of the right form still pages.
    expect(
      (await admin(app, orgId, "GET", `${path}?cursor=${cursor(["2026-11-29 10:00:00+00", id(prefix)])}`)).statusCode,
    ).toBe(200)
  })

  it("answers a conversation's message cursor past bigint with 400", async () => {
    const orgId = newOrg()
    const started = await call(app, orgId, "widget", "POST", "/api/public/chat", { message: "Hello there" })
    expect(started.statusCode).toBe(200)
    const listed = await admin(app, orgId, "GET", "/api/conversations")
    const conversation = listed.json().data[0].id as string
    const past = await admin(
      app,
      orgId,
      "GET",
      `/api/conversations/${conversation}?cursor=${cursor(["seq", "9999999999999999999"])}`,
    )
    expect(past.statusCode).toBe(400)
    const within = await admin(app, orgId, "GET", `/api/conversations/${conversation}?cursor=${cursor(["seq", "1"])}`)
    expect(within.statusCode).toBe(200)
  })
})

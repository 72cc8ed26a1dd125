import type { OrgId, WebhookId } from "@parley/contracts"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeRegistryHarness, newOrg, type RegistryHarness } from "./harness.ts"

/**
 * docs/contract.md §1: a query or body that fails validation is 400 `invalid_request`. The delivery
 * log's cursor and a replay's `since` once reached Postgres as a year it does not have (0000), a
 * sequence past bigint or a year past JavaScript's, and answered 500.
 */

let harness: RegistryHarness
let org: OrgId
let webhookId: WebhookId
beforeAll(async () => {
  harness = await makeRegistryHarness()
  org = newOrg()
  webhookId = (
    await harness.request({ method: "POST", url: "/api/org/webhooks", org, payload: { url: "http://127.0.0.1:9/x" } })
  ).json().id
})
afterAll(() => harness?.close())

const cursorOf = (text: string) => Buffer.from(text).toString("base64url")

describe("the delivery log with a tampered cursor", () => {
  it.each([
    "0000-01-01T00:00:00.000Z|1",
    "2026-11-29T10:00:00.000Z|99999999999999999999999",
    "2026-11-29T10:00:00.000Z|9223372036854775808",
    "+275760-09-13T00:00:00.000Z|1",
    "2026-02-30T00:00:00.000Z|1",
    "2026-11-29T24:00:00.000Z|1",
    "2026-11-29T10:00:00.000Z|-1",
    "2026-11-29T10:00:00.000Z|1\u0000",
    "2026-11-29T10:00:00.000Z|1|2",
    "2026-11-29T10:00:00.000Z",
  ])("answers 400 invalid_request for %j", async (text) => {
    const response = await harness.request({
      method: "GET",
      url: `/api/org/webhooks/${webhookId}/deliveries?cursor=${cursorOf(text)}`,
      org,
    })
    expect(response.statusCode, response.body).toBe(400)
    expect(response.json()).toMatchObject({ code: "invalid_request", issues: [{ path: "cursor" }] })
  })

  it("still reads a cursor of its form that names a real instant and a sequence bigint holds", async () => {
    const response = await harness.request({
      method: "GET",
      url: `/api/org/webhooks/${webhookId}/deliveries?cursor=${cursorOf("2026-11-29T10:00:00.000Z|9223372036854775807")}`,
      org,
    })
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json()).toEqual({ data: [], nextCursor: null })
  })
})

describe("a replay with a time that is none", () => {
  const replay = (payload: Record<string, string>) =>
    harness.request({ method: "POST", url: `/api/org/webhooks/${webhookId}/replay`, org, payload })

  it.each([
    [{ since: "0000-01-01T00:00:00.000Z" }, "since"],
    [{ since: "2026-02-30T00:00:00.000Z" }, "since"],
    [{ since: "2026-11-29T24:00:00.000Z" }, "since"],
    [{ since: "+275760-09-13T00:00:00.000Z" }, "since"],
    [{ since: "0001-01-01T00:30:00+01:00" }, "since"],
    [{ since: "2026-11-01T00:00:00.000Z", until: "0000-01-01T00:00:00.000Z" }, "until"],
    [{ since: "2026-11-01T00:00:00.000Z", until: "9999-12-31T23:00:00-05:00" }, "until"],
  ])("answers 400 invalid_request naming the field for %j", async (payload, field) => {
    const response = await replay(payload)
    expect(response.statusCode, response.body).toBe(400)
    expect(response.json()).toMatchObject({ code: "invalid_request", issues: [{ path: field }] })
  })

  it("takes the earliest and latest times it reads", async () => {
    const response = await replay({ since: "0001-01-01T00:00:00.000Z", until: "9999-12-31T23:59:59.999Z" })
    expect(response.statusCode, response.body).toBe(202)
    expect(response.json()).toEqual({ queued: 0 })
  })
})

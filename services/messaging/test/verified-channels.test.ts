import type { OrgId } from "@parley/contracts"
import { startHttpServer } from "@parley/platform/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  API_VERSION,
  asTenant,
  eventsOf,
  type FakeProvider,
  inboundPayload,
  newOrg,
  postCloudWebhook,
  type RunningApp,
  startApp,
  startFakeProvider,
  startInfrastructure,
  type TestInfrastructure,
  testConfig,
} from "./harness.ts"

/**
 * docs/contract.md §10.1: connecting a cloud channel asks the provider (a loopback stand-in of the Graph
 * API) whether the token can read the number before anything is stored.
 */

let infra: TestInfrastructure
let provider: FakeProvider
let app: RunningApp

beforeAll(async () => {
  infra = await startInfrastructure()
  provider = await startFakeProvider()
  app = await startApp(infra, { config: testConfig(provider.server.url), background: false })
})

afterAll(async () => {
  await app?.stop()
  await provider?.server.close()
  await infra?.close()
})

const put = (orgId: OrgId, phoneNumberId: string, accessToken: string, businessAccountId = `9${phoneNumberId}`) =>
  asTenant(app, orgId, "PUT", "/api/channels/cloud", { phoneNumberId, businessAccountId, accessToken })

const channelsOf = async (orgId: OrgId) => (await asTenant(app, orgId, "GET", "/api/channels")).json().data

describe("connecting a real cloud channel", () => {
  it("asks GET /<version>/<phoneNumberId> with the token, then stores it connected with the provider's display number", async () => {
    const org = newOrg()
    const response = await put(org, "4440001", "good-token-1")
    expect(response.statusCode).toBe(200)
    expect(response.json()).toMatchObject({
      type: "cloud",
      sandbox: false,
      status: "connected",
      phoneNumberId: "4440001",
      displayPhoneNumber: "+1 555-010-0000",
    })
    expect(provider.numberReads().at(-1)).toEqual({ phoneNumberId: "4440001", auth: "Bearer good-token-1" })
    expect(provider.server.requests.at(-1)?.path).toBe(`/${API_VERSION}/4440001`)
  })

  it("refuses a token the provider refuses (code 190) with 400 naming accessToken, and keeps the channel as it was", async () => {
    const org = newOrg()
    expect((await put(org, "4440002", "good-token-2")).statusCode).toBe(200)
    const before = await channelsOf(org)
    const response = await put(org, "4440003", "invalid-token")
    expect(response.statusCode).toBe(400)
    const body = response.json()
    expect(body.code).toBe("invalid_request")
    expect(body.error).toMatch(/^Invalid request: accessToken: the provider refused the access token/)
    expect(body.issues).toEqual([{ path: "accessToken", message: "the provider refused the access token" }])
    expect(await channelsOf(org)).toEqual(before)
  })

  it("refuses a number the provider does not know or the token cannot read (code 100) with 400 naming phoneNumberId", async () => {
    const org = newOrg()
    provider.ownNumber("4440004", "owners-token")
    const response = await put(org, "4440004", "someone-elses-token")
    expect(response.statusCode).toBe(400)
    expect(response.json().issues).toEqual([{ path: "phoneNumberId", message: expect.any(String) }])
    expect(await channelsOf(org)).toEqual([])
  })

  it("maps a permission refusal (code 10, HTTP 403) to phoneNumberId and an expired session (code 102) to accessToken", async () => {
    const org = newOrg()
    provider.failNext({ status: 403, body: { error: { message: "(#10) Permission denied", code: 10 } } })
    const denied = await put(org, "4440005", "good-token-5")
    expect(denied.statusCode).toBe(400)
    expect(denied.json().issues[0].path).toBe("phoneNumberId")
    provider.failNext({ status: 400, body: { error: { message: "Session expired", code: 102 } } })
    const expired = await put(org, "4440005", "good-token-5")
    expect(expired.json().issues[0].path).toBe("accessToken")
    expect(await channelsOf(org)).toEqual([])
  })

  it("answers 503 with Retry-After when the provider is down or rate limiting, and stores nothing", async () => {
    const org = newOrg()
    expect((await put(org, "4440006", "good-token-6")).statusCode).toBe(200)
    const before = await channelsOf(org)
    provider.failNext({ status: 500, body: { error: { message: "An unknown error occurred", code: 1 } } })
    const down = await put(org, "4440007", "good-token-7")
    expect(down.statusCode).toBe(503)
    expect(down.json()).toEqual({ error: "Service temporarily unavailable", code: "unavailable" })
    expect(down.headers["retry-after"]).toBeDefined()
    provider.failNext({ status: 400, body: { error: { message: "Application request limit reached", code: 4 } } })
    expect((await put(org, "4440007", "good-token-7")).statusCode).toBe(503)
    expect(await channelsOf(org)).toEqual(before)
  })

  it("answers 503 when the provider cannot be reached at all", async () => {
    const closed = await startHttpServer(async () => ({ status: 200, body: {} }))
    const url = closed.url
    await closed.close()
    const offline = await startApp(infra, { config: testConfig(url), background: false })
    try {
      const response = await asTenant(offline, newOrg(), "PUT", "/api/channels/cloud", {
        phoneNumberId: "4440008",
        businessAccountId: "94440008",
        accessToken: "good-token-8",
      })
      expect(response.statusCode).toBe(503)
    } finally {
      await offline.stop()
    }
  })

  it("lists a channel stored before verification existed as unverified", async () => {
    const org = newOrg()
    await put(org, "4440009", "good-token-9")
    await infra.db.sql`update messaging.channels set verified_at = null where org_id = ${org}`
    expect((await channelsOf(org))[0].status).toBe("unverified")
  })

  it("shows the callback URL and the verify token to paste into the provider's app settings", async () => {
    const listed = await asTenant(app, newOrg(), "GET", "/api/channels")
    expect(listed.json().cloudWebhook).toEqual({
      callbackUrl: "http://localhost:3000/channels/cloud/webhook",
      verifyToken: "test-verify-token",
    })
  })
})

describe("claiming another business's number (the takeover the verification closes)", () => {
  it("refuses a tenant whose token cannot read the number, and the owner keeps receiving its customers' messages", async () => {
    const owner = newOrg()
    const intruder = newOrg()
    provider.ownNumber("4449999", "owner-token")
    expect((await put(owner, "4449999", "owner-token")).statusCode).toBe(200)

    // Before the owner connected, or after: either way the intruder's token cannot read it.
    const claim = await put(intruder, "4449999", "intruder-token", "94449999")
    expect(claim.statusCode).toBe(400)
    expect(claim.json().issues[0].path).toBe("phoneNumberId")
    const early = newOrg()
    provider.ownNumber("4448888", "real-owner-token")
    expect((await put(early, "4448888", "squatter-token")).statusCode).toBe(400)
    expect(await channelsOf(early)).toEqual([])

    const delivered = await postCloudWebhook(
      app,
      inboundPayload("4449999", [
        { from: "15551230000", id: "wamid.takeover-1", timestamp: "1", type: "text", text: { body: "hello" } },
      ]),
    )
    expect(delivered.statusCode).toBe(200)
    expect(await eventsOf(infra, owner, "message.inbound")).toHaveLength(1)
    expect(await eventsOf(infra, intruder, "message.inbound")).toHaveLength(0)
    expect(await channelsOf(intruder)).toEqual([])
  })
})

import type { OrgId } from "@parley/contracts"
import { type StubServer, startHttpServer } from "@parley/platform/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  asTenant,
  connectCloud,
  customerWrites,
  eventsOf,
  type FakeProvider,
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
 * docs/contract.md §7: `message.status` fires only for a message sent through Parley. A bridge
 * holding an organization's token, or the provider's webhook for a connected number, once fired it
 * for any id at all — one made up, or another organization's message.
 */

let infra: TestInfrastructure
let provider: FakeProvider
let bridge: StubServer
let app: RunningApp
const orgA = newOrg()
const orgB = newOrg()
const tokens = new Map<OrgId, string>()
const PHONE_A = "1110701"
const PHONE_B = "1110702"

beforeAll(async () => {
  infra = await startInfrastructure()
  provider = await startFakeProvider()
  bridge = await startHttpServer(() => ({ status: 200, body: { ok: true } }))
  app = await startApp(infra, { config: testConfig(provider.server.url), retryBaseMs: 20 })
  for (const org of [orgA, orgB]) {
    const response = await asTenant(app, org, "PUT", "/api/channels/bridge", { outboundUrl: `${bridge.url}/send` })
    expect(response.statusCode).toBe(200)
    tokens.set(org, response.json().inboundToken)
  }
  await connectCloud(app, orgA, PHONE_A)
  await connectCloud(app, orgB, PHONE_B)
})

afterAll(async () => {
  await app?.stop()
  await bridge?.close()
  await provider?.server.close()
  await infra?.close()
})

const bridgeStatus = (org: OrgId, body: unknown) =>
  app.http.inject({
    method: "POST",
    url: "/channels/bridge/status",
    headers: { "content-type": "application/json", authorization: `Bearer ${tokens.get(org)}` },
    payload: JSON.stringify(body),
  })

const sendThrough = async (org: OrgId, channel: "cloud" | "bridge", to: string): Promise<string> => {
  const response = await asTenant(app, org, "POST", "/api/messages", { to, channel, text: "Your order is ready" })
  expect(response.statusCode, response.body).toBe(202)
  return response.json().messageId
}

const cloudStatus = (phoneNumberId: string, id: string, recipient: string, status = "read") =>
  postCloudWebhook(app, {
    object: "whatsapp_business_account",
    entry: [
      {
        id: `555${phoneNumberId}`,
        changes: [
          {
            field: "messages",
            value: {
              metadata: { phone_number_id: phoneNumberId },
              statuses: [{ id, status, timestamp: "1700000001", recipient_id: recipient }],
            },
          },
        ],
      },
    ],
  })

const statusesOf = async (org: OrgId, messageId: string) =>
  (await eventsOf(infra, org, "message.status")).filter((e) => e.data.messageId === messageId)

describe("a bridge status for a message Parley never sent", () => {
  it("answers 404 not_found for a made-up id, and no webhook hears of it", async () => {
    const response = await bridgeStatus(orgA, {
      messageId: "totally-made-up-1",
      status: "read",
      recipient: "19995550000",
    })
    expect(response.statusCode).toBe(404)
    expect(response.json()).toEqual({ error: "Not found", code: "not_found" })
    expect(await statusesOf(orgA, "totally-made-up-1")).toEqual([])
    const [stored] = await infra.db.sql`
      select count(*)::int as n from messaging.message_statuses where provider_message_id = 'totally-made-up-1'`
    expect(stored?.n).toBe(0)
  })

  it("answers another organization's message id exactly as a made-up one, and fires nothing for either", async () => {
    const theirs = await sendThrough(orgB, "bridge", "447700900301")
    const response = await bridgeStatus(orgA, { messageId: theirs, status: "read", recipient: "447700900301" })
    expect(response.statusCode).toBe(404)
    expect(response.json()).toEqual({ error: "Not found", code: "not_found" })
    expect(await statusesOf(orgA, theirs)).toEqual([])
    expect(await statusesOf(orgB, theirs)).toEqual([])
    // Their own bridge reporting it is another matter.
    expect(
      (await bridgeStatus(orgB, { messageId: theirs, status: "read", recipient: "447700900301" })).statusCode,
    ).toBe(200)
    expect((await statusesOf(orgB, theirs)).map((e) => e.data.status)).toEqual(["read"])
  })

  it("answers 404 for the id of a message a customer sent in, or one sent on the cloud channel", async () => {
    const inbound = { from: "447700900302", type: "text", text: "hello", messageId: "bridge-in-302" }
    const posted = await app.http.inject({
      method: "POST",
      url: "/channels/bridge/inbound",
      headers: { "content-type": "application/json", authorization: `Bearer ${tokens.get(orgA)}` },
      payload: JSON.stringify(inbound),
    })
    expect(posted.statusCode).toBe(200)
    const ours = await bridgeStatus(orgA, { messageId: "bridge-in-302", status: "read", recipient: "447700900302" })
    expect(ours.statusCode).toBe(404)
    await customerWrites(app, PHONE_A, "15550170303")
    const onCloud = await sendThrough(orgA, "cloud", "15550170303")
    expect(
      (await bridgeStatus(orgA, { messageId: onCloud, status: "read", recipient: "15550170303" })).statusCode,
    ).toBe(404)
    expect(await statusesOf(orgA, "bridge-in-302")).toEqual([])
    expect(await statusesOf(orgA, onCloud)).toEqual([])
  })
})

describe("a cloud status for a message Parley never sent", () => {
  it("is answered 200 (the provider would retry anything else) and fires nothing, for a made-up id or another organization's", async () => {
    await customerWrites(app, PHONE_B, "15550170304")
    const theirs = await sendThrough(orgB, "cloud", "15550170304")
    for (const [id, recipient] of [
      ["wamid.totally-made-up-1", "19995550000"],
      [theirs, "15550170304"],
    ] as const) {
      expect((await cloudStatus(PHONE_A, id, recipient)).statusCode).toBe(200)
      expect(await statusesOf(orgA, id)).toEqual([])
    }
    expect(await statusesOf(orgB, theirs)).toEqual([])
    // On their own number it fires.
    expect((await cloudStatus(PHONE_B, theirs, "15550170304")).statusCode).toBe(200)
    expect((await statusesOf(orgB, theirs)).map((e) => e.data.status)).toEqual(["read"])
  })

  it("fires for a status that overtakes the provider's answer to the send it reports", async () => {
    const to = "15550170305"
    await customerWrites(app, PHONE_A, to)
    const overtaking = "wamid.overtaking-305"
    let reported: Promise<{ status: number; stillPending: boolean }> | undefined
    provider.failNext({ status: 200, body: { messaging_product: "whatsapp", messages: [{ id: overtaking }] } })
    provider.setLatencyMs(300)
    provider.onSend(() => {
      reported = (async () => {
        const response = await cloudStatus(PHONE_A, overtaking, to, "sent")
        const [row] = await infra.db.sql`
          select provider_message_id from messaging.messages where org_id = ${orgA} and phone = ${to} and direction = 'outbound'`
        return { status: response.statusCode, stillPending: row !== undefined && row.provider_message_id === null }
      })()
    })
    try {
      expect(await sendThrough(orgA, "cloud", to)).toBe(overtaking)
    } finally {
      provider.onSend(undefined)
      provider.setLatencyMs(0)
    }
    expect(await reported).toEqual({ status: 200, stillPending: true })
    expect((await statusesOf(orgA, overtaking)).map((e) => e.data)).toEqual([
      { messageId: overtaking, status: "sent", recipient: to },
    ])
  })
})

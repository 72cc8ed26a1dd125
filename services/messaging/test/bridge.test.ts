import { Bus } from "@parley/bus"
import { ChannelOutbound, encodeBusValue, Topics } from "@parley/contracts"
import { hmacSha256Hex } from "@parley/platform"
import { eventually, type StubServer, startHttpServer } from "@parley/platform/testing"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  asTenant,
  connectCloud,
  customerWrites,
  eventsOf,
  type FakeProvider,
  newOrg,
  type RunningApp,
  recordsOn,
  startApp,
  startFakeProvider,
  startInfrastructure,
  type TestInfrastructure,
  testConfig,
} from "./harness.ts"

let infra: TestInfrastructure
let provider: FakeProvider
let bridge: StubServer
let app: RunningApp
const orgId = newOrg()
let inboundToken = ""

beforeAll(async () => {
  infra = await startInfrastructure()
  provider = await startFakeProvider()
  bridge = await startHttpServer(() => ({ status: 200, body: { ok: true } }))
  app = await startApp(infra, { config: testConfig(provider.server.url), retryBaseMs: 20 })
  const response = await asTenant(app, orgId, "PUT", "/api/channels/bridge", { outboundUrl: `${bridge.url}/send` })
  expect(response.statusCode).toBe(200)
  inboundToken = response.json().inboundToken
})

afterAll(async () => {
  await app?.stop()
  await bridge?.close()
  await provider?.server.close()
  await infra?.close()
})

const bridgePost = (path: string, body: unknown, token = inboundToken) =>
  app.http.inject({
    method: "POST",
    url: path,
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    payload: JSON.stringify(body),
  })

describe("configuring the bridge channel", () => {
  it("answers the channel and an inboundToken once, storing only its digest and a sealed copy", async () => {
    expect(inboundToken).toMatch(/^pbt_[A-Za-z0-9_-]{40,}$/)
    const listed = await asTenant(app, orgId, "GET", "/api/channels")
    expect(listed.json().data[0]).toMatchObject({ type: "bridge", outboundUrl: `${bridge.url}/send` })
    expect(JSON.stringify(listed.json())).not.toContain(inboundToken)
    const [row] = await infra.db.sql`select inbound_token_digest, inbound_token_sealed from messaging.channels
                                     where org_id = ${orgId}`
    expect(JSON.stringify(row)).not.toContain(inboundToken)
  })

  it("refuses an outboundUrl that is not an absolute http(s) URL with 400 naming the field", async () => {
    const response = await asTenant(app, orgId, "PUT", "/api/channels/bridge", { outboundUrl: "ftp://example.com/x" })
    expect(response.statusCode).toBe(400)
    expect(response.json().issues[0].path).toBe("outboundUrl")
  })

  it("refuses a private outboundUrl unless private addresses are allowed", async () => {
    const strict = await startApp(infra, {
      config: testConfig(provider.server.url, { allowPrivateUrls: false }),
      background: false,
    })
    try {
      const response = await asTenant(strict, orgId, "PUT", "/api/channels/bridge", {
        outboundUrl: "http://127.0.0.1:9/x",
      })
      expect(response.statusCode).toBe(400)
    } finally {
      await strict.stop()
    }
  })
})

describe("bridge ingress", () => {
  it("refuses posts without the channel's bearer token with 401", async () => {
    const missing = await app.http.inject({
      method: "POST",
      url: "/channels/bridge/inbound",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({ from: "15550200001", type: "text", text: "x", messageId: "b1" }),
    })
    const wrong = await bridgePost(
      "/channels/bridge/inbound",
      { from: "15550200001", type: "text", messageId: "b1" },
      "pbt_x",
    )
    expect(missing.statusCode).toBe(401)
    expect(wrong.statusCode).toBe(401)
    expect(await eventsOf(infra, orgId)).toEqual([])
  })

  it("fires message.inbound once per messageId and hands the turn to the assistant", async () => {
    const body = { from: "+44 7700 900123", name: "Sam", type: "text", text: "Can I book?", messageId: "bridge-1" }
    expect((await bridgePost("/channels/bridge/inbound", body)).statusCode).toBe(200)
    expect((await bridgePost("/channels/bridge/inbound", body)).statusCode).toBe(200)
    const fired = await eventsOf(infra, orgId, "message.inbound")
    expect(fired.map((e) => e.data)).toEqual([
      { from: "447700900123", name: "Sam", type: "text", text: "Can I book?", messageId: "bridge-1" },
    ])
    const turns = (await recordsOn(infra, Topics.channelInbound, orgId)) as Array<Record<string, unknown>>
    expect(turns).toEqual([expect.objectContaining({ channel: "bridge", messageId: "bridge-1" })])
  })

  it("drops U+0000 from a bridge's strings instead of failing the message", async () => {
    const body = { from: "447700900199", name: "S\u0000am", type: "text", text: "hi\u0000!", messageId: "bridge-nul" }
    const answer = await bridgePost("/channels/bridge/inbound", body)
    expect(answer.statusCode).toBe(200)
    const fired = (await eventsOf(infra, orgId, "message.inbound")).filter((e) => e.data.messageId === "bridge-nul")
    expect(fired.map((e) => [e.data.name, e.data.text])).toEqual([["Sam", "hi!"]])
  })

  it("fires message.status once per (messageId, status) of a message sent through the bridge", async () => {
    const sent = await asTenant(app, orgId, "POST", "/api/messages", { to: "447700900123", text: "On our way" })
    expect(sent.statusCode, sent.body).toBe(202)
    const body = { messageId: sent.json().messageId, status: "delivered", recipient: "447700900123" }
    const first = await bridgePost("/channels/bridge/status", body)
    expect(first.json()).toEqual({ received: true, duplicate: false })
    const again = await bridgePost("/channels/bridge/status", body)
    expect(again.json()).toEqual({ received: true, duplicate: true })
    const fired = await eventsOf(infra, orgId, "message.status")
    expect(fired.map((e) => e.data)).toEqual([body])
  })

  it("answers 400 to a post missing required fields", async () => {
    const response = await bridgePost("/channels/bridge/inbound", { from: "15550200001" })
    expect(response.statusCode).toBe(400)
    const status = await bridgePost("/channels/bridge/status", {
      messageId: "x",
      status: "exploded",
      recipient: "15550200001",
    })
    expect(status.statusCode).toBe(400)
  })
})

describe("sending through the bridge", () => {
  it("posts { to, type, text, messageId } signed like a webhook delivery with the inbound token", async () => {
    const response = await asTenant(app, orgId, "POST", "/api/messages", { to: "447700900123", text: "See you at 5" })
    expect(response.statusCode).toBe(202)
    const { id, messageId } = response.json()
    expect(messageId).toBe(id)
    const request = bridge.requests.at(-1)
    expect(request?.path).toBe("/send")
    expect(request?.json()).toEqual({ to: "447700900123", type: "text", text: "See you at 5", messageId: id })
    expect(request?.headers["x-service-signature"]).toBe(`sha256=${hmacSha256Hex(inboundToken, request?.body ?? "")}`)
    expect(request?.headers["x-service-event"]).toBe("message.outbound")
    expect(request?.headers["x-service-delivery"]).toBe(id)
    expect(request?.headers["x-service-attempt"]).toBe("1")
  })

  it("answers 503 and records the message failed when the bridge answers 5xx", async () => {
    bridge.setHandler(() => ({ status: 502 }))
    try {
      const response = await asTenant(app, orgId, "POST", "/api/messages", { to: "447700900124", text: "x" })
      expect(response.statusCode).toBe(503)
      const [row] = await infra.db.sql`select status from messaging.messages where phone = '447700900124'`
      expect(row?.status).toBe("failed")
    } finally {
      bridge.setHandler(() => ({ status: 200 }))
    }
  })

  it("answers 400 when the bridge URL turns out to be a non-public address at send time", async () => {
    const strict = await startApp(infra, {
      config: testConfig(provider.server.url, { allowPrivateUrls: false }),
      background: false,
    })
    try {
      // Configured while private addresses were allowed; this instance refuses them at connect.
      const response = await asTenant(strict, orgId, "POST", "/api/messages", { to: "447700900125", text: "x" })
      expect(response.statusCode).toBe(400)
      expect(response.json().error).toContain("blocked address")
    } finally {
      await strict.stop()
    }
  })

  it("prefers the cloud channel when both are configured and no channel is named", async () => {
    const both = newOrg()
    await asTenant(app, both, "PUT", "/api/channels/bridge", { outboundUrl: `${bridge.url}/other` })
    await connectCloud(app, both, "3330001")
    await customerWrites(app, "3330001", "15550300001")
    const sentBefore = provider.sends().length
    const response = await asTenant(app, both, "POST", "/api/messages", { to: "15550300001", text: "hi" })
    expect(response.statusCode).toBe(202)
    expect(provider.sends().length).toBe(sentBefore + 1)
    const viaBridge = await asTenant(app, both, "POST", "/api/messages", {
      to: "15550300001",
      text: "hi",
      channel: "bridge",
    })
    expect(viaBridge.statusCode).toBe(202)
    expect(bridge.requests.at(-1)?.path).toBe("/other")
  })
})

describe("assistant replies", () => {
  it("sends each reply from parley.channel.outbound.v1 through its channel once, even when the record is redelivered", async () => {
    const reply = encodeBusValue(ChannelOutbound, {
      orgId,
      channel: "bridge",
      to: "447700900123",
      text: "Sure, 5pm works",
      inReplyTo: "bridge-1",
    })
    const publish = Effect.gen(function* () {
      const bus = yield* Bus
      yield* bus.publish([{ topic: Topics.channelOutbound, key: orgId, value: reply }])
    })
    await infra.runtime.runPromise(publish)
    await eventually(
      () => {
        expect(bridge.requests.filter((r) => r.text().includes("Sure, 5pm works"))).toHaveLength(1)
      },
      { timeoutMs: 10_000 },
    )
    // The same bytes again, as a relay republishing after a crash would produce.
    await infra.runtime.runPromise(publish)
    await eventually(
      async () => {
        const rows = await infra.db
          .sql`select count(*)::int as n from messaging.messages where text = 'Sure, 5pm works'`
        expect(rows[0]?.n).toBe(1)
        const offsets = await infra.db.sql`
        select count(*)::int as n from parley_bus.group_offsets where group_id = 'messaging.channel-outbound'
          and topic = ${Topics.channelOutbound} and committed >= 2`
        expect(offsets[0]?.n).toBeGreaterThan(0)
      },
      { timeoutMs: 10_000 },
    )
    expect(bridge.requests.filter((r) => r.text().includes("Sure, 5pm works"))).toHaveLength(1)

    // A regenerated answer to the same message (the assistant asked twice) is not sent either.
    const regenerated = encodeBusValue(ChannelOutbound, {
      orgId,
      channel: "bridge",
      to: "447700900123",
      text: "Yes, 5pm is fine",
      inReplyTo: "bridge-1",
    })
    await infra.runtime.runPromise(
      Effect.gen(function* () {
        const bus = yield* Bus
        yield* bus.publish([{ topic: Topics.channelOutbound, key: orgId, value: regenerated }])
      }),
    )
    await eventually(
      async () => {
        const offsets = await infra.db.sql`
          select count(*)::int as n from parley_bus.group_offsets where group_id = 'messaging.channel-outbound'
            and topic = ${Topics.channelOutbound} and committed >= 3`
        expect(offsets[0]?.n).toBeGreaterThan(0)
      },
      { timeoutMs: 10_000 },
    )
    expect(bridge.requests.filter((r) => r.text().includes("5pm is fine"))).toHaveLength(0)
  })

  it("retries a reply while the provider is unavailable, then sends it once", async () => {
    const cloudOrg = newOrg()
    await connectCloud(app, cloudOrg, "3330077")
    provider.failNext({ status: 503, body: { error: { message: "try later", code: 2 } } })
    const reply = encodeBusValue(ChannelOutbound, {
      orgId: cloudOrg,
      channel: "cloud",
      to: "15550400001",
      text: "Back in a moment",
      inReplyTo: "wamid.question",
    })
    await infra.runtime.runPromise(
      Effect.gen(function* () {
        const bus = yield* Bus
        yield* bus.publish([{ topic: Topics.channelOutbound, key: cloudOrg, value: reply }])
      }),
    )
    await eventually(
      async () => {
        const rows = await infra.db.sql`
          select status from messaging.messages where org_id = ${cloudOrg} and text = 'Back in a moment'`
        expect(rows.map((r) => r.status)).toEqual(["sent"])
      },
      { timeoutMs: 10_000 },
    )
    const attempts = provider.sends().filter((s) => JSON.stringify(s.body).includes("Back in a moment"))
    expect(attempts).toHaveLength(2)
  })
})

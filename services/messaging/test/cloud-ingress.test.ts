import { Topics } from "@parley/contracts"
import { hmacSha256Hex } from "@parley/platform"
import { Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  APP_SECRET,
  asTenant,
  connectCloud,
  customerWrites,
  eventsOf,
  type FakeProvider,
  inboundPayload,
  newOrg,
  postCloudWebhook,
  type RunningApp,
  recordsOn,
  startApp,
  startFakeProvider,
  startInfrastructure,
  type TestInfrastructure,
  testConfig,
  VERIFY_TOKEN,
} from "./harness.ts"

let infra: TestInfrastructure
let provider: FakeProvider
let app: RunningApp
const orgId = newOrg()
const PHONE_ID = "1110001"

beforeAll(async () => {
  infra = await startInfrastructure()
  provider = await startFakeProvider()
  app = await startApp(infra, { config: testConfig(provider.server.url), background: false })
  await connectCloud(app, orgId, PHONE_ID)
})

afterAll(async () => {
  await app?.stop()
  await provider?.server.close()
  await infra?.close()
})

describe("the cloud webhook subscription challenge", () => {
  it("echoes the challenge as text when the verify token matches", async () => {
    const response = await app.http.inject({
      method: "GET",
      url: `/channels/cloud/webhook?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1158201444`,
    })
    expect(response.statusCode).toBe(200)
    expect(response.headers["content-type"]).toMatch(/^text\/plain/)
    expect(response.body).toBe("1158201444")
  })

  it("answers 403 to a wrong or missing verify token", async () => {
    const wrong = await app.http.inject({
      method: "GET",
      url: "/channels/cloud/webhook?hub.mode=subscribe&hub.verify_token=nope&hub.challenge=1",
    })
    const missing = await app.http.inject({ method: "GET", url: "/channels/cloud/webhook?hub.challenge=1" })
    expect(wrong.statusCode).toBe(403)
    expect(missing.statusCode).toBe(403)
  })
})

describe("cloud webhook signatures", () => {
  const payload = inboundPayload(PHONE_ID, [
    { from: "15550100001", id: "wamid.sig1", timestamp: "1700000000", type: "text", text: { body: "hi" } },
  ])

  it("refuses a post without X-Hub-Signature-256 with 401 and processes nothing", async () => {
    const response = await app.http.inject({
      method: "POST",
      url: "/channels/cloud/webhook",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify(payload),
    })
    expect(response.statusCode).toBe(401)
    expect(response.json()).toMatchObject({ code: "unauthorized" })
    expect(await eventsOf(infra, orgId)).toEqual([])
  })

  it("refuses a post signed with another secret, or over other bytes, with 401", async () => {
    const wrongKey = await postCloudWebhook(app, payload, "another-secret")
    const raw = JSON.stringify(payload)
    const otherBytes = await app.http.inject({
      method: "POST",
      url: "/channels/cloud/webhook",
      headers: {
        "content-type": "application/json",
        "x-hub-signature-256": `sha256=${hmacSha256Hex(APP_SECRET, `${raw} `)}`,
      },
      payload: raw,
    })
    expect(wrongKey.statusCode).toBe(401)
    expect(otherBytes.statusCode).toBe(401)
    expect(await eventsOf(infra, orgId)).toEqual([])
  })

  it("verifies the signature over the raw bytes, whitespace and key order included", async () => {
    const raw = `{ "object":"whatsapp_business_account",  "entry": [] }\n`
    const response = await app.http.inject({
      method: "POST",
      url: "/channels/cloud/webhook",
      headers: {
        "content-type": "application/json",
        "x-hub-signature-256": `sha256=${hmacSha256Hex(APP_SECRET, raw)}`,
      },
      payload: raw,
    })
    expect(response.statusCode).toBe(200)
  })
})

describe("cloud ingress without an app secret", () => {
  it("refuses every post with 401 and processes nothing when PARLEY_CLOUD_APP_SECRET is unset", async () => {
    const unconfigured = await startApp(infra, {
      config: testConfig(provider.server.url, { cloudAppSecret: Option.none() }),
      background: false,
    })
    try {
      const payload = inboundPayload(PHONE_ID, [
        { from: "15550100009", id: "wamid.nosecret1", timestamp: "1700000000", type: "text", text: { body: "hi" } },
      ])
      const raw = JSON.stringify(payload)
      const busBefore = await infra.db.sql`select count(*)::int as n from parley_bus.records`
      // Signed with the secret the provider holds, with an empty key, and not at all: none may pass.
      for (const signature of [hmacSha256Hex(APP_SECRET, raw), hmacSha256Hex("", raw), undefined]) {
        const response = await unconfigured.http.inject({
          method: "POST",
          url: "/channels/cloud/webhook",
          headers: {
            "content-type": "application/json",
            ...(signature === undefined ? {} : { "x-hub-signature-256": `sha256=${signature}` }),
          },
          payload: raw,
        })
        expect(response.statusCode).toBe(401)
        expect(response.json()).toMatchObject({ code: "unauthorized" })
      }
      const stored = await infra.db.sql`
        select count(*)::int as n from messaging.messages where provider_message_id = 'wamid.nosecret1'`
      expect(stored[0]?.n).toBe(0)
      const busAfter = await infra.db.sql`select count(*)::int as n from parley_bus.records`
      expect(busAfter[0]?.n).toBe(busBefore[0]?.n)
      const mentioning = await infra.db.sql`
        select count(*)::int as n from parley_bus.records where value like '%wamid.nosecret1%'`
      expect(mentioning[0]?.n).toBe(0)
      // The same bytes, signed alike, are processed by the instance that has the secret.
      expect((await postCloudWebhook(app, payload)).statusCode).toBe(200)
      const processed = await infra.db.sql`
        select count(*)::int as n from messaging.messages where provider_message_id = 'wamid.nosecret1'`
      expect(processed[0]?.n).toBe(1)
    } finally {
      await unconfigured.stop()
    }
  })
})

describe("inbound cloud messages", () => {
  it("fires message.inbound with digits-only from, the profile name and the body, and hands the turn to the assistant", async () => {
    const response = await postCloudWebhook(
      app,
      inboundPayload(
        PHONE_ID,
        [
          {
            from: "+1 (415) 555-0100",
            id: "wamid.in1",
            timestamp: "1700000000",
            type: "text",
            text: { body: "Hello there" },
          },
        ],
        [{ profile: { name: "Dana" }, wa_id: "14155550100" }],
      ),
    )
    expect(response.statusCode).toBe(200)
    const events = await eventsOf(infra, orgId, "message.inbound")
    expect(events.map((e) => e.data)).toContainEqual({
      from: "14155550100",
      name: "Dana",
      type: "text",
      text: "Hello there",
      messageId: "wamid.in1",
    })
    const turns = (await recordsOn(infra, Topics.channelInbound, orgId)) as Array<Record<string, unknown>>
    expect(turns).toContainEqual(
      expect.objectContaining({
        orgId,
        channel: "cloud",
        from: "14155550100",
        text: "Hello there",
        messageId: "wamid.in1",
      }),
    )
  })

  it("uses the caption of media messages, and an empty text for media without one", async () => {
    await postCloudWebhook(
      app,
      inboundPayload(PHONE_ID, [
        {
          from: "15550100002",
          id: "wamid.img1",
          type: "image",
          image: { id: "m1", mime_type: "image/jpeg", caption: "look" },
        },
        { from: "15550100002", id: "wamid.aud1", type: "audio", audio: { id: "m2", mime_type: "audio/ogg" } },
      ]),
    )
    const byId = new Map((await eventsOf(infra, orgId, "message.inbound")).map((e) => [e.data.messageId, e.data]))
    expect(byId.get("wamid.img1")).toMatchObject({ type: "image", text: "look", name: "" })
    expect(byId.get("wamid.aud1")).toMatchObject({ type: "audio", text: "" })
  })

  it("fires nothing twice when the provider redelivers the same message", async () => {
    const payload = inboundPayload(PHONE_ID, [
      { from: "15550100003", id: "wamid.dup", type: "text", text: { body: "once" } },
    ])
    const first = await postCloudWebhook(app, payload)
    const again = await postCloudWebhook(app, payload)
    const concurrent = await Promise.all([postCloudWebhook(app, payload), postCloudWebhook(app, payload)])
    expect([first.statusCode, again.statusCode, ...concurrent.map((r) => r.statusCode)]).toEqual([200, 200, 200, 200])
    const fired = (await eventsOf(infra, orgId, "message.inbound")).filter((e) => e.data.messageId === "wamid.dup")
    expect(fired).toHaveLength(1)
    const turns = (await recordsOn(infra, Topics.channelInbound, orgId)) as Array<{ messageId: string }>
    expect(turns.filter((t) => t.messageId === "wamid.dup")).toHaveLength(1)
  })

  it("answers 200 to a message whose id is thousands of characters or carries a control character, ignoring it and keeping the rest", async () => {
    const payload = inboundPayload(PHONE_ID, [
      { from: "15550100005", id: `wamid.${"x".repeat(3_000)}`, type: "text", text: { body: "long" } },
      { from: "15550100005", id: "wamid.bell\u0007", type: "text", text: { body: "bell" } },
      { from: "15550100005", id: "wamid.fine", type: "text", text: { body: "fine" } },
    ])
    // Answered 200 (a refusal would have the provider retry it forever), every time.
    for (let i = 0; i < 2; i++) expect((await postCloudWebhook(app, payload)).statusCode).toBe(200)
    const fired = (await eventsOf(infra, orgId, "message.inbound")).filter((e) => e.data.from === "15550100005")
    expect(fired.map((e) => e.data.text)).toEqual(["fine"])
  })

  it("answers 200 and records nothing for a phone_number_id no organization connected", async () => {
    const before = (await infra.db.sql`select count(*)::int as n from parley_bus.records`)[0]?.n
    const response = await postCloudWebhook(
      app,
      inboundPayload("999999", [{ from: "15550100004", id: "wamid.stray", type: "text", text: { body: "?" } }]),
    )
    expect(response.statusCode).toBe(200)
    const after = (await infra.db.sql`select count(*)::int as n from parley_bus.records`)[0]?.n
    expect(after).toBe(before)
  })

  it("keeps the good parts of a change when some of its statuses, contacts or messages are malformed", async () => {
    const response = await postCloudWebhook(app, {
      object: "whatsapp_business_account",
      entry: [
        {
          id: "5550001",
          changes: [
            {
              field: "messages",
              value: {
                metadata: { phone_number_id: PHONE_ID },
                contacts: [{ profile: "not an object" }],
                messages: [
                  { from: "group@g.us", id: "wamid.weird", type: "text", text: { body: "?" } },
                  { from: "15550100006", id: "wamid.good", type: "text", text: { body: "still here" } },
                ],
                statuses: [{ status: "read" }, { id: "wamid.x", status: "read", recipient_id: "" }],
              },
            },
          ],
        },
      ],
    })
    expect(response.statusCode).toBe(200)
    const inbound = (await eventsOf(infra, orgId, "message.inbound")).map((e) => e.data.messageId)
    expect(inbound).toContain("wamid.good")
    expect(inbound).not.toContain("wamid.weird")
  })

  it("answers 400, not 500, to a signed body that is not the provider's shape", async () => {
    const response = await postCloudWebhook(app, { object: "whatsapp_business_account", entry: "nope" })
    expect(response.statusCode).toBe(400)
    expect(response.json()).toMatchObject({ code: "invalid_request" })
  })
})

describe("cloud message statuses", () => {
  it("fires message.status for sent, delivered, read and failed, each once however often redelivered", async () => {
    // Only a message sent through Parley has statuses that fire (docs/contract.md §7).
    await customerWrites(app, PHONE_ID, "15550100005")
    const sent = await asTenant(app, orgId, "POST", "/api/messages", { to: "15550100005", text: "Your table is ready" })
    expect(sent.statusCode, sent.body).toBe(202)
    const messageId: string = sent.json().messageId
    const statuses = (status: string) => ({
      object: "whatsapp_business_account",
      entry: [
        {
          id: "5550001",
          changes: [
            {
              field: "messages",
              value: {
                metadata: { phone_number_id: PHONE_ID },
                statuses: [{ id: messageId, status, timestamp: "1700000001", recipient_id: "15550100005" }],
              },
            },
          ],
        },
      ],
    })
    for (const status of ["sent", "delivered", "delivered", "read", "failed", "deleted"]) {
      expect((await postCloudWebhook(app, statuses(status))).statusCode).toBe(200)
    }
    const fired = (await eventsOf(infra, orgId, "message.status")).filter((e) => e.data.messageId === messageId)
    expect(fired.map((e) => e.data.status)).toEqual(["sent", "delivered", "read", "failed"])
    expect(fired[0]?.data).toEqual({ messageId, status: "sent", recipient: "15550100005" })
  })
})

describe("metrics", () => {
  it("counts accepted inbound messages and statuses on /metrics, redeliveries excluded", async () => {
    const metrics = await app.http.inject({ method: "GET", url: "/metrics" })
    expect(metrics.statusCode).toBe(200)
    const inbound = /parley_messaging_inbound_messages_total\{[^}]*channel="cloud"[^}]*\} (\d+)/.exec(metrics.body)
    const stored = await infra.db.sql`
      select count(*)::int as n from messaging.messages where org_id = ${orgId} and direction = 'inbound'`
    expect(Number(inbound?.[1])).toBe(stored[0]?.n)
    expect(metrics.body).toMatch(/parley_messaging_statuses_total\{[^}]*channel="cloud"[^}]*\} 4/)
  })
})

describe("cloud ingress throughput", () => {
  // Measured alone on 2 cores: ~850 payloads/s for one organization through `inject` (group commit:
  // concurrent payloads share a transaction; ~250/s with one transaction each). The floor here is
  // low enough to hold with the whole suite running in parallel.
  it("accepts single-message payloads at a sustained rate, each durably, and reports the rate", async () => {
    const total = 400
    const payloads = Array.from({ length: total }, (_, i) =>
      inboundPayload(PHONE_ID, [{ from: "15550109999", id: `wamid.perf${i}`, type: "text", text: { body: `m${i}` } }]),
    )
    const started = performance.now()
    // 16 in flight, as the provider's concurrent deliveries would be.
    let next = 0
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < total) {
          const payload = payloads[next++]
          const response = await postCloudWebhook(app, payload)
          if (response.statusCode !== 200) throw new Error(`status ${response.statusCode}`)
        }
      }),
    )
    const seconds = (performance.now() - started) / 1000
    const rate = total / seconds
    console.info(`cloud ingress: ${total} payloads in ${seconds.toFixed(2)} s = ${rate.toFixed(0)} payloads/s`)
    const stored = await infra.db.sql`
      select count(*)::int as n from messaging.messages where provider_message_id like 'wamid.perf%'`
    expect(stored[0]?.n).toBe(total)
    expect(rate).toBeGreaterThan(25)
  })
})

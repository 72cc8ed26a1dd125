import { Bus } from "@parley/bus"
import { ChannelOutbound, encodeBusValue, type OrgId, Topics } from "@parley/contracts"
import { eventually } from "@parley/platform/testing"
import { Effect, Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  asTenant,
  connectCloud,
  eventsOf,
  type FakeProvider,
  newOrg,
  principalHeader,
  type RunningApp,
  recordsOn,
  startApp,
  startFakeProvider,
  startInfrastructure,
  type TestInfrastructure,
  testConfig,
} from "./harness.ts"

/**
 * docs/contract.md §16: a sandbox cloud channel in which Parley plays the provider. The service runs
 * with no `PARLEY_CLOUD_APP_SECRET` or verify token, and its Graph API URL points at a loopback
 * stand-in that must never be called by a sandbox channel.
 */

let infra: TestInfrastructure
let provider: FakeProvider
let app: RunningApp
const orgId = newOrg()
const otherOrg = newOrg()

const config = () => testConfig(provider.server.url, { cloudAppSecret: Option.none(), cloudVerifyToken: Option.none() })

beforeAll(async () => {
  infra = await startInfrastructure()
  provider = await startFakeProvider()
  app = await startApp(infra, { config: config(), retryBaseMs: 20 })
})

afterAll(async () => {
  await app?.stop()
  await provider?.server.close()
  await infra?.close()
})

const connectSandbox = async (org: OrgId) => {
  const response = await asTenant(app, org, "PUT", "/api/channels/cloud", { sandbox: true })
  expect(response.statusCode).toBe(200)
  return response.json() as {
    type: string
    sandbox: boolean
    status: string
    phoneNumberId: string
    businessAccountId: string
    displayPhoneNumber: string
  }
}

/** A customer writes first, so free-form text to them is inside the 24-hour window (§9). */
const customerWrites = async (org: OrgId, from: string) => {
  const response = await asTenant(app, org, "POST", "/api/sandbox/inbound", { from, text: "hi" })
  expect(response.statusCode).toBe(202)
}

describe("connecting a sandbox channel", () => {
  it("answers the channel with generated ids and no token, keeps them when connected again, and calls nobody", async () => {
    const channel = await connectSandbox(orgId)
    expect(channel).toMatchObject({ type: "cloud", sandbox: true, status: "connected" })
    expect(channel.phoneNumberId).toMatch(/^[0-9]{15}$/)
    expect(channel.businessAccountId).toMatch(/^[0-9]{15}$/)
    expect(channel.displayPhoneNumber).toMatch(/^\+1 415-555-01[0-9]{2}$/)
    expect(JSON.stringify(channel)).not.toMatch(/token/i)
    const again = await connectSandbox(orgId)
    expect(again.phoneNumberId).toBe(channel.phoneNumberId)
    expect(again.businessAccountId).toBe(channel.businessAccountId)
    const listed = await asTenant(app, orgId, "GET", "/api/channels")
    expect(listed.json().data).toEqual([expect.objectContaining({ sandbox: true, status: "connected" })])
    expect(listed.json().cloudWebhook).toEqual({
      callbackUrl: "http://localhost:3000/channels/cloud/webhook",
      verifyToken: null,
    })
    expect(provider.server.requests).toHaveLength(0)
  })

  it("replaces a real channel, and the sandbox routes refuse (409) while the channel is real", async () => {
    const org = newOrg()
    await connectCloud(app, org, "7770001")
    const refused = await asTenant(app, org, "POST", "/api/sandbox/inbound", { from: "15550001111", text: "hi" })
    expect(refused.statusCode).toBe(409)
    expect(refused.json()).toEqual({
      error: 'The cloud channel is not a sandbox: connect one with { "sandbox": true } first',
      code: "conflict",
    })
    const replaced = await connectSandbox(org)
    expect(replaced.phoneNumberId).not.toBe("7770001")
    const listed = await asTenant(app, org, "GET", "/api/channels")
    expect(listed.json().data).toHaveLength(1)
    expect(listed.json().data[0]).toMatchObject({ sandbox: true })
  })
})

describe("a simulated customer", () => {
  it("goes through the provider ingress: message.inbound once, the assistant's turn, marked sandbox in the list only", async () => {
    const accepted = await asTenant(app, orgId, "POST", "/api/sandbox/inbound", {
      from: "+44 7700 900555",
      name: "Ada",
      text: "Do you open on Saturday?",
    })
    expect(accepted.statusCode).toBe(202)
    const { messageId } = accepted.json()
    expect(messageId).toMatch(/^wamid\./)

    const inbound = await eventsOf(infra, orgId, "message.inbound")
    expect(inbound.map((e) => e.data)).toEqual([
      { from: "447700900555", name: "Ada", type: "text", text: "Do you open on Saturday?", messageId },
    ])
    const turns = await recordsOn(infra, Topics.channelInbound, orgId)
    expect(turns).toEqual([expect.objectContaining({ channel: "cloud", from: "447700900555", messageId })])

    const listed = await asTenant(app, orgId, "GET", "/api/messages?phone=447700900555")
    expect(listed.json().data).toEqual([
      expect.objectContaining({ direction: "inbound", text: "Do you open on Saturday?", sandbox: true, messageId }),
    ])
  })

  it("refuses a bad body with 400 and names the field", async () => {
    const response = await asTenant(app, orgId, "POST", "/api/sandbox/inbound", { from: "not a phone", text: "x" })
    expect(response.statusCode).toBe(400)
    expect(JSON.stringify(response.json().issues)).toContain("from")
  })
})

describe("messages sent through the sandbox", () => {
  it("are accepted, listed in the outbox and reported sent, delivered, then read within a few seconds", async () => {
    const providerCalls = provider.server.requests.length
    await customerWrites(orgId, "14155550142")
    const started = Date.now()
    const sent = await asTenant(app, orgId, "POST", "/api/messages", { to: "+1 415 555 0142", text: "Hello!" })
    expect(sent.statusCode).toBe(202)
    const { messageId } = sent.json()
    expect(messageId).toMatch(/^wamid\./)

    const outbox = await asTenant(app, orgId, "GET", "/api/sandbox/outbox?phone=14155550142")
    expect(outbox.statusCode).toBe(200)
    expect(outbox.json().data).toEqual([
      expect.objectContaining({ messageId, to: "14155550142", type: "text", text: "Hello!", template: null }),
    ])

    await eventually(
      async () => {
        const statuses = (await eventsOf(infra, orgId, "message.status")).filter((e) => e.data.messageId === messageId)
        expect(statuses.map((e) => e.data.status)).toEqual(["sent", "delivered", "read"])
        expect(statuses[0]?.data).toEqual({ messageId, status: "sent", recipient: "14155550142" })
      },
      { timeoutMs: 8_000, intervalMs: 100 },
    )
    const elapsed = Date.now() - started
    expect(elapsed).toBeLessThan(8_000)
    const listed = await asTenant(app, orgId, "GET", "/api/messages?phone=14155550142")
    expect(listed.json().data[0]).toMatchObject({ messageId, direction: "outbound", status: "read", sandbox: false })
    const after = await asTenant(app, orgId, "GET", "/api/sandbox/outbox?phone=14155550142")
    expect(after.json().data[0].status).toBe("read")
    expect(provider.server.requests).toHaveLength(providerCalls)
  })

  it("refuses a number ending in 0000 as undeliverable (400, code 131026): no message id, no status", async () => {
    await customerWrites(orgId, "14155550000")
    const refused = await asTenant(app, orgId, "POST", "/api/messages", { to: "14155550000", text: "Hello?" })
    expect(refused.statusCode).toBe(400)
    expect(refused.json().code).toBe("invalid_request")
    expect(refused.json().error).toContain("131026")
    const outbox = await asTenant(app, orgId, "GET", "/api/sandbox/outbox?phone=14155550000")
    expect(outbox.json().data).toEqual([])
    const listed = await asTenant(app, orgId, "GET", "/api/messages?phone=14155550000")
    expect(listed.json().data[0]).toMatchObject({ direction: "outbound", status: "failed", messageId: null })
    await new Promise((resolve) => setTimeout(resolve, 600))
    const statuses = (await eventsOf(infra, orgId, "message.status")).filter((e) => e.data.recipient === "14155550000")
    expect(statuses).toEqual([])
  })

  it("keeps reporting after a restart: the due reports are in the database, not in a timer", async () => {
    const org = newOrg()
    await connectSandbox(org)
    await customerWrites(org, "14155550177")
    const sent = await asTenant(app, org, "POST", "/api/messages", { to: "14155550177", text: "Still there?" })
    const { messageId } = sent.json()
    await app.stop()
    // Stopped before any report was due (the first comes 400 ms after acceptance).
    const before = (await eventsOf(infra, org, "message.status")).length
    app = await startApp(infra, { config: config(), retryBaseMs: 20 })
    await eventually(
      async () => {
        const statuses = (await eventsOf(infra, org, "message.status")).filter((e) => e.data.messageId === messageId)
        expect(statuses.map((e) => e.data.status)).toEqual(["sent", "delivered", "read"])
      },
      { timeoutMs: 8_000, intervalMs: 100 },
    )
    expect(before).toBeLessThanOrEqual(3)
  })

  it("keeps organizations apart: another one's outbox, customers and events are its own", async () => {
    const foreign = await asTenant(app, otherOrg, "GET", "/api/sandbox/outbox")
    expect(foreign.statusCode).toBe(200)
    expect(foreign.json()).toEqual({ data: [], nextCursor: null })
    await connectSandbox(otherOrg)
    const before = (await eventsOf(infra, orgId, "message.inbound")).length
    const accepted = await asTenant(app, otherOrg, "POST", "/api/sandbox/inbound", {
      from: "15550009999",
      text: "Other business",
    })
    expect(accepted.statusCode).toBe(202)
    expect(await eventsOf(infra, otherOrg, "message.inbound")).toHaveLength(1)
    expect(await eventsOf(infra, orgId, "message.inbound")).toHaveLength(before)
    const mine = await asTenant(app, orgId, "GET", "/api/messages?phone=15550009999")
    expect(mine.json().data).toEqual([])
  })

  it("lets a member read the outbox and leaves simulating to administrators", async () => {
    const asMember = (method: "GET" | "POST", url: string, body?: unknown) =>
      app.http.inject({
        method,
        url,
        headers: { "x-parley-principal": principalHeader(orgId, "member"), "content-type": "application/json" },
        ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
      })
    expect((await asMember("GET", "/api/sandbox/outbox")).statusCode).toBe(200)
    const refused = await asMember("POST", "/api/sandbox/inbound", { from: "15550001234", text: "hi" })
    expect(refused.statusCode).toBe(403)
    expect(refused.json().code).toBe("admin_required")
  })
})

describe("templates in the sandbox", () => {
  it("are submitted PENDING, then decided, re-scored and re-categorized through the ingress", async () => {
    const created = await asTenant(app, orgId, "POST", "/api/templates", {
      name: "order_ready",
      language: "en_US",
      category: "UTILITY",
      components: [{ type: "BODY", text: "Your order {{1}} is ready" }],
    })
    expect(created.statusCode).toBe(201)
    const template = created.json()
    expect(template).toMatchObject({ status: "PENDING" })
    expect(template.metaTemplateId).toMatch(/^[0-9]{15}$/)

    const approve = await asTenant(app, orgId, "POST", `/api/sandbox/templates/${template.id}`, {
      status: "APPROVED",
    })
    expect(approve.statusCode).toBe(202)
    const quality = await asTenant(app, orgId, "POST", `/api/sandbox/templates/${template.id}`, {
      qualityScore: "YELLOW",
      category: "MARKETING",
    })
    expect(quality.statusCode).toBe(202)
    expect((await eventsOf(infra, orgId, "template.status")).map((e) => e.data)).toEqual([
      {
        metaTemplateId: template.metaTemplateId,
        name: "order_ready",
        language: "en_US",
        status: "APPROVED",
        reason: "",
      },
    ])
    expect((await eventsOf(infra, orgId, "template.quality")).map((e) => e.data)).toEqual([
      expect.objectContaining({ qualityScore: "YELLOW", previousQualityScore: "" }),
    ])
    expect((await eventsOf(infra, orgId, "template.category")).map((e) => e.data)).toEqual([
      expect.objectContaining({ category: "MARKETING", previousCategory: "UTILITY" }),
    ])
    const listed = await asTenant(app, orgId, "GET", "/api/templates")
    expect(listed.json().data).toEqual([
      expect.objectContaining({ status: "APPROVED", qualityScore: "YELLOW", category: "MARKETING" }),
    ])

    // An approved template can be sent, and the sandbox records what was sent.
    const sent = await asTenant(app, orgId, "POST", "/api/messages", {
      to: "14155550188",
      template: { name: "order_ready", language: "en_US", variables: ["A-17"] },
    })
    expect(sent.statusCode).toBe(202)
    const outbox = await asTenant(app, orgId, "GET", "/api/sandbox/outbox?phone=14155550188")
    expect(outbox.json().data[0]).toMatchObject({
      type: "template",
      template: { name: "order_ready", language: "en_US", variables: ["A-17"] },
    })
  })

  it("rejects with the reason, answers 404 for another organization's template and 400 for an empty update", async () => {
    const created = await asTenant(app, orgId, "POST", "/api/templates", {
      name: "promo_spring",
      language: "en_US",
      category: "MARKETING",
      components: [{ type: "BODY", text: "Spring sale" }],
    })
    const { id } = created.json()
    const foreign = await asTenant(app, otherOrg, "POST", `/api/sandbox/templates/${id}`, { status: "APPROVED" })
    expect(foreign.statusCode).toBe(404)
    const empty = await asTenant(app, orgId, "POST", `/api/sandbox/templates/${id}`, {})
    expect(empty.statusCode).toBe(400)
    const rejected = await asTenant(app, orgId, "POST", `/api/sandbox/templates/${id}`, {
      status: "REJECTED",
      reason: "INVALID_FORMAT",
    })
    expect(rejected.statusCode).toBe(202)
    const events = (await eventsOf(infra, orgId, "template.status")).filter((e) => e.data.name === "promo_spring")
    expect(events.map((e) => e.data)).toEqual([
      expect.objectContaining({ status: "REJECTED", reason: "INVALID_FORMAT" }),
    ])
    // Nor does it send what the provider would not: a rejected template, one it never had.
    for (const name of ["promo_spring", "never_made"]) {
      const refused = await asTenant(app, orgId, "POST", "/api/messages", {
        to: "14155550177",
        template: { name, language: "en_US" },
      })
      expect(refused.statusCode).toBe(400)
      expect(refused.json()).toMatchObject({ code: "invalid_request" })
      expect(refused.json().error).toContain("(code 132001)")
    }
    const outbox = await asTenant(app, orgId, "GET", "/api/sandbox/outbox?phone=14155550177")
    expect(outbox.json().data).toEqual([])
  })
})

describe("a reply left pending by a crash (DESIGN §3.1)", () => {
  it("is sent when the bus delivers its record again, once at the provider, deduplicated by its id", async () => {
    const org = newOrg()
    await connectSandbox(org)
    await customerWrites(org, "14155550199")
    // The state a hard kill between recording the reply and calling the provider leaves: the reply
    // recorded `pending` under its source key, the bus record not committed (so delivered again).
    const sourceKey = "reply:cloud:wamid.crashed-question"
    await infra.db.sql`
      insert into messaging.messages (id, org_id, channel, direction, phone, type, text, status, source_key)
      values ('msg_crashed1', ${org}, 'cloud', 'outbound', '14155550199', 'text', 'We open at 9', 'pending',
              ${sourceKey})`
    const reply = encodeBusValue(ChannelOutbound, {
      orgId: org,
      channel: "cloud",
      to: "14155550199",
      text: "We open at 9",
      inReplyTo: "wamid.crashed-question",
    })
    const publish = Effect.gen(function* () {
      const bus = yield* Bus
      yield* bus.publish([{ topic: Topics.channelOutbound, key: org, value: reply }])
    })
    await infra.runtime.runPromise(publish)
    await eventually(
      async () => {
        const rows = await infra.db.sql`
          select id, status from messaging.messages where org_id = ${org} and direction = 'outbound'`
        expect(rows.map((r) => [r.id, r.status])).toEqual([["msg_crashed1", "sent"]])
      },
      { timeoutMs: 8_000 },
    )
    // Delivered again (a crash after the provider call, before the commit): the provider, which
    // knows the reply by its id, keeps one message; Parley keeps one record.
    await infra.db.sql`update messaging.messages set status = 'pending' where id = 'msg_crashed1'`
    await infra.runtime.runPromise(publish)
    await eventually(
      async () => {
        const rows = await infra.db.sql`select status from messaging.messages where id = 'msg_crashed1'`
        expect(rows[0]?.status).not.toBe("pending")
      },
      { timeoutMs: 8_000 },
    )
    const outbox = await asTenant(app, org, "GET", "/api/sandbox/outbox")
    expect(outbox.json().data).toEqual([expect.objectContaining({ to: "14155550199", text: "We open at 9" })])
  })
})

describe("status reports of a burst (a large campaign)", () => {
  it("reports hundreds of messages together, through a few ingress transactions, to the last `read`", async () => {
    const org = newOrg()
    const channel = await connectSandbox(org)
    /** Ingress transactions and the payloads they carried, so far. */
    const ingressBatches = async () => {
      const body = (await app.http.inject({ method: "GET", url: "/metrics" })).body
      const of = (name: string) =>
        Number(new RegExp(`${name}\\{[^}]*outcome="committed"[^}]*\\} (\\d+)`).exec(body)?.[1] ?? 0)
      return {
        transactions: of("parley_messaging_cloud_ingress_batch_payloads_count"),
        payloads: of("parley_messaging_cloud_ingress_batch_payloads_sum"),
      }
    }
    const before = await ingressBatches()
    const burst = 300
    const ids = Array.from({ length: burst }, (_, i) => `wamid.burst-${org}-${i}`)
    await infra.db.sql`
      insert into messaging.sandbox_outbox (message_id, org_id, phone_number_id, client_ref, recipient, type, status, next_status_at)
      select id, ${org}, ${channel.phoneNumberId}, id, '14155550123', 'template', 'accepted', now()
      from unnest(${ids}::text[]) as id`
    await eventually(
      async () => {
        const [row] = await infra.db.sql<Array<{ read: number }>>`
          select count(*)::int as read from messaging.sandbox_outbox
          where org_id = ${org} and status = 'read' and next_status_at is null`
        expect(row?.read).toBe(burst)
      },
      { timeoutMs: 20_000 },
    )
    const after = await ingressBatches()
    const payloads = after.payloads - before.payloads
    const transactions = after.transactions - before.transactions
    // Three reports each (sent, delivered, read), into the ingress together: one at a time, each was
    // a transaction of its own (900 here) and a campaign's kept every organization's waiting.
    expect(payloads).toBeGreaterThanOrEqual(3 * burst)
    expect(transactions).toBeLessThan(payloads / 4)
  }, 30_000)
})

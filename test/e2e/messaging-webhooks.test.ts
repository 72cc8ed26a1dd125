import { randomBytes } from "node:crypto"
import {
  eventually,
  type OtlpReceiver,
  type ReceivedRequest,
  type ReceivedSpan,
  type StubServer,
  startHttpServer,
  startOtlpReceiver,
} from "@parley/platform/testing"
import { verify } from "@parley/webhooks"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type MintedKey, type System, startSystem } from "./support/system.ts"

// Messaging's events (docs/contract.md §7) on their whole path in `npm start`'s composition: caused
// through the real entry points (the tenant API and provider-signed callbacks to
// /channels/cloud/webhook), appended through messaging's outbox, fanned out by the dispatcher and
// delivered to a tenant's receiver on loopback, signed with the secret it registered.
let system: System
let key: MintedKey
let receiver: StubServer
// npm start's composition (one process, the single-node bus) exports its spans here (CONTRACT §18).
let traces: OtlpReceiver
const secret = randomBytes(32).toString("base64")
const CLOUD = { phoneNumberId: "100000000777", businessAccountId: "200000000777", accessToken: "token-e2e" }
/** The provider refuses sends to this number as undeliverable (Graph code 131026). */
const UNDELIVERABLE = "14155550199"
const EVENTS = ["message.status", "template.status", "template.quality", "template.category", "campaign.completed"]

type Data = Record<string, unknown>

/** A provider callback of one change, as the cloud provider batches them under its business account. */
const providerChange = (field: string, value: Data, headers?: Record<string, string>) =>
  system.providerCallback(
    {
      object: "whatsapp_business_account",
      entry: [{ id: CLOUD.businessAccountId, time: 1_700_000_000, changes: [{ field, value }] }],
    },
    headers,
  )

const reportStatus = (messageId: string, status: string, recipient: string, headers?: Record<string, string>) =>
  providerChange(
    "messages",
    {
      messaging_product: "whatsapp",
      metadata: { display_phone_number: "15550000777", phone_number_id: CLOUD.phoneNumberId },
      statuses: [{ id: messageId, status, timestamp: "1700000001", recipient_id: recipient }],
    },
    headers,
  )

const spanOf = (traceparent: unknown) => /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(String(traceparent))
/**
 * The span and its ancestors, nearest first, once all of them are exported: up to the trace's root,
 * or to the span whose parent is `callerSpan` (a caller's span, exported by no one here).
 */
const lineage = (traceparent: unknown, callerSpan?: string) =>
  eventually(
    () => {
      const [, traceId, spanId] = spanOf(traceparent) ?? []
      expect(traceId, `a traceparent: ${String(traceparent)}`).toBeDefined()
      const byId = new Map(
        traces
          .spans()
          .filter((span) => span.traceId === traceId)
          .map((span) => [span.spanId, span]),
      )
      const chain: Array<ReceivedSpan> = []
      for (let id: string | undefined = spanId; id !== undefined && id !== callerSpan; ) {
        const span = byId.get(id)
        if (span === undefined) throw new Error(`span ${id} of trace ${traceId} not exported yet`)
        chain.push(span)
        id = span.parentSpanId
      }
      return chain
    },
    { timeoutMs: 15_000 },
  )
const names = (chain: ReadonlyArray<ReceivedSpan>) => chain.map((span) => span.name)

const createTemplate = async (name: string) => {
  const created = await key.client.post("/api/templates", {
    name,
    language: "en_US",
    category: "UTILITY",
    components: [{ type: "BODY", text: "Your order is on its way" }],
  })
  expect(created.status, created.text).toBe(201)
  return created.body as { name: string; metaTemplateId: string }
}

const templateRef = (template: { name: string; metaTemplateId: string }) => ({
  message_template_id: Number(template.metaTemplateId),
  message_template_name: template.name,
  message_template_language: "en_US",
})

/**
 * The receiver's first delivery of `event` whose data `matches`, once it has arrived, with the
 * envelope @parley/webhooks authenticated with the registered secret.
 */
const deliveryOf = async (event: string, matches: (data: Data) => boolean, timeoutMs = 15_000) => {
  const request = await eventually(
    () => {
      const found = receiver.requests.find(
        (r: ReceivedRequest) => r.headers["x-service-event"] === event && matches((r.json() as { data: Data }).data),
      )
      if (found === undefined) throw new Error(`no ${event} delivery of that data yet`)
      return found
    },
    { timeoutMs },
  )
  const envelope = await verify(request.body, request.headers, secret)
  await expect(verify(request.body, request.headers, randomBytes(32).toString("base64"))).rejects.toMatchObject({
    _tag: "InvalidSignature",
  })
  expect(envelope.event).toBe(event)
  expect(envelope.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
  expect(request.headers["user-agent"]).toMatch(/^Parley-Webhooks\//)
  return envelope.data as Data
}

beforeAll(async () => {
  receiver = await startHttpServer(() => ({ status: 204 }))
  traces = await startOtlpReceiver()
  system = await startSystem({
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: traces.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" },
  })
  let templates = 0
  let sends = 0
  system.provider.setHandler((request) => {
    if (request.path === `/v21.0/${CLOUD.phoneNumberId}/messages`) {
      const { to } = request.json() as { to: string }
      if (to === UNDELIVERABLE) {
        return { status: 400, body: { error: { message: "(#131026) Message undeliverable", code: 131026 } } }
      }
      return {
        body: {
          messaging_product: "whatsapp",
          contacts: [{ input: to, wa_id: to }],
          messages: [{ id: `wamid.e2e${++sends}` }],
        },
      }
    }
    if (request.method === "GET" && request.path === `/v21.0/${CLOUD.phoneNumberId}`) {
      // The connection's check that the token can read the number (docs/contract.md §10.1).
      expect(request.headers.authorization).toBe(`Bearer ${CLOUD.accessToken}`)
      return { body: { id: CLOUD.phoneNumberId, display_phone_number: "+1 555-000-0777", verified_name: "E2E" } }
    }
    if (request.path === `/v21.0/${CLOUD.businessAccountId}/message_templates`) {
      return { body: { id: String(880_000_000_000 + ++templates), status: "PENDING", category: "UTILITY" } }
    }
    return { status: 404, body: { error: { message: "Unknown path", code: 100 } } }
  })
  const tenant = await system.createTenant()
  key = await tenant.mintKey()
  const webhook = await key.client.post("/api/org/webhooks", { url: `${receiver.url}/parley`, secret, events: EVENTS })
  expect(webhook.status, webhook.text).toBe(201)
  const channel = await key.client.put("/api/channels/cloud", CLOUD)
  expect(channel.status, channel.text).toBe(200)
  // A new webhook applies to events more than a second after it was answered (docs/contract.md §6),
  // sooner being allowed: rather than sleep, send throwaway messages and report their statuses until
  // one reaches the receiver. Every event caused after that is one the webhook must get. (Only a
  // message sent through Parley has statuses that fire, docs/contract.md §7: an id made up fires none.)
  const probed = await providerChange("messages", {
    messaging_product: "whatsapp",
    metadata: { display_phone_number: "15550000777", phone_number_id: CLOUD.phoneNumberId },
    messages: [
      { from: "15550000001", id: "wamid.e2e.in.probe", timestamp: "1700000000", type: "text", text: { body: "Hi" } },
    ],
  })
  expect(probed.status).toBe(200)
  let probes = 0
  await eventually(
    async () => {
      const sent = await key.client.post("/api/messages", { to: "15550000001", text: `probe ${++probes}` })
      expect(sent.status, sent.text).toBe(202)
      const { messageId } = sent.body as { messageId: string }
      expect((await reportStatus(messageId, "sent", "15550000001")).status).toBe(200)
      await deliveryOf("message.status", (data) => data.messageId === messageId, 1_000)
    },
    { timeoutMs: 20_000 },
  )
  console.info(`messaging webhooks e2e: the webhook took effect by status probe ${probes}`)
}, 60_000)

afterAll(async () => {
  await system?.close()
  await receiver?.close()
  await traces?.close()
})

describe("messaging's events reach a tenant's webhook, signed", () => {
  it("traces a send to its provider call, and the provider's status callback to the webhook attempt (single-node bus)", async () => {
    // Free-form text needs the customer to have written within 24 hours (docs/contract.md §9).
    const wrote = await providerChange("messages", {
      messaging_product: "whatsapp",
      metadata: { display_phone_number: "15550000777", phone_number_id: CLOUD.phoneNumberId },
      messages: [
        { from: "14155550102", id: "wamid.e2e.in.0102", timestamp: "1700000000", type: "text", text: { body: "Hi" } },
      ],
    })
    expect(wrote.status).toBe(200)
    const sent = await key.client.post("/api/messages", { to: "+1 (415) 555-0102", text: "Traced" })
    expect(sent.status, sent.text).toBe(202)
    // The assistant answers the customer too: the call traced here is the one that sent "Traced".
    const call = system.provider.requests.findLast(
      (request) =>
        request.path === `/v21.0/${CLOUD.phoneNumberId}/messages` &&
        (request.json() as { text?: { body?: string } }).text?.body === "Traced",
    )
    const send = await lineage(call?.headers.traceparent)
    expect(send[0]?.name, names(send).join(" ← ")).toBe("provider POST messages")
    expect(send.at(-1)).toMatchObject({ name: "POST /api/*", kind: 2, service: "parley" })
    expect(names(send), names(send).join(" ← ")).toContain("POST /api/messages")

    const { messageId } = sent.body as { messageId: string }
    expect((await reportStatus(messageId, "sent", "14155550102")).status).toBe(200)
    const delivered = await eventually(
      () => {
        const found = receiver.requests.find((request) => request.text().includes(messageId))
        if (found === undefined) throw new Error("no message.status delivery yet")
        return found
      },
      { timeoutMs: 15_000 },
    )
    const attempt = await lineage(delivered.headers.traceparent)
    const chain = names(attempt).join(" ← ")
    expect(attempt[0], chain).toMatchObject({ name: "webhook POST attempt 1", kind: 3 })
    expect(attempt[1], chain).toMatchObject({ name: "parley.events.message.v1 process", kind: 5 })
    expect(attempt.at(-1), chain).toMatchObject({ name: "POST /channels/*", kind: 2 })
    expect(names(attempt), chain).toContain("POST /channels/cloud/webhook")
  })

  it("carries a caller's tracestate with its trace to the provider call and, across the bus, to the webhook attempt", async () => {
    const tracestate = "acme=t61rcWkgMzE,other=x"
    const caller = () => {
      const traceId = randomBytes(16).toString("hex")
      const spanId = randomBytes(8).toString("hex")
      return { traceId, spanId, headers: { traceparent: `00-${traceId}-${spanId}-01`, tracestate } }
    }
    const wrote = await providerChange("messages", {
      messaging_product: "whatsapp",
      metadata: { display_phone_number: "15550000777", phone_number_id: CLOUD.phoneNumberId },
      messages: [
        { from: "14155550103", id: "wamid.e2e.in.0103", timestamp: "1700000000", type: "text", text: { body: "Hi" } },
      ],
    })
    expect(wrote.status).toBe(200)
    const send = caller()
    const sent = await key.client.post(
      "/api/messages",
      { to: "+1 (415) 555-0103", text: "Traced with state" },
      { headers: send.headers },
    )
    expect(sent.status, sent.text).toBe(202)
    const call = await eventually(
      () => {
        const found = system.provider.requests.findLast(
          (request) => (request.json() as { text?: { body?: string } }).text?.body === "Traced with state",
        )
        if (found === undefined) throw new Error("no provider call yet")
        return found
      },
      { timeoutMs: 15_000 },
    )
    expect(call.headers.tracestate).toBe(tracestate)
    const toProvider = await lineage(call.headers.traceparent, send.spanId)
    expect(toProvider.at(-1)?.parentSpanId, names(toProvider).join(" ← ")).toBe(send.spanId)
    for (const span of toProvider) expect(span.traceState, span.name).toBe(tracestate)

    const { messageId } = sent.body as { messageId: string }
    const callback = caller()
    expect((await reportStatus(messageId, "sent", "14155550103", callback.headers)).status).toBe(200)
    const delivered = await eventually(
      () => {
        const found = receiver.requests.find(
          (request) => request.headers["x-service-event"] === "message.status" && request.text().includes(messageId),
        )
        if (found === undefined) throw new Error("no message.status delivery yet")
        return found
      },
      { timeoutMs: 15_000 },
    )
    expect(delivered.headers.traceparent).toMatch(new RegExp(`^00-${callback.traceId}-`))
    expect(delivered.headers.tracestate).toBe(tracestate)
    const attempt = await lineage(delivered.headers.traceparent, callback.spanId)
    const chain = names(attempt).join(" ← ")
    expect(attempt.at(-1), chain).toMatchObject({ name: "POST /channels/*", parentSpanId: callback.spanId })
    expect(names(attempt), chain).toEqual(
      expect.arrayContaining(["webhook POST attempt 1", "parley.events.message.v1 process", "db.groupCommit"]),
    )
    for (const span of attempt) expect(span.traceState, `${span.name} in ${chain}`).toBe(tracestate)
  })

  it("delivers message.status for each status the provider reports of a message sent through Parley", async () => {
    // Free-form text needs the customer to have written within 24 hours (docs/contract.md §9).
    const wrote = await providerChange("messages", {
      messaging_product: "whatsapp",
      metadata: { display_phone_number: "15550000777", phone_number_id: CLOUD.phoneNumberId },
      messages: [
        {
          from: "14155550101",
          id: "wamid.e2e.in.0101",
          timestamp: "1700000000",
          type: "text",
          text: { body: "Where is my order?" },
        },
      ],
    })
    expect(wrote.status).toBe(200)
    const sent = await key.client.post("/api/messages", { to: "+1 (415) 555-0101", text: "Your order has shipped" })
    expect(sent.status, sent.text).toBe(202)
    const { messageId } = sent.body as { messageId: string }
    expect(messageId).toMatch(/^wamid\.e2e/)
    for (const status of ["sent", "delivered", "read"]) {
      expect((await reportStatus(messageId, status, "14155550101")).status).toBe(200)
    }
    for (const status of ["sent", "delivered", "read"]) {
      const data = await deliveryOf("message.status", (d) => d.messageId === messageId && d.status === status)
      expect(data).toEqual({ messageId, status, recipient: "14155550101" })
    }
  })

  it("delivers template.status when the provider approves a template", async () => {
    const template = await createTemplate("order_shipped")
    const approved = await providerChange("message_template_status_update", {
      event: "APPROVED",
      ...templateRef(template),
      reason: "NONE",
    })
    expect(approved.status).toBe(200)
    const data = await deliveryOf("template.status", (d) => d.name === "order_shipped")
    expect(data).toEqual({
      name: "order_shipped",
      language: "en_US",
      metaTemplateId: template.metaTemplateId,
      status: "APPROVED",
      reason: "",
    })
  })

  it("delivers template.quality when the provider re-scores a template", async () => {
    const template = await createTemplate("order_rescored")
    const rescored = await providerChange("message_template_quality_update", {
      previous_quality_score: "GREEN",
      new_quality_score: "YELLOW",
      ...templateRef(template),
    })
    expect(rescored.status).toBe(200)
    const data = await deliveryOf("template.quality", (d) => d.name === "order_rescored")
    expect(data).toEqual({
      name: "order_rescored",
      language: "en_US",
      metaTemplateId: template.metaTemplateId,
      qualityScore: "YELLOW",
      previousQualityScore: "GREEN",
    })
  })

  it("delivers template.category when the provider moves a template to another category", async () => {
    const template = await createTemplate("order_moved")
    const moved = await providerChange("template_category_update", {
      previous_category: "UTILITY",
      new_category: "MARKETING",
      ...templateRef(template),
    })
    expect(moved.status).toBe(200)
    const data = await deliveryOf("template.category", (d) => d.name === "order_moved")
    expect(data).toEqual({
      name: "order_moved",
      language: "en_US",
      metaTemplateId: template.metaTemplateId,
      category: "MARKETING",
      previousCategory: "UTILITY",
    })
  })

  it("delivers campaign.completed with sent + failed = totalRecipients once every recipient was attempted", async () => {
    const template = await createTemplate("spring_sale")
    const approved = await providerChange("message_template_status_update", {
      event: "APPROVED",
      ...templateRef(template),
    })
    expect(approved.status).toBe(200)
    const created = await key.client.post("/api/campaigns", {
      name: "Spring sale",
      template: { name: "spring_sale", language: "en_US" },
      // Three distinct numbers (one written twice), one of which the provider cannot deliver to.
      recipients: ["+1 (415) 555-0111", "14155550112", "+1 415 555 0199", "1 415 555 0111"],
    })
    expect(created.status, created.text).toBe(202)
    const { id, totalRecipients } = created.body as { id: string; totalRecipients: number }
    expect(totalRecipients).toBe(3)
    const data = await deliveryOf("campaign.completed", (d) => d.campaignId === id)
    expect(data).toEqual({ campaignId: id, name: "Spring sale", totalRecipients: 3, sent: 2, failed: 1 })
    const campaign = await key.client.get(`/api/campaigns/${id}`)
    expect(campaign.body).toMatchObject({ status: "completed", totalRecipients: 3, sent: 2, failed: 1 })
  })
})

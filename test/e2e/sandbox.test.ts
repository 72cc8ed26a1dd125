import { randomBytes } from "node:crypto"
import { eventually, type ReceivedRequest, type StubServer, startHttpServer } from "@parley/platform/testing"
import { verify } from "@parley/webhooks"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type MintedKey, type System, startSystem } from "./support/system.ts"

// The sandbox (docs/contract.md §16) on its whole path in `npm start`'s composition, as a newcomer
// tries it: no provider account, a simulated customer, the assistant's answer reported sent →
// delivered → read, a template decided, a campaign run — every event reaching the tenant's
// receiver signed, exactly as with a real provider. The provider stand-in must never be called.
let system: System
let key: MintedKey
let receiver: StubServer
const secret = randomBytes(32).toString("base64")
const EVENTS = ["message.inbound", "message.status", "lead.created", "template.status", "campaign.completed"]

type Data = Record<string, unknown>

const deliveryOf = async (event: string, matches: (data: Data) => boolean, timeoutMs = 20_000) => {
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
  expect(envelope.event).toBe(event)
  return envelope.data as Data
}

const simulate = async (from: string, text: string, name?: string) => {
  const answer = await key.client.post("/api/sandbox/inbound", { from, text, ...(name === undefined ? {} : { name }) })
  expect(answer.status, answer.text).toBe(202)
  return (answer.body as { messageId: string }).messageId
}

beforeAll(async () => {
  receiver = await startHttpServer(() => ({ status: 204 }))
  system = await startSystem()
  const tenant = await system.createTenant()
  key = await tenant.mintKey()
  const webhook = await key.client.post("/api/org/webhooks", { url: `${receiver.url}/parley`, secret, events: EVENTS })
  expect(webhook.status, webhook.text).toBe(201)
  const channel = await key.client.put("/api/channels/cloud", { sandbox: true })
  expect(channel.status, channel.text).toBe(200)
  expect(channel.body).toMatchObject({ type: "cloud", sandbox: true, status: "connected" })
  // A new webhook applies to events more than a second after it was answered (docs/contract.md §6):
  // probe with simulated customers until one's message.inbound arrives.
  let probes = 0
  await eventually(
    async () => {
      const messageId = await simulate(`1555000${String(++probes).padStart(4, "0")}`, "probe")
      await deliveryOf("message.inbound", (data) => data.messageId === messageId, 1_000)
    },
    { timeoutMs: 20_000 },
  )
}, 60_000)

afterAll(async () => {
  await system?.close()
  await receiver?.close()
})

describe("the sandbox, end to end", () => {
  it("delivers a simulated customer's message and the lead it created, signed, and the reply's statuses", async () => {
    const messageId = await simulate("+1 415 555 0161", "Hi, I'm Dana. Could you call me back?", "Dana")
    const inbound = await deliveryOf("message.inbound", (data) => data.messageId === messageId)
    expect(inbound).toEqual({
      from: "14155550161",
      name: "Dana",
      type: "text",
      text: "Hi, I'm Dana. Could you call me back?",
      messageId,
    })
    expect(JSON.stringify(inbound)).not.toContain("sandbox")
    const lead = await deliveryOf("lead.created", (data) => data.phone === "14155550161")
    expect(lead).toMatchObject({ phone: "14155550161" })
    const leads = await key.client.get("/api/leads")
    expect((leads.body as { data: Array<Data> }).data).toEqual(
      expect.arrayContaining([expect.objectContaining({ phone: "14155550161" })]),
    )

    // The assistant answered on the channel; the sandbox reports that reply sent, delivered, read.
    const reply = await eventually(
      async () => {
        const outbox = await key.client.get("/api/sandbox/outbox?phone=14155550161")
        const [sent] = (outbox.body as { data: Array<{ messageId: string; status: string }> }).data
        if (sent === undefined) throw new Error("no reply yet")
        return sent
      },
      { timeoutMs: 20_000 },
    )
    for (const status of ["sent", "delivered", "read"]) {
      expect(await deliveryOf("message.status", (d) => d.messageId === reply.messageId && d.status === status)).toEqual(
        {
          messageId: reply.messageId,
          status,
          recipient: "14155550161",
        },
      )
    }
    const messages = await key.client.get("/api/messages?phone=14155550161")
    expect((messages.body as { data: Array<Data> }).data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ direction: "inbound", sandbox: true }),
        expect.objectContaining({ direction: "outbound", messageId: reply.messageId, status: "read" }),
      ]),
    )
  })

  it("decides a template and runs a campaign, a number ending in 0000 counted failed with 131026", async () => {
    const created = await key.client.post("/api/templates", {
      name: "sandbox_sale",
      language: "en_US",
      category: "MARKETING",
      components: [{ type: "BODY", text: "Spring sale starts today" }],
    })
    expect(created.status, created.text).toBe(201)
    const template = created.body as { id: string; metaTemplateId: string }
    const approved = await key.client.post(`/api/sandbox/templates/${template.id}`, { status: "APPROVED" })
    expect(approved.status, approved.text).toBe(202)
    expect(await deliveryOf("template.status", (d) => d.name === "sandbox_sale")).toEqual({
      metaTemplateId: template.metaTemplateId,
      name: "sandbox_sale",
      language: "en_US",
      status: "APPROVED",
      reason: "",
    })
    const campaign = await key.client.post("/api/campaigns", {
      name: "Sandbox sale",
      template: { name: "sandbox_sale", language: "en_US" },
      recipients: ["+1 415 555 0171", "+1 415 555 0172", "+1 415 555 0000"],
    })
    expect(campaign.status, campaign.text).toBe(202)
    const { id } = campaign.body as { id: string }
    expect(await deliveryOf("campaign.completed", (d) => d.campaignId === id)).toEqual({
      campaignId: id,
      name: "Sandbox sale",
      totalRecipients: 3,
      sent: 2,
      failed: 1,
    })
    const outbox = await key.client.get("/api/sandbox/outbox")
    const sent = (outbox.body as { data: Array<{ to: string; type: string }> }).data.filter(
      (m) => m.type === "template",
    )
    expect(sent.map((m) => m.to).sort()).toEqual(["14155550171", "14155550172"])
    expect(system.provider.requests).toHaveLength(0)
  })
})

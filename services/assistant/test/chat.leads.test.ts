import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  admin,
  leadEventsOf,
  newOrg,
  type RunningApp,
  startApp,
  startInfrastructure,
  type TestInfrastructure,
  widget,
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

const say = async (message: string) => {
  const orgId = newOrg()
  const response = await widget(app, orgId, "POST", "/api/public/chat", { message })
  expect(response.statusCode).toBe(200)
  const body = response.json() as { reply: { text: string }; lead: { type: string } | null }
  expect(body.reply.text.trim()).not.toBe("")
  return { orgId, body }
}

describe("the default assistant records leads from what visitors write", () => {
  it.each([
    ["Please call me back: +1 (415) 555-0100", "14155550100", "", "CALLBACK_REQUESTED"],
    ["I'm Dana, I'd like a demo, 0049 30 1234567", "49301234567", "Dana", "DEMO_REQUESTED"],
    ["this is Omar. 415.555.0100", "14155550100", "Omar", "GENERAL_INQUIRY"],
    ["I'm in London, call me on +44 (0) 7700 900 456", "447700900456", "", "CALLBACK_REQUESTED"],
    ["hi im sarah, please ring me on 415 555 0136", "14155550136", "Sarah", "CALLBACK_REQUESTED"],
    [
      "my name is priya and my number is +44 20 7946 0958, can you ring me?",
      "442079460958",
      "Priya",
      "CALLBACK_REQUESTED",
    ],
  ])("%j → lead %s / %j / %s", async (message, phone, name, type) => {
    const { orgId, body } = await say(message)
    expect(body.lead?.type).toBe(type)
    expect((await leadEventsOf(infra, orgId)).map((e) => e.data)).toEqual([{ phone, name, type, booking: null }])
  })

  it.each([
    "Do you have availability on 2026-12-01?",
    "we could meet 01.12.2026 at 10:30",
    "Is $1,499.99 the final price?",
    "I paid 2500 EUR already",
    "Where is my order #100234567?",
    "invoice number 2026-0042311 looks wrong",
    "call me at 12345",
    // A US number without its area code is asked about, not stored as a made-up +1 555 1234.
    "Demo please! Call me at 555-1234",
    "my id is 12345678901234567890",
    "I'm interested, what does it cost?",
    "my order number is 4839201745 and it hasn't arrived",
    "Membership no. 12345678 — I can't log in",
    "my customer number is 5512345678, please update my address",
    "Hello!",
  ])("%j → no lead", async (message) => {
    const { orgId, body } = await say(message)
    expect(body.lead).toBeNull()
    expect(await leadEventsOf(infra, orgId)).toEqual([])
  })
})

/**
 * Phone numbers read with the organization's country (docs/contract.md §8): what the reply says
 * and what is stored agree — a number taken is recorded as international digits, a doubtful one
 * is asked about and recorded nowhere until the visitor confirms it.
 */
interface Chat {
  readonly sessionId: string
  readonly reply: { text: string }
  readonly lead: { id: string; type: string } | null
}

const chat = async (orgId: ReturnType<typeof newOrg>, message: string, sessionId?: string): Promise<Chat> => {
  const response = await widget(app, orgId, "POST", "/api/public/chat", {
    message,
    ...(sessionId === undefined ? {} : { sessionId }),
  })
  expect(response.statusCode, response.body).toBe(200)
  return response.json() as Chat
}

const leadsOf = async (orgId: ReturnType<typeof newOrg>) =>
  (
    (await admin(app, orgId, "GET", "/api/leads")).json() as {
      data: Array<{ phone: string; name: string; type: string }>
    }
  ).data

describe("phone numbers on the widget, read with the organization's country", () => {
  it.each([
    ["I'm Tom, please call me on +44 (0) 7700 900456", "447700900456"],
    ["I'm Tom, please call me on +44 7700 900123", "447700900123"],
  ])("%j (organization in the US) is taken, said as taken and stored as %s", async (message, phone) => {
    const orgId = newOrg()
    const first = await chat(orgId, message)
    expect(first.reply.text).not.toContain("not sure")
    expect(first.reply.text).toContain("call you back")
    expect(first.lead?.type).toBe("CALLBACK_REQUESTED")
    expect(await leadsOf(orgId)).toMatchObject([{ phone, name: "Tom", type: "CALLBACK_REQUESTED" }])
    expect((await leadEventsOf(infra, orgId)).map((e) => [e.event, e.data.phone])).toEqual([["lead.created", phone]])
  })

  it("asks about a UK national number to a US organization and records nothing until it is confirmed", async () => {
    const orgId = newOrg()
    const first = await chat(orgId, "Can you call me? 07700 900123")
    expect(first.reply.text).toContain("not sure 07700 900123 is a number we can call")
    expect(first.reply.text).not.toContain("call you back")
    expect(first.lead).toBeNull()
    expect(await leadsOf(orgId)).toEqual([])
    expect(await leadEventsOf(infra, orgId)).toEqual([])

    const confirmed = await chat(orgId, "+44 7700 900123", first.sessionId)
    expect(confirmed.reply.text).toContain("call you back")
    expect(confirmed.lead?.type).toBe("CALLBACK_REQUESTED")
    expect(await leadsOf(orgId)).toMatchObject([{ phone: "447700900123", type: "CALLBACK_REQUESTED" }])
    expect((await leadEventsOf(infra, orgId)).map((e) => [e.event, e.data.phone])).toEqual([
      ["lead.created", "447700900123"],
    ])
  })

  it("takes the same UK national number from a GB organization, with its country code", async () => {
    const orgId = newOrg()
    const settings = (await admin(app, orgId, "GET", "/api/bookings/settings")).json() as Record<string, unknown>
    const saved = await admin(app, orgId, "PUT", "/api/bookings/settings", { ...settings, country: "GB" })
    expect(saved.statusCode, saved.body).toBe(200)
    const first = await chat(orgId, "Can you call me? 07700 900123")
    expect(first.reply.text).not.toContain("not sure")
    expect(first.reply.text).toContain("call you back")
    expect(await leadsOf(orgId)).toMatchObject([{ phone: "447700900123", type: "CALLBACK_REQUESTED" }])
    expect((await leadEventsOf(infra, orgId)).map((e) => [e.event, e.data.phone])).toEqual([
      ["lead.created", "447700900123"],
    ])
  })
})

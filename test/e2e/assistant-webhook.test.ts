import { randomBytes } from "node:crypto"
import { rm } from "node:fs/promises"
import { join } from "node:path"
import { eventually, type StubServer, startHttpServer } from "@parley/platform/testing"
import { verify } from "@parley/webhooks"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  embeddedEnvironment,
  type StandaloneProcess,
  startStandaloneProcess,
  temporaryRoot,
} from "./support/standalone-process.ts"

// A tenant's whole path through Parley: a widget visitor chats, the assistant records the lead,
// `lead.created` goes over the bus to the dispatcher, and the tenant's receiver gets a signed
// delivery it verifies with @parley/webhooks — all through the gateway's public HTTP entry points.
describe("widget chat to a signed lead webhook", () => {
  let root: string
  let parley: StandaloneProcess
  let receiver: StubServer
  let fullKey: string

  beforeAll(async () => {
    root = await temporaryRoot("parley-assistant-e2e-")
    receiver = await startHttpServer(() => ({ status: 204 }))
    parley = await startStandaloneProcess({
      ...(await embeddedEnvironment(join(root, "data"))),
      PARLEY_WEBHOOK_ALLOW_PRIVATE: "true",
    })
    // The first-start block may still be on its way when the banner is out.
    fullKey = await eventually(() => {
      const key = /API key:\s+(parley_\S+)/.exec(parley.output())?.[1]
      if (key === undefined) throw new Error("no API key printed yet")
      return key
    })
  }, 120_000)

  afterAll(async () => {
    await parley?.stop()
    await receiver?.close()
    await rm(root, { recursive: true, force: true })
  })

  const api = async (method: string, path: string, key: string, body?: unknown) => {
    const response = await fetch(`${parley.url}${path}`, {
      method,
      headers: { "x-api-key": key, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    return { status: response.status, body: (await response.json()) as Record<string, unknown> }
  }

  it("delivers lead.created, signed, for a phone number given in the widget chat", async () => {
    expect(fullKey).toMatch(/^parley_/)
    const secret = randomBytes(32).toString("base64")
    const webhook = await api("POST", "/api/org/webhooks", fullKey, {
      url: `${receiver.url}/parley`,
      secret,
      events: ["lead.created", "lead.updated"],
    })
    expect(webhook.status).toBe(201)

    const widgetKey = await api("POST", "/api/org/api-keys", fullKey, {
      name: "website",
      scopes: ["chat:write", "chat:read", "bookings:read", "bookings:write"],
    })
    expect(widgetKey.status).toBe(201)
    const key = widgetKey.body.key as string

    // Registration applies to events more than a second after it was answered (docs/contract.md §6).
    await new Promise((resolve) => setTimeout(resolve, 1_100))
    const chat = await fetch(`${parley.url}/api/public/chat`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ message: "Hi, I'm Dana. Could you call me back on +1 (415) 555-0100?" }),
    })
    expect(chat.status).toBe(200)
    const answer = (await chat.json()) as {
      sessionId: string
      reply: { text: string }
      lead: { id: string; type: string }
    }
    expect(answer.reply.text.length).toBeGreaterThan(0)
    expect(answer.lead.type).toBe("CALLBACK_REQUESTED")

    const delivery = await eventually(
      () => {
        const found = receiver.requests.find((r) => r.headers["x-service-event"] === "lead.created")
        if (found === undefined) throw new Error("no lead.created delivery yet")
        return found
      },
      { timeoutMs: 20_000 },
    )
    const envelope = await verify(delivery.body, delivery.headers as Record<string, string>, secret)
    expect(envelope).toMatchObject({
      event: "lead.created",
      data: { phone: "14155550100", name: "Dana", type: "CALLBACK_REQUESTED", booking: null },
    })
    expect(delivery.headers["x-service-attempt"]).toBe("1")
    await expect(
      verify(delivery.body, delivery.headers as Record<string, string>, randomBytes(32).toString("base64")),
    ).rejects.toBeDefined()

    // The widget key reads its own session back, and the lead is listed for the organization.
    const transcript = await fetch(`${parley.url}/api/public/chat/${answer.sessionId}?apiKey=${key}`)
    expect(transcript.status).toBe(200)
    const leads = await api("GET", "/api/leads", fullKey)
    expect(leads.status).toBe(200)
    expect(leads.body.data).toMatchObject([{ id: answer.lead.id, phone: "14155550100", name: "Dana", source: "chat" }])
    expect((await api("GET", "/api/leads", key)).status).toBe(403)

    // A widget booking by the same phone turns the lead into a BOOKING: lead.updated, signed too.
    const date = new Date(Date.now() + 7 * 86_400_000)
    while (date.getUTCDay() !== 3) date.setUTCDate(date.getUTCDate() + 1)
    const day = date.toISOString().slice(0, 10)
    const slots = await api("GET", `/api/public/bookings/slots?date=${day}&service=consultation`, key)
    expect(slots.status, JSON.stringify(slots.body)).toBe(200)
    expect(slots.body.slots).toContainEqual({ time: "10:00", available: true })
    const booking = await api("POST", "/api/public/bookings", key, {
      name: "Dana",
      phone: "+1 415 555 0100",
      date: day,
      time: "10:00",
      service: "consultation",
    })
    expect(booking.status).toBe(201)
    expect(booking.body).toMatchObject({ phone: "14155550100", date: day, time: "10:00", status: "confirmed" })
    const updated = await eventually(
      () => {
        const found = receiver.requests.find((r) => r.headers["x-service-event"] === "lead.updated")
        if (found === undefined) throw new Error("no lead.updated delivery yet")
        return found
      },
      { timeoutMs: 20_000 },
    )
    expect(await verify(updated.body, updated.headers as Record<string, string>, secret)).toMatchObject({
      event: "lead.updated",
      data: {
        phone: "14155550100",
        name: "Dana",
        type: "BOOKING",
        booking: { date: day, time: "10:00", service: "consultation" },
      },
    })
  }, 60_000)
})

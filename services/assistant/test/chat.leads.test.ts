import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
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
    ["Demo please! Call me at 555-1234", "15551234", "", "DEMO_REQUESTED"],
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

import type { OrgId } from "@parley/contracts"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  admin,
  futureWeekday,
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

const say = async (orgId: OrgId, message: string, sessionId?: string, extra: Record<string, unknown> = {}) => {
  const response = await widget(app, orgId, "POST", "/api/public/chat", {
    message,
    ...(sessionId === undefined ? {} : { sessionId }),
    ...extra,
  })
  expect(response.statusCode, response.body).toBe(200)
  return response.json() as { sessionId: string; reply: { text: string }; lead: { id: string; type: string } | null }
}

describe("widget chat", () => {
  it("starts a session and answers without a lead when no phone number is given", async () => {
    const orgId = newOrg()
    const answer = await say(orgId, "Hello, what do you offer?")
    expect(answer.sessionId).toMatch(/^ses_[0-9A-Za-z]{22}$/)
    expect(answer.reply.text.length).toBeGreaterThan(0)
    expect(answer.lead).toBeNull()
    expect(await leadEventsOf(infra, orgId)).toEqual([])
  })

  it("records a lead with the seed's payload the first time a phone number appears", async () => {
    const orgId = newOrg()
    const first = await say(orgId, "Hi, I'm Dana. Please call me back on +1 (415) 555-0100")
    expect(first.lead?.type).toBe("CALLBACK_REQUESTED")
    expect(first.lead?.id).toMatch(/^lead_/)
    const events = await leadEventsOf(infra, orgId)
    expect(events).toHaveLength(1)
    expect(events[0]?.event).toBe("lead.created")
    expect(events[0]?.data).toEqual({ phone: "14155550100", name: "Dana", type: "CALLBACK_REQUESTED", booking: null })
    expect(events[0]?.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
  })

  it("fires lead.updated only when the name, type or booking changes", async () => {
    const orgId = newOrg()
    const { sessionId } = await say(orgId, "my number is 415 555 0142")
    await say(orgId, "thanks!", sessionId)
    await say(orgId, "my name is Priya", sessionId)
    await say(orgId, "ok", sessionId)
    await say(orgId, "can I get a demo?", sessionId)
    const events = await leadEventsOf(infra, orgId)
    expect(events.map((e) => [e.event, e.data.name, e.data.type])).toEqual([
      ["lead.created", "", "GENERAL_INQUIRY"],
      ["lead.updated", "Priya", "GENERAL_INQUIRY"],
      ["lead.updated", "Priya", "DEMO_REQUESTED"],
    ])
  })

  it("keeps one lead per phone number across sessions, changed only by the session that made it", async () => {
    const orgId = newOrg()
    const a = await say(orgId, "call me at 4155550111")
    const b = await say(orgId, "this is Omar, 415-555-0111")
    expect(b.sessionId).not.toBe(a.sessionId)
    // The second session did not make the lead: it is not told it, and neither names nor retypes it.
    expect(a.lead?.id).toMatch(/^lead_/)
    expect(b.lead).toBeNull()
    const events = await leadEventsOf(infra, orgId)
    expect(events.map((e) => e.event)).toEqual(["lead.created"])
    const listed = (await admin(app, orgId, "GET", "/api/leads")).json() as {
      data: Array<{ id: string; name: string; type: string }>
    }
    expect(listed.data).toMatchObject([{ id: a.lead?.id, name: "", type: "CALLBACK_REQUESTED" }])
  })

  it("announces a lead as GET /api/leads lists it: a booked customer's later callback request announces nothing", async () => {
    const orgId = newOrg()
    const date = futureWeekday(4)
    const first = await say(orgId, "please call me on 4155550188")
    await say(orgId, `book me for ${date} at 11am`, first.sessionId)
    await say(orgId, "and please call me back too", first.sessionId)
    // Another session (a stranger, as far as anyone can tell) asking for a callback on that number.
    const later = await say(orgId, "this is 415 555 0188, please call me back")
    await say(orgId, "yes, a call back please", later.sessionId)
    const events = await leadEventsOf(infra, orgId)
    // It used to announce CALLBACK_REQUESTED while the list said BOOKING.
    expect(events.map((e) => [e.event, e.data.type, e.data.booking])).toEqual([
      ["lead.created", "CALLBACK_REQUESTED", null],
      ["lead.updated", "BOOKING", { date, time: "11:00", service: "consultation" }],
    ])
    const listed = (await admin(app, orgId, "GET", "/api/leads")).json() as { data: Array<{ type: string }> }
    expect(listed.data.map((lead) => lead.type)).toEqual(["BOOKING"])
    // Staff cancel the booking: the lead loses it and stays BOOKING, in the list and in the event.
    const bookings = (await admin(app, orgId, "GET", "/api/bookings")).json() as { data: Array<{ id: string }> }
    expect((await admin(app, orgId, "DELETE", `/api/bookings/${bookings.data[0]?.id}`)).statusCode).toBe(200)
    expect((await leadEventsOf(infra, orgId)).map((e) => [e.event, e.data.type, e.data.booking]).at(-1)).toEqual([
      "lead.updated",
      "BOOKING",
      null,
    ])
  })

  it("takes the visitor's name and phone from the request's visitor fields", async () => {
    const orgId = newOrg()
    const answer = await say(orgId, "hello", undefined, { visitor: { name: "Kim", phone: "+44 20 7946 0958" } })
    expect(answer.lead?.type).toBe("GENERAL_INQUIRY")
    expect((await leadEventsOf(infra, orgId))[0]?.data).toMatchObject({ phone: "442079460958", name: "Kim" })
  })

  it("stores no made-up number from a visitor field no plan has, and asks for the number instead", async () => {
    const orgId = newOrg()
    const answer = await say(orgId, "please call me back", undefined, { visitor: { phone: "07700 900123" } })
    expect(answer.lead).toBeNull()
    expect(answer.reply.text).not.toContain("call you back at")
    expect(answer.reply.text).toMatch(/number/)
    expect(await leadEventsOf(infra, orgId)).toEqual([])
  })

  it("answers messages of one session sent at once without losing what any of them said", async () => {
    const orgId = newOrg()
    const { sessionId } = await say(orgId, "hello")
    const messages = ["I'm Dana", "call me back at 4155550190", "also, I want a demo", "thanks", "ok", "great"]
    const answers = await Promise.all(messages.map((message) => say(orgId, message, sessionId)))
    expect(answers.every((a) => a.sessionId === sessionId)).toBe(true)
    const transcript = (await widget(app, orgId, "GET", `/api/public/chat/${sessionId}`)).json() as {
      messages: Array<{ role: string; text: string }>
    }
    expect(transcript.messages).toHaveLength(2 + messages.length * 2)
    expect(
      transcript.messages
        .filter((m) => m.role === "visitor")
        .map((m) => m.text)
        .sort(),
    ).toEqual(["hello", ...messages].sort())
    const events = await leadEventsOf(infra, orgId)
    expect(events.at(-1)?.data).toMatchObject({ phone: "14155550190", name: "Dana", type: "DEMO_REQUESTED" })
  })

  it("gives back the conversation oldest first", async () => {
    const orgId = newOrg()
    const { sessionId } = await say(orgId, "first message")
    await say(orgId, "second message", sessionId)
    const response = await widget(app, orgId, "GET", `/api/public/chat/${sessionId}`)
    expect(response.statusCode).toBe(200)
    const body = response.json() as {
      sessionId: string
      messages: Array<{ role: string; text: string; createdAt: string }>
    }
    expect(body.sessionId).toBe(sessionId)
    expect(body.messages.map((m) => [m.role, m.role === "visitor" ? m.text : "…"])).toEqual([
      ["visitor", "first message"],
      ["assistant", "…"],
      ["visitor", "second message"],
      ["assistant", "…"],
    ])
  })

  it("clears the conversation on reset but keeps the lead", async () => {
    const orgId = newOrg()
    const { sessionId, lead } = await say(orgId, "I'm Dana, 415 555 0199")
    const reset = await widget(app, orgId, "POST", "/api/public/chat/reset", { sessionId })
    expect(reset.statusCode).toBe(200)
    expect(reset.json()).toEqual({ sessionId })
    const transcript = await widget(app, orgId, "GET", `/api/public/chat/${sessionId}`)
    expect(transcript.json()).toEqual({ sessionId, messages: [] })
    const after = await say(orgId, "hello again", sessionId)
    expect(after.sessionId).toBe(sessionId)
    expect(after.lead?.id).toBe(lead?.id)
  })

  it("starts a new session for an unknown session id", async () => {
    const orgId = newOrg()
    const answer = await say(orgId, "hi", "ses_doesNotExist000000000")
    expect(answer.sessionId).not.toBe("ses_doesNotExist000000000")
  })

  it("books inside the conversation: offer, pick, book, and the lead becomes a BOOKING", async () => {
    const orgId = newOrg()
    const date = futureWeekday(2)
    const day = new Intl.DateTimeFormat("en-US", {
      weekday: "long",
      month: "long",
      day: "numeric",
      timeZone: "UTC",
    }).format(new Date(`${date}T12:00:00Z`))
    const first = await say(orgId, `I'm Dana, can I book an appointment on ${date}?`)
    expect(first.reply.text).toContain(day)
    expect(first.reply.text).toContain("9:00 AM")
    // Dates and times as people read them: no ISO date, no zone id in prose (docs/contract.md §8).
    expect(first.reply.text).not.toContain(date)
    expect(first.reply.text).not.toContain("UTC")
    const picked = await say(orgId, "10:30 please", first.sessionId)
    expect(picked.reply.text).toContain("phone number")
    expect(picked.lead).toBeNull()
    const booked = await say(orgId, "+1 415 555 0142", first.sessionId)
    expect(booked.reply.text).toContain(`${day} at 10:30 AM`)
    expect(booked.lead?.type).toBe("BOOKING")
    const events = await leadEventsOf(infra, orgId)
    expect(events).toHaveLength(1)
    expect(events[0]).toMatchObject({
      event: "lead.created",
      data: {
        phone: "14155550142",
        name: "Dana",
        type: "BOOKING",
        booking: { date, time: "10:30", service: "consultation" },
      },
    })
    const slots = await widget(app, orgId, "GET", `/api/public/bookings/slots?date=${date}`)
    const slot = (slots.json() as { slots: Array<{ time: string; available: boolean }> }).slots.find(
      (s) => s.time === "10:30",
    )
    expect(slot?.available).toBe(false)
  })

  it("turns an existing lead into a BOOKING with lead.updated when it books in chat", async () => {
    const orgId = newOrg()
    const date = futureWeekday(3)
    const { sessionId } = await say(orgId, "please call me on 4155550177")
    await say(orgId, `book me for ${date} at 2pm`, sessionId)
    const events = await leadEventsOf(infra, orgId)
    expect(events.map((e) => [e.event, e.data.type])).toEqual([
      ["lead.created", "CALLBACK_REQUESTED"],
      ["lead.updated", "BOOKING"],
    ])
    expect(events[1]?.data.booking).toEqual({ date, time: "14:00", service: "consultation" })
  })
})

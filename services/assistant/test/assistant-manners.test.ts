import type { OrgId } from "@parley/contracts"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  admin,
  call,
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

type Answer = { sessionId: string; reply: { text: string }; lead: { id: string; type: string } | null }

const say = async (orgId: OrgId, message: string, sessionId?: string): Promise<Answer> => {
  const response = await widget(app, orgId, "POST", "/api/public/chat", {
    message,
    ...(sessionId === undefined ? {} : { sessionId }),
  })
  expect(response.statusCode, response.body).toBe(200)
  return response.json() as Answer
}

type Listed = { id: string; date: string; time: string; status: string; phone: string }
const bookingsOf = async (orgId: OrgId) =>
  ((await admin(app, orgId, "GET", "/api/bookings")).json() as { data: Array<Listed> }).data

const slotFree = async (orgId: OrgId, date: string, time: string) => {
  const slots = (await widget(app, orgId, "GET", `/api/public/bookings/slots?date=${date}`)).json() as {
    slots: Array<{ time: string; available: boolean }>
  }
  return slots.slots.find((slot) => slot.time === time)?.available
}

const PROFILE = {
  businessName: "Brightside Digital",
  languages: ["en", "es"],
  greeting: "Welcome to Brightside!",
  about: "We make scheduling software.",
  faqs: [{ question: "Do you have parking?", answer: "Free parking on Mill Lane." }],
  handoffMessage: "Good question for the team. Shall they call you?",
}

describe("the assistant's profile (docs/contract.md §8)", () => {
  it("starts with the defaults, and reads back what an administrator saved", async () => {
    const orgId = newOrg()
    const initial = await call(app, orgId, "member", "GET", "/api/assistant/profile")
    expect(initial.statusCode).toBe(200)
    expect(initial.json()).toEqual({ businessName: "", languages: ["en"], faqs: [] })
    const saved = await admin(app, orgId, "PUT", "/api/assistant/profile", PROFILE)
    expect(saved.statusCode, saved.body).toBe(200)
    expect(saved.json()).toEqual(PROFILE)
    expect((await call(app, orgId, "member", "GET", "/api/assistant/profile")).json()).toEqual(PROFILE)
  })

  it("answers from it: the FAQ, the hand-off message, a hello (the greeting is the widget's), in the visitor's language", async () => {
    const orgId = newOrg()
    await admin(app, orgId, "PUT", "/api/assistant/profile", PROFILE)
    expect((await say(orgId, "is there anywhere to park?")).reply.text).toBe("Free parking on Mill Lane.")
    expect((await say(orgId, "do you sell printers?")).reply.text).toBe(PROFILE.handoffMessage)
    // The widget showed the greeting before the visitor typed: a "hello" is asked what they need instead.
    const hello = (await say(orgId, "hello")).reply.text
    expect(hello).not.toContain("Welcome to Brightside!")
    expect(hello).toContain("book an appointment")
    expect((await say(orgId, "Hola, ¿qué servicios ofrecéis?")).reply.text).toContain("Ofrecemos consultation")
  })

  it.each([
    [{ ...PROFILE, businessName: "" }, "businessName"],
    [{ ...PROFILE, languages: [] }, "languages"],
    [{ ...PROFILE, languages: ["en", "it"] }, "languages[1]"],
    [{ ...PROFILE, about: "x".repeat(2001) }, "about"],
    [{ ...PROFILE, faqs: Array.from({ length: 201 }, () => ({ question: "q", answer: "a" })) }, "faqs"],
    [{ ...PROFILE, faqs: [{ question: "q", answer: "a".repeat(1001) }] }, "faqs[0].answer"],
  ])("refuses %# with 400 naming %s", async (body, field) => {
    const response = await admin(app, newOrg(), "PUT", "/api/assistant/profile", body)
    expect(response.statusCode).toBe(400)
    expect((response.json() as { issues: Array<{ path: string }> }).issues.map((i) => i.path)).toContain(field)
  })

  it("is written by administrators only, and never across organizations", async () => {
    const [a, b] = [newOrg(), newOrg()]
    const member = await call(app, a, "member", "PUT", "/api/assistant/profile", PROFILE)
    expect(member.statusCode).toBe(403)
    expect(member.json()).toMatchObject({ code: "admin_required" })
    await admin(app, a, "PUT", "/api/assistant/profile", PROFILE)
    expect((await admin(app, b, "GET", "/api/assistant/profile")).json()).toMatchObject({ businessName: "", faqs: [] })
  })
})

describe("cancelling and moving bookings", () => {
  it("cancels the conversation's booking: lead.updated with booking null (still a BOOKING lead: one was made), the slot free again, still listed", async () => {
    const orgId = newOrg()
    const date = futureWeekday(2)
    const { sessionId } = await say(orgId, `I'm Kate, 415 555 0172, book me on ${date} at 10am`)
    expect(await slotFree(orgId, date, "10:00")).toBe(false)
    const cancelled = await say(orgId, "actually, please cancel that appointment", sessionId)
    expect(cancelled.reply.text).toContain("cancelled")
    expect(await slotFree(orgId, date, "10:00")).toBe(true)
    const events = await leadEventsOf(infra, orgId)
    expect(events.map((e) => [e.event, e.data.type, e.data.booking])).toEqual([
      ["lead.created", "BOOKING", { date, time: "10:00", service: "consultation" }],
      ["lead.updated", "BOOKING", null],
    ])
    expect((await bookingsOf(orgId)).map((b) => b.status)).toEqual(["cancelled"])
    const leads = (await admin(app, orgId, "GET", "/api/leads")).json() as {
      data: Array<{ type: string; booking: unknown }>
    }
    expect(leads.data).toMatchObject([{ type: "BOOKING", booking: null }])
  })

  it("moves the conversation's booking: one lead.updated with the new booking, the old slot freed", async () => {
    const orgId = newOrg()
    const date = futureWeekday(1)
    const { sessionId } = await say(orgId, `I'm Ben, 415 555 0173, book me on ${date} at 9:30`)
    const moved = await say(orgId, "can we move it to 2pm instead?", sessionId)
    expect(moved.reply.text).toContain("2:00 PM")
    expect(await slotFree(orgId, date, "09:30")).toBe(true)
    expect(await slotFree(orgId, date, "14:00")).toBe(false)
    const events = await leadEventsOf(infra, orgId)
    expect(events.map((e) => [e.event, e.data.booking])).toEqual([
      ["lead.created", { date, time: "09:30", service: "consultation" }],
      ["lead.updated", { date, time: "14:00", service: "consultation" }],
    ])
    expect((await bookingsOf(orgId)).map((b) => [b.time, b.status]).sort()).toEqual([
      ["09:30", "cancelled"],
      ["14:00", "confirmed"],
    ])
  })

  it("cancels from the chat a booking made with the widget's form in the same session", async () => {
    const orgId = newOrg()
    const date = futureWeekday(4)
    const { sessionId } = await say(orgId, "hello")
    const form = await widget(app, orgId, "POST", "/api/public/bookings", {
      name: "Lea",
      phone: "(415) 555-0190",
      date,
      time: "09:30",
      service: "consultation",
      sessionId,
    })
    expect(form.statusCode, form.body).toBe(201)
    expect(form.json()).toMatchObject({ phone: "14155550190" })
    const answer = await say(orgId, "sorry, I need to cancel my appointment", sessionId)
    expect(answer.reply.text).toContain("cancelled")
    expect(await slotFree(orgId, date, "09:30")).toBe(true)
  })

  it("moves from the chat a booking made with the widget's form in the same session", async () => {
    const orgId = newOrg()
    const date = futureWeekday(4)
    const { sessionId } = await say(orgId, "hello")
    const form = await widget(app, orgId, "POST", "/api/public/bookings", {
      name: "Lea",
      phone: "(415) 555-0191",
      date,
      time: "09:30",
      service: "consultation",
      sessionId,
    })
    expect(form.statusCode, form.body).toBe(201)
    const answer = await say(orgId, "Hi, can you move my booking to 11:00?", sessionId)
    expect(answer.reply.text).toContain("moved")
    expect(await slotFree(orgId, date, "09:30")).toBe(true)
    expect(await slotFree(orgId, date, "11:00")).toBe(false)
    const confirmed = (await bookingsOf(orgId)).filter((booking) => booking.status === "confirmed")
    expect(confirmed.map((booking) => [booking.date, booking.time])).toEqual([[date, "11:00"]])
  })

  it("moves from the chat a booking made with the widget's form before any chat message, in the session the form's answer names", async () => {
    // Issue #23: the form used first carries no session; its booking starts one (docs/contract.md, Parley additions).
    const orgId = newOrg()
    const date = futureWeekday(4)
    const form = await widget(app, orgId, "POST", "/api/public/bookings", {
      name: "Lea",
      phone: "(415) 555-0193",
      date,
      time: "09:30",
      service: "consultation",
    })
    expect(form.statusCode, form.body).toBe(201)
    const { sessionId } = form.json() as { sessionId: string }
    expect(sessionId).toMatch(/^ses_/)
    // Neither another session of the organization nor another organization sees it.
    const stranger = await say(orgId, "Hi, can you move my booking to 11:00?")
    expect(stranger.sessionId).not.toBe(sessionId)
    expect(stranger.reply.text).toContain("can't find a booking")
    const otherOrg = newOrg()
    const elsewhere = await say(otherOrg, "Hi, can you move my booking to 11:00?", sessionId)
    expect(elsewhere.sessionId).not.toBe(sessionId)
    expect(elsewhere.reply.text).toContain("can't find a booking")
    expect(await slotFree(orgId, date, "09:30")).toBe(false)

    const answer = await say(orgId, "Hi, can you move my booking to 11:00?", sessionId)
    expect(answer.sessionId).toBe(sessionId)
    expect(answer.reply.text).toContain("moved")
    expect(await slotFree(orgId, date, "09:30")).toBe(true)
    expect(await slotFree(orgId, date, "11:00")).toBe(false)
    expect((await bookingsOf(orgId)).map((booking) => [booking.time, booking.status]).sort()).toEqual([
      ["09:30", "cancelled"],
      ["11:00", "confirmed"],
    ])
    const events = await leadEventsOf(infra, orgId)
    expect(events.map((e) => [e.event, e.data.phone, e.data.booking])).toEqual([
      ["lead.created", "14155550193", { date, time: "09:30", service: "consultation" }],
      ["lead.updated", "14155550193", { date, time: "11:00", service: "consultation" }],
    ])
  })

  it("answers a known session with the booking it holds, and refuses a booking the phone already held to anyone else", async () => {
    const orgId = newOrg()
    const date = futureWeekday(4)
    const { sessionId } = await say(orgId, "hello")
    const body = { name: "Lea", phone: "(415) 555-0194", date, time: "10:00", service: "consultation" }
    const form = await widget(app, orgId, "POST", "/api/public/bookings", { ...body, sessionId })
    expect(form.statusCode, form.body).toBe(201)
    expect(form.json()).toMatchObject({ sessionId, time: "10:00", status: "confirmed" })
    // The same session asking again gets its booking back.
    const again = await widget(app, orgId, "POST", "/api/public/bookings", { ...body, sessionId })
    expect(again.statusCode, again.body).toBe(201)
    expect(again.json()).toMatchObject({ id: form.json().id, sessionId })
    // Someone else claiming that phone and slot on the form finds it full: no booking, name or session.
    const claim = await widget(app, orgId, "POST", "/api/public/bookings", body)
    expect(claim.statusCode, claim.body).toBe(409)
    expect(claim.body).not.toContain(form.json().id)
    const { sessionId: stranger } = await say(orgId, "hello")
    const attempt = await say(orgId, "please cancel my appointment", stranger)
    expect(attempt.reply.text).not.toContain("cancelled")
    expect(await slotFree(orgId, date, "10:00")).toBe(false)
  })

  it("proposes no new booking when asked to move a form booking the chat's session does not hold", async () => {
    // The form used before any chat message carries no session: the chat cannot see that booking
    // (issue #23), and must not answer "move my booking" with a new booking on a guessed day.
    const orgId = newOrg()
    const date = futureWeekday(4)
    const form = await widget(app, orgId, "POST", "/api/public/bookings", {
      name: "Lea",
      phone: "(415) 555-0192",
      date,
      time: "09:30",
      service: "consultation",
    })
    expect(form.statusCode, form.body).toBe(201)
    const { sessionId, reply } = await say(orgId, "Hi, can you move my booking to 11:00?")
    expect(reply.text).toContain("can't find a booking")
    const after = await say(orgId, "yes please", sessionId)
    expect(after.reply.text).not.toContain("booked")
    expect((await bookingsOf(orgId)).map((booking) => booking.time)).toEqual(["09:30"])
  })

  it("DELETE /api/bookings/:id cancels for staff, idempotently, admins only, within the organization", async () => {
    const [orgId, other] = [newOrg(), newOrg()]
    const date = futureWeekday(3)
    await say(orgId, `I'm Ana, 415 555 0180, book me on ${date} at 11am`)
    const [booking] = await bookingsOf(orgId)
    if (booking === undefined) throw new Error("no booking made")
    expect((await call(app, orgId, "member", "DELETE", `/api/bookings/${booking.id}`)).statusCode).toBe(403)
    expect((await admin(app, other, "DELETE", `/api/bookings/${booking.id}`)).statusCode).toBe(404)
    expect((await admin(app, orgId, "DELETE", "/api/bookings/bkg_unknown")).statusCode).toBe(404)
    const first = await admin(app, orgId, "DELETE", `/api/bookings/${booking.id}`)
    expect(first.statusCode).toBe(200)
    expect(first.json()).toMatchObject({ id: booking.id, date, time: "11:00", status: "cancelled" })
    const again = await admin(app, orgId, "DELETE", `/api/bookings/${booking.id}`)
    expect(again.json()).toEqual(first.json())
    expect(await slotFree(orgId, date, "11:00")).toBe(true)
    const events = await leadEventsOf(infra, orgId)
    expect(events.map((e) => [e.event, e.data.booking])).toEqual([
      ["lead.created", { date, time: "11:00", service: "consultation" }],
      ["lead.updated", null],
    ])
  })

  it("keeps a booking staff cancelled off the lead when the visitor writes again, and says it is not held", async () => {
    const orgId = newOrg()
    const date = futureWeekday(3)
    const { sessionId } = await say(orgId, `I'm Vic, 415 555 0166, book me on ${date} at 3pm`)
    const [booking] = await bookingsOf(orgId)
    if (booking === undefined) throw new Error("no booking made")
    expect((await admin(app, orgId, "DELETE", `/api/bookings/${booking.id}`)).statusCode).toBe(200)
    const answer = await say(orgId, "thanks! is my appointment still on?", sessionId)
    expect(answer.reply.text).not.toContain("3:00 PM")
    const leads = (await admin(app, orgId, "GET", "/api/leads")).json() as {
      data: Array<{ phone: string; type: string; booking: unknown }>
    }
    expect(leads.data).toMatchObject([{ phone: "14155550166", type: "BOOKING", booking: null }])
    const events = await leadEventsOf(infra, orgId)
    expect(events.map((e) => [e.event, e.data.booking])).toEqual([
      ["lead.created", { date, time: "15:00", service: "consultation" }],
      ["lead.updated", null],
    ])
  })
})

describe("corrections and withdrawals", () => {
  it("takes a corrected number: one lead, for the right number", async () => {
    const orgId = newOrg()
    const { sessionId } = await say(orgId, "call me on 415 555 0175")
    await say(orgId, "sorry, wrong number, it's 415 555 0176", sessionId)
    const leads = (await admin(app, orgId, "GET", "/api/leads")).json() as {
      data: Array<{ phone: string; type: string }>
    }
    expect(leads.data).toMatchObject([{ phone: "14155550176", type: "CALLBACK_REQUESTED" }])
  })

  it('withdraws the callback on "don\'t call me": the same lead, updated, not a second one', async () => {
    const orgId = newOrg()
    const { sessionId } = await say(orgId, "I'm Rosa, call me back on 415 555 0177")
    const answer = await say(orgId, "actually don't call me, I'll email you instead", sessionId)
    expect(answer.reply.text).toContain("won't call")
    const events = await leadEventsOf(infra, orgId)
    expect(events.map((e) => [e.event, e.data.type])).toEqual([
      ["lead.created", "CALLBACK_REQUESTED"],
      ["lead.updated", "GENERAL_INQUIRY"],
    ])
    const leads = (await admin(app, orgId, "GET", "/api/leads")).json() as { data: Array<{ type: string }> }
    expect(leads.data).toMatchObject([{ type: "GENERAL_INQUIRY" }])
  })

  it('books no slot for a demo request that says "booking"', async () => {
    const orgId = newOrg()
    const answer = await say(orgId, "I'd like a demo of your booking software, I'm Priya, 415 555 0170")
    expect(answer.lead?.type).toBe("DEMO_REQUESTED")
    expect(answer.reply.text).not.toMatch(/\d{1,2}:\d{2}/)
    expect(await bookingsOf(orgId)).toEqual([])
  })
})

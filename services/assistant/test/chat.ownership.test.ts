import type { OrgId } from "@parley/contracts"
/**
 * A conversation releases or changes only the leads and bookings it made (docs/contract.md §8, issue #22),
 * and moves or cancels a booking however it was made — the widget's booking form included — without
 * ever answering 5xx to the visitor.
 */
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

const chat = async (orgId: OrgId, message: string, sessionId?: string) => {
  const response = await widget(app, orgId, "POST", "/api/public/chat", {
    message,
    ...(sessionId === undefined ? {} : { sessionId }),
  })
  expect(response.statusCode).toBe(200)
  return response.json() as { sessionId: string; reply: { text: string }; lead: { id: string } | null }
}

const leadsOf = async (orgId: OrgId) =>
  (
    (await admin(app, orgId, "GET", "/api/leads")).json() as {
      data: Array<{ id: string; phone: string; name: string; type: string; booking: unknown }>
    }
  ).data

describe("a corrected number", () => {
  it("leaves another visitor's lead as it was, also one created after this conversation began", async () => {
    const orgId = newOrg()
    // Bob's conversation starts first; Ana then leaves her number in her own conversation.
    const bob = await chat(orgId, "hi there")
    await chat(orgId, "I'm Ana, please call me back on 415 555 0100")
    // Bob writes Ana's number by mistake, with his name, then corrects it.
    await chat(orgId, "I'm Bob, my number is 415 555 0100", bob.sessionId)
    const corrected = await chat(orgId, "sorry, wrong number, it's 415 555 0199", bob.sessionId)
    expect(corrected.reply.text).toContain("415")
    const leads = await leadsOf(orgId)
    expect(leads.find((lead) => lead.phone === "14155550100")).toMatchObject({
      name: "Ana",
      type: "CALLBACK_REQUESTED",
    })
    expect(leads.find((lead) => lead.phone === "14155550199")).toMatchObject({ name: "Bob" })
  })

  it("after a booking: the booking and the lead this conversation made follow the corrected number", async () => {
    const orgId = newOrg()
    const date = futureWeekday(2)
    const first = await chat(orgId, `I'm Gil, 415 555 0170. Can I book a consultation on ${date} at 10:00?`)
    expect(first.reply.text).toMatch(/You're booked, Gil/)
    const corrected = await chat(orgId, "my number is 415.555.0177", first.sessionId)
    expect(corrected.reply.text).toContain("(415) 555-0177")
    const bookings = (
      (await admin(app, orgId, "GET", `/api/bookings?date=${date}`)).json() as {
        data: Array<{ time: string; status: string; phone: string }>
      }
    ).data
    expect(bookings).toMatchObject([{ time: "10:00", status: "confirmed", phone: "14155550177" }])
    const leads = await leadsOf(orgId)
    expect(leads).toMatchObject([{ phone: "14155550177", name: "Gil", type: "BOOKING" }])
  })

  it("withdraws the lead the conversation itself made for the mistaken number", async () => {
    const orgId = newOrg()
    const first = await chat(orgId, "I'm Cleo, 415 555 0101")
    await chat(orgId, "oops, wrong number, it's 415 555 0102", first.sessionId)
    expect((await leadsOf(orgId)).map((lead) => lead.phone)).toEqual(["14155550102"])
  })
})

describe("a number typed into the widget", () => {
  /** Every `lead.*` event of the organization, as [event, name, type, booking]. */
  const eventsOf = async (orgId: OrgId) =>
    (await leadEventsOf(infra, orgId)).map((e) => [e.event, e.data.name, e.data.type, e.data.booking])

  it("never changes another conversation's lead, nor tells the typist its id (a demo asked with the visitor fields)", async () => {
    const orgId = newOrg()
    const bob = await chat(orgId, "I'm Bob, please call me back on +1 415 555 0111")
    // Eve, in a fresh session, gives Bob's number in the widget's visitor fields and asks for a demo.
    const response = await widget(app, orgId, "POST", "/api/public/chat", {
      message: "I would like a demo",
      visitor: { name: "Eve", phone: "+1 415 555 0111" },
    })
    expect(response.statusCode).toBe(200)
    const answer = response.json() as { sessionId: string; reply: { text: string }; lead: unknown }
    expect(answer.reply.text).not.toBe("")
    expect(answer.lead).toBeNull()
    expect(await leadsOf(orgId)).toMatchObject([{ phone: "14155550111", name: "Bob", type: "CALLBACK_REQUESTED" }])
    expect(await eventsOf(orgId)).toEqual([["lead.created", "Bob", "CALLBACK_REQUESTED", null]])
    // Not lost: staff find the request in the Inbox, waiting for a person, beside the number's lead.
    const inbox = (
      (await admin(app, orgId, "GET", "/api/conversations?channel=widget")).json() as {
        data: Array<{ id: string; waiting: boolean; lead: { id: string } | null }>
      }
    ).data
    const waiting = inbox.filter((c) => c.waiting)
    expect(waiting).toHaveLength(1)
    expect(waiting[0]?.lead?.id).toBe(bob.lead?.id)
    const read = (await admin(app, orgId, "GET", `/api/conversations/${waiting[0]?.id}`)).json() as {
      messages: Array<{ role: string; text: string }>
    }
    expect(read.messages[0]).toMatchObject({ role: "customer", text: "I would like a demo" })
  })

  it("leaves a BOOKING lead and its events alone when a stranger asks to be called back on its number", async () => {
    const orgId = newOrg()
    const date = futureWeekday(3)
    const ana = await chat(orgId, `I'm Ana, 415 555 0502. Can I book a consultation on ${date} at 11:00?`)
    expect(ana.reply.text).toMatch(/You're booked, Ana/)
    const before = await eventsOf(orgId)
    const stranger = await widget(app, orgId, "POST", "/api/public/chat", {
      message: "Please call me back at +1 415 555 0502",
    })
    expect((stranger.json() as { lead: unknown }).lead).toBeNull()
    expect(await eventsOf(orgId)).toEqual(before)
    expect(await leadsOf(orgId)).toMatchObject([{ phone: "14155550502", name: "Ana", type: "BOOKING" }])
  })

  it("books a stranger's slot under another customer's number without touching that customer's lead, and lets them cancel it", async () => {
    const orgId = newOrg()
    const date = futureWeekday(2)
    await chat(orgId, "I'm Ana, please call me back on 415 555 0190")
    const before = await eventsOf(orgId)
    const mallory = await chat(orgId, `I'm Mallory, 415 555 0190. Can I book a consultation on ${date} at 10:00?`)
    expect(mallory.reply.text).toMatch(/You're booked, Mallory/)
    const bookingsOn = async () =>
      (
        (await admin(app, orgId, "GET", `/api/bookings?date=${date}`)).json() as {
          data: Array<{ time: string; status: string; phone: string; name: string }>
        }
      ).data
    expect(await bookingsOn()).toMatchObject([{ time: "10:00", status: "confirmed", phone: "14155550190" }])
    expect(await leadsOf(orgId)).toMatchObject([
      { phone: "14155550190", name: "Ana", type: "CALLBACK_REQUESTED", booking: null },
    ])
    // The booking is this conversation's: it moves and cancels it; Ana's lead hears of none of it.
    await chat(orgId, "move it to 12:00", mallory.sessionId)
    await chat(orgId, "please cancel it", mallory.sessionId)
    expect((await bookingsOn()).every((b) => b.status === "cancelled")).toBe(true)
    expect(await eventsOf(orgId)).toEqual(before)
    expect(await leadsOf(orgId)).toMatchObject([{ name: "Ana", type: "CALLBACK_REQUESTED", booking: null }])
  })

  it("never renames another customer's lead, nor tells the typist what that lead holds", async () => {
    const orgId = newOrg()
    const date = futureWeekday(3)
    const ana = await chat(orgId, `I'm Ana, 415 555 0190. Can I book a consultation on ${date} at 11:00?`)
    expect(ana.reply.text).toMatch(/You're booked, Ana/)
    // A stranger, in a conversation of their own, types Ana's number under another name.
    const response = await widget(app, orgId, "POST", "/api/public/chat", {
      message: "I'm Mallory, please call me back on 415 555 0190",
    })
    expect(response.statusCode).toBe(200)
    expect((response.json() as { lead: unknown }).lead).toBeNull()
    const leads = await leadsOf(orgId)
    expect(leads).toMatchObject([{ phone: "14155550190", name: "Ana", type: "BOOKING" }])
    const events = await leadEventsOf(infra, orgId)
    expect(events.map((event) => event.data.name)).not.toContain("Mallory")
  })

  it("is the conversation's own once it created the lead: a later name there replaces the first", async () => {
    const orgId = newOrg()
    const first = await chat(orgId, "I'm Sam, please call me back on 415 555 0191")
    await chat(orgId, "Actually my name is Samuel", first.sessionId)
    expect(await leadsOf(orgId)).toMatchObject([{ phone: "14155550191", name: "Samuel" }])
  })

  it("leaves a lead's empty name empty when another conversation names it", async () => {
    const orgId = newOrg()
    await chat(orgId, "please call me back on 415 555 0192")
    await chat(orgId, "I'm Ines, my number is 415 555 0192")
    expect(await leadsOf(orgId)).toMatchObject([{ phone: "14155550192", name: "" }])
    expect((await leadEventsOf(infra, orgId)).map((e) => e.event)).toEqual(["lead.created"])
  })

  it("says the lead's own type in lead.updated: a BOOKING lead's own conversation asking for a callback announces nothing", async () => {
    const orgId = newOrg()
    const date = futureWeekday(4)
    const first = await chat(orgId, "I'm Lia, please call me on 415 555 0188")
    // Lia books with the widget's form (another session): docs/contract.md §8 has it update her lead.
    const booked = await widget(app, orgId, "POST", "/api/public/bookings", {
      name: "Lia",
      phone: "415 555 0188",
      date,
      time: "11:00",
      service: "consultation",
    })
    expect(booked.statusCode).toBe(201)
    await chat(orgId, "thanks, and please do call me back about the price", first.sessionId)
    // Every event says what GET /api/leads says at that moment.
    expect(await eventsOf(orgId)).toEqual([
      ["lead.created", "Lia", "CALLBACK_REQUESTED", null],
      ["lead.updated", "Lia", "BOOKING", { date, time: "11:00", service: "consultation" }],
    ])
    expect(await leadsOf(orgId)).toMatchObject([{ name: "Lia", type: "BOOKING" }])
  })
})

describe("a booking made with the widget's form", () => {
  it("is moved from the chat of the same session, under the number written in the form", async () => {
    const orgId = newOrg()
    const date = futureWeekday(2)
    const session = await chat(orgId, "hello")
    const booked = await widget(app, orgId, "POST", "/api/public/bookings", {
      name: "Dee",
      phone: "(415) 555-0188",
      date,
      time: "10:00",
      service: "consultation",
      sessionId: session.sessionId,
    })
    expect(booked.statusCode).toBe(201)
    const moved = await chat(orgId, "move it to 12:00", session.sessionId)
    expect(moved.reply.text).toMatch(/12:00 PM/)
    const bookings = (
      (await admin(app, orgId, "GET", `/api/bookings?date=${date}`)).json() as {
        data: Array<{ time: string; status: string; phone: string }>
      }
    ).data
    expect(bookings.filter((b) => b.status === "confirmed")).toMatchObject([{ time: "12:00", phone: "14155550188" }])
    const [lead] = await leadsOf(orgId)
    expect(lead).toMatchObject({ phone: "14155550188", type: "BOOKING" })
    // The lead the session's form created is the session's own: its chat renames it.
    const renamed = await chat(orgId, "sorry, my name is Deirdre, 415 555 0188", session.sessionId)
    expect(renamed.lead?.id).toBe(lead?.id)
    expect(await leadsOf(orgId)).toMatchObject([{ phone: "14155550188", name: "Deirdre", type: "BOOKING" }])
  })
})

describe("a step that fails on our side", () => {
  it("still gets a reply saying so, never a 5xx, and the conversation goes on", async () => {
    const orgId = newOrg()
    const date = futureWeekday(3)
    // The booking's transaction fails in Postgres for this organization only.
    await infra.db.sql.unsafe(`
      create or replace function assistant.refuse_test_booking() returns trigger language plpgsql as $$
      begin
        if new.org_id = '${orgId}' then raise exception 'bookings are broken for this test'; end if;
        return new;
      end $$;
      create trigger refuse_test_booking before insert on assistant.bookings
        for each row execute function assistant.refuse_test_booking();`)
    try {
      const first = await chat(orgId, `I'm Eve, 415 555 0177, book a consultation on ${date} at 10:00`)
      expect(first.reply.text).toMatch(/went wrong on our side/)
      const next = await chat(orgId, "what are your opening hours?", first.sessionId)
      expect(next.reply.text).toMatch(/opening hours/)
      expect((await admin(app, orgId, "GET", "/api/bookings")).json()).toMatchObject({ data: [] })
    } finally {
      await infra.db.sql.unsafe(
        "drop trigger refuse_test_booking on assistant.bookings; drop function assistant.refuse_test_booking();",
      )
    }
  })
})

describe("a day the visitor did not name", () => {
  it("is proposed, never booked as today, and booked once the visitor accepts", async () => {
    const orgId = newOrg()
    const first = await chat(orgId, "I'm Fay, 415 555 0190. Can I come in at 3pm?")
    expect(first.reply.text).toMatch(/Shall I book that for you\?/)
    expect((await admin(app, orgId, "GET", "/api/bookings")).json()).toMatchObject({ data: [] })
    const yes = await chat(orgId, "yes please", first.sessionId)
    expect(yes.reply.text).toMatch(/You're booked, Fay/)
    const bookings = (
      (await admin(app, orgId, "GET", "/api/bookings")).json() as { data: Array<{ time: string; status: string }> }
    ).data
    expect(bookings).toMatchObject([{ time: "15:00", status: "confirmed" }])
  })
})

describe("the console's preview and the widget's welcome", () => {
  it("answer each organization from its own assistant, never another's conversation or profile", async () => {
    const [a, b] = [newOrg(), newOrg()]
    await admin(app, a, "PUT", "/api/assistant/profile", {
      businessName: "Alpha Dental",
      languages: ["en", "fr"],
      greeting: "Welcome to Alpha!",
      faqs: [{ question: "Do you have parking?", answer: "Alpha parking is behind the building." }],
    })
    // A member's session previews its own assistant, without any widget key.
    const preview = await call(app, a, "member", "POST", "/api/assistant/preview", { message: "Do you have parking?" })
    expect(preview.statusCode).toBe(200)
    const answered = preview.json() as { sessionId: string; reply: { text: string } }
    expect(answered.reply.text).toContain("Alpha parking")
    // Organization B, given A's session id, gets a conversation of its own, not A's.
    const other = await call(app, b, "member", "POST", "/api/assistant/preview", {
      message: "Do you have parking?",
      sessionId: answered.sessionId,
    })
    expect(other.statusCode).toBe(200)
    const otherAnswer = other.json() as { sessionId: string; reply: { text: string } }
    expect(otherAnswer.sessionId).not.toBe(answered.sessionId)
    expect(otherAnswer.reply.text).not.toContain("Alpha")

    const welcomeA = await widget(app, a, "GET", "/api/public/assistant?locale=fr-FR")
    expect(welcomeA.json()).toEqual({ businessName: "Alpha Dental", greeting: "Welcome to Alpha!" })
    const welcomeB = (await widget(app, b, "GET", "/api/public/assistant?locale=fr")).json() as {
      businessName: string
      greeting: string
    }
    expect(welcomeB.businessName).not.toBe("Alpha Dental")
    expect(welcomeB.greeting).not.toContain("Alpha")
  })
})

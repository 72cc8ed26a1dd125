import type { OrgId } from "@parley/contracts"
import { type StubHandler, type StubServer, startHttpServer } from "@parley/platform/testing"
import { Redacted } from "effect"
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
let model: StubServer

/** Per request to the model, and for the whole turn (PARLEY_LLM_TURN_TIMEOUT_MS). */
const REQUEST_TIMEOUT_MS = 5_000
const TURN_TIMEOUT_MS = 700

beforeAll(async () => {
  infra = await startInfrastructure()
  model = await startHttpServer()
  app = await startApp(infra, {
    background: false,
    llm: {
      baseUrl: `${model.url}/v1`,
      apiKey: Redacted.make("sk-test"),
      model: "test-model",
      timeoutMs: REQUEST_TIMEOUT_MS,
      turnTimeoutMs: TURN_TIMEOUT_MS,
    },
  })
})
afterAll(async () => {
  await app?.stop()
  await model?.close()
  await infra?.close()
})

type Completion = {
  messages: Array<{ role: string; content?: string | null; tool_call_id?: string }>
  model: string
  tools: Array<unknown>
}

const toolCall = (id: string, name: string, args: unknown) => ({
  id,
  type: "function",
  function: { name, arguments: typeof args === "string" ? args : JSON.stringify(args) },
})

/** A model that answers the first request with tool calls and every later one with `text`. */
const scripted =
  (calls: Array<ReturnType<typeof toolCall>>, text: string): StubHandler =>
  (request) => {
    const body = request.json() as Completion
    const answered = body.messages.some((m) => m.role === "tool")
    return {
      body: {
        id: "chatcmpl-1",
        object: "chat.completion",
        choices: [
          {
            index: 0,
            finish_reason: answered ? "stop" : "tool_calls",
            message: answered
              ? { role: "assistant", content: text }
              : { role: "assistant", content: null, tool_calls: calls },
          },
        ],
      },
    }
  }

const chat = async (orgId: OrgId, message: string) => {
  const response = await widget(app, orgId, "POST", "/api/public/chat", { message })
  expect(response.statusCode, response.body).toBe(200)
  return response.json() as { sessionId: string; reply: { text: string }; lead: { id: string; type: string } | null }
}

const requestsSince = (count: number) => model.requests.slice(count)

const dayOf = (date: string) =>
  new Intl.DateTimeFormat("en-US", { weekday: "long", month: "long", day: "numeric", timeZone: "UTC" }).format(
    new Date(`${date}T12:00:00Z`),
  )

describe("with a language model", () => {
  it("answers with the model and records the lead its record_lead call describes", async () => {
    const orgId = newOrg()
    model.setHandler(
      scripted(
        [toolCall("call_1", "record_lead", { phone: "+1 415 555 0100", name: "Dana", type: "DEMO_REQUESTED" })],
        "Thanks Dana! Our team will set up your demo.",
      ),
    )
    const before = model.requests.length
    const answer = await chat(orgId, "Hi, Dana here, I'd love a demo. +1 415 555 0100")
    expect(answer.reply.text).toBe("Thanks Dana! Our team will set up your demo.")
    expect(answer.lead?.type).toBe("DEMO_REQUESTED")
    expect((await leadEventsOf(infra, orgId))[0]?.data).toEqual({
      phone: "14155550100",
      name: "Dana",
      type: "DEMO_REQUESTED",
      booking: null,
    })
    const [first, second] = requestsSince(before)
    expect(first?.path).toBe("/v1/chat/completions")
    expect(first?.headers.authorization).toBe("Bearer sk-test")
    const firstBody = first?.json() as Completion
    expect(firstBody.model).toBe("test-model")
    expect(firstBody.tools).toHaveLength(3)
    expect(firstBody.messages.at(-1)).toEqual({
      role: "user",
      content: "Hi, Dana here, I'd love a demo. +1 415 555 0100",
    })
    const toolAnswer = (second?.json() as Completion | undefined)?.messages.find((m) => m.role === "tool")
    expect(toolAnswer?.tool_call_id).toBe("call_1")
  })

  it("books through list_slots and book_slot, making the lead a BOOKING", async () => {
    const orgId = newOrg()
    const date = futureWeekday(4)
    model.setHandler(
      scripted(
        [
          toolCall("call_1", "list_slots", { date }),
          toolCall("call_2", "book_slot", { date, time: "10:00", name: "Kim", phone: "4155550123" }),
        ],
        `Booked: ${date} at 10:00.`,
      ),
    )
    const before = model.requests.length
    const answer = await chat(orgId, `Book me at 10 on ${date}, I'm Kim, 4155550123`)
    expect(answer.reply.text).toBe(`Booked: ${date} at 10:00.`)
    expect(answer.lead?.type).toBe("BOOKING")
    const events = await leadEventsOf(infra, orgId)
    expect(events).toHaveLength(1)
    expect(events[0]?.data).toEqual({
      phone: "14155550123",
      name: "Kim",
      type: "BOOKING",
      booking: { date, time: "10:00", service: "consultation" },
    })
    const tools = ((requestsSince(before)[1]?.json() as Completion | undefined)?.messages ?? []).filter(
      (m) => m.role === "tool",
    )
    expect(JSON.parse(tools[0]?.content ?? "{}")).toMatchObject({
      date,
      timezone: "UTC",
      slots: expect.arrayContaining(["10:00"]),
    })
    expect(JSON.parse(tools[1]?.content ?? "{}")).toMatchObject({ booked: true })
  })

  it("changes no lead another conversation made, whatever the model's tools say, yet books the slot asked for", async () => {
    const orgId = newOrg()
    const date = futureWeekday(4)
    model.setHandler(
      scripted(
        [toolCall("c1", "record_lead", { phone: "4155550140", name: "Ana", type: "CALLBACK_REQUESTED" })],
        "Noted!",
      ),
    )
    const ana = await chat(orgId, "I'm Ana, please call me back on 415 555 0140")
    expect(ana.lead?.type).toBe("CALLBACK_REQUESTED")
    // Another visitor writes Ana's number; the model records and books under it.
    model.setHandler(
      scripted(
        [
          toolCall("c1", "record_lead", { phone: "4155550140", name: "Mallory", type: "DEMO_REQUESTED" }),
          toolCall("c2", "book_slot", { date, time: "10:00", name: "Mallory", phone: "4155550140" }),
        ],
        `Booked: ${date} at 10:00.`,
      ),
    )
    const stranger = await chat(orgId, `I'm Mallory, 415 555 0140, a demo and book me at 10 on ${date}`)
    expect(stranger.lead).toBeNull()
    const leads = (await admin(app, orgId, "GET", "/api/leads")).json() as { data: Array<Record<string, unknown>> }
    expect(leads.data).toMatchObject([{ name: "Ana", type: "CALLBACK_REQUESTED", booking: null }])
    expect((await leadEventsOf(infra, orgId)).map((e) => e.event)).toEqual(["lead.created"])
    const bookings = (await admin(app, orgId, "GET", `/api/bookings?date=${date}`)).json() as {
      data: Array<Record<string, unknown>>
    }
    expect(bookings.data).toMatchObject([{ time: "10:00", status: "confirmed", phone: "14155550140" }])
  })

  it("confirms the booking a tool made when the model fails afterwards, booking nothing twice", async () => {
    const orgId = newOrg()
    const date = futureWeekday(5)
    model.setHandler((request) => {
      const body = request.json() as Completion
      if (body.messages.some((m) => m.role === "tool")) return { status: 500, body: { error: { message: "boom" } } }
      return {
        body: {
          choices: [
            {
              message: {
                role: "assistant",
                content: null,
                tool_calls: [toolCall("c1", "book_slot", { date, time: "16:00", name: "Lee", phone: "4155550166" })],
              },
            },
          ],
        },
      }
    })
    const answer = await chat(orgId, `I'm Lee, 4155550166, book me on ${date} at 16:00`)
    expect(answer.reply.text).toContain(`${dayOf(date)} at 4:00 PM`)
    expect(answer.reply.text).toContain("booked")
    expect(answer.lead?.type).toBe("BOOKING")
    const bookings = await infra.db.sql`select id from assistant.bookings where org_id = ${orgId}`
    expect(bookings).toHaveLength(1)
    expect((await leadEventsOf(infra, orgId)).map((e) => e.event)).toEqual(["lead.created"])
  })

  it("confirms a book_slot that commits as the deadline passes (slow database, slow model), booking nothing more", async () => {
    const orgId = newOrg()
    const date = futureWeekday(4)
    // The model, itself slow, books 16:30 (the visitor named 16:00, which the deterministic engine would
    // book); the booking's transaction outlasts the turn's deadline in Postgres.
    model.setHandler(async (request) => {
      await new Promise((resolve) => setTimeout(resolve, TURN_TIMEOUT_MS / 3))
      const body = request.json() as Completion
      if (body.messages.some((m) => m.role === "tool")) return new Promise(() => {})
      return {
        body: {
          choices: [
            {
              message: {
                role: "assistant",
                content: null,
                tool_calls: [toolCall("c1", "book_slot", { date, time: "16:30", name: "Kai", phone: "4155550161" })],
              },
            },
          ],
        },
      }
    })
    await infra.db.sql.unsafe(`
      create or replace function assistant.slow_test_booking() returns trigger language plpgsql as $$
      begin
        if new.org_id = '${orgId}' then perform pg_sleep(${(TURN_TIMEOUT_MS * 1.5) / 1000}); end if;
        return new;
      end $$;
      create trigger slow_test_booking before insert on assistant.bookings
        for each row execute function assistant.slow_test_booking();`)
    try {
      const answer = await chat(orgId, `I'm Kai, 4155550161, book me on ${date} at 16:00`)
      expect(answer.reply.text).toContain(`${dayOf(date)} at 4:30 PM`)
      const bookings = await infra.db.sql<Array<{ time: string }>>`
        select time from assistant.bookings where org_id = ${orgId} and status = 'confirmed'`
      expect(bookings.map((b) => b.time)).toEqual(["16:30"])
      expect(answer.lead?.type).toBe("BOOKING")
    } finally {
      await infra.db.sql.unsafe(
        "drop trigger slow_test_booking on assistant.bookings; drop function assistant.slow_test_booking();",
      )
    }
  })

  it("answers with the deterministic engine once the turn's deadline passes, the model still silent", async () => {
    const orgId = newOrg()
    model.setHandler(() => new Promise(() => {}))
    const started = Date.now()
    const answer = await chat(orgId, "please call me back on 4155550144")
    // Well before the 5 s per-request timeout: the whole turn's deadline cut it off.
    expect(Date.now() - started).toBeLessThan(TURN_TIMEOUT_MS + 2_500)
    expect(answer.reply.text).toContain("call you back at (415) 555-0144")
    expect(answer.lead?.type).toBe("CALLBACK_REQUESTED")
  })

  it("holds a model that keeps calling tools to the turn's deadline", async () => {
    const orgId = newOrg()
    // Every answer is another list_slots call, each a little slow: the rounds add up past the deadline.
    model.setHandler(async () => {
      await new Promise((resolve) => setTimeout(resolve, 200))
      return {
        body: {
          choices: [
            {
              message: {
                role: "assistant",
                content: null,
                tool_calls: [toolCall("c", "list_slots", { date: futureWeekday(2) })],
              },
            },
          ],
        },
      }
    })
    const started = Date.now()
    const answer = await chat(orgId, "hello")
    expect(Date.now() - started).toBeLessThan(TURN_TIMEOUT_MS + 2_500)
    expect(answer.reply.text.length).toBeGreaterThan(0)
  })

  it.each([
    ["arguments that are not JSON", [toolCall("c1", "record_lead", "{phone: ")]],
    ["arguments of the wrong shape", [toolCall("c1", "record_lead", { phone: 4155550100 })]],
    ["a phone number that is not one", [toolCall("c1", "record_lead", { phone: "12" })]],
    ["a date that is not one", [toolCall("c1", "book_slot", { date: "someday", time: "10:00" })]],
    ["an unknown tool", [toolCall("c1", "delete_everything", {})]],
  ])("falls back to the deterministic engine on %s", async (_, calls) => {
    const orgId = newOrg()
    model.setHandler(scripted(calls, "this text must not be used"))
    const answer = await chat(orgId, "I'm Dana, call me on 4155550155")
    expect(answer.reply.text).not.toBe("this text must not be used")
    expect(answer.reply.text).toContain("call you back")
    expect((await leadEventsOf(infra, orgId))[0]?.data).toMatchObject({
      phone: "14155550155",
      name: "Dana",
      type: "CALLBACK_REQUESTED",
    })
  })

  it.each([
    ["a server error", () => ({ status: 500, body: { error: { message: "overloaded" } } })],
    ["a body that is not a completion", () => ({ body: { nope: true } })],
    ["an empty reply", () => ({ body: { choices: [{ message: { role: "assistant", content: "  " } }] } })],
  ] as Array<[string, StubHandler]>)("falls back to the deterministic engine on %s", async (_, handler) => {
    model.setHandler(handler)
    const answer = await chat(newOrg(), "hello")
    expect(answer.reply.text.length).toBeGreaterThan(0)
  })

  it.each([
    ["a phone number the visitor never gave", "Hi, I'm Dana, can someone call me back?", "+1 415 555 0100"],
    // A UK national number to a US business: no US number, asked about before anything is recorded.
    ["a number no plan has", "Hi, I'm Dana, can someone call me back? 07700 900123", "07700 900123"],
  ])("records no lead for %s, whatever the model says", async (_, message, phone) => {
    const orgId = newOrg()
    model.setHandler(
      scripted(
        [toolCall("c1", "record_lead", { phone, name: "Dana", type: "CALLBACK_REQUESTED" })],
        `Thanks Dana, we'll call you at ${phone}.`,
      ),
    )
    const before = model.requests.length
    const answer = await chat(orgId, message)
    expect(answer.lead).toBeNull()
    expect(await leadEventsOf(infra, orgId)).toEqual([])
    const tool = ((requestsSince(before)[1]?.json() as Completion | undefined)?.messages ?? []).find(
      (m) => m.role === "tool",
    )
    expect(JSON.parse(tool?.content ?? "{}")).toMatchObject({ recorded: false })
  })

  it("books at most once in a turn, however many times the model calls book_slot", async () => {
    const orgId = newOrg()
    const date = futureWeekday(3)
    model.setHandler(
      scripted(
        ["10:00", "11:00", "12:00"].map((time, i) =>
          toolCall(`c${i}`, "book_slot", { date, time, name: "Kim", phone: "4155550123" }),
        ),
        `Booked you at 10:00, 11:00 and 12:00 on ${date}!`,
      ),
    )
    const answer = await chat(orgId, `I'm Kim, 4155550123, book me on ${date} at 10, 11 and 12`)
    const bookings = await infra.db.sql`select time from assistant.bookings where org_id = ${orgId}`
    expect(bookings.map((row) => row.time)).toEqual(["10:00"])
    expect(answer.lead?.type).toBe("BOOKING")
    expect((await leadEventsOf(infra, orgId)).map((e) => e.event)).toEqual(["lead.created"])
  })

  it("books no service the visitor did not name: with two or more, book_slot without one is told to ask", async () => {
    const orgId = newOrg()
    const weekday = [["09:00", "17:00"]]
    await call(app, orgId, "admin", "PUT", "/api/bookings/settings", {
      timezone: "America/New_York",
      country: "US",
      services: ["haircut", "colour"],
      slotMinutes: 30,
      capacity: 1,
      hours: { mon: weekday, tue: weekday, wed: weekday, thu: weekday, fri: weekday },
    })
    const date = futureWeekday(3)
    model.setHandler(
      scripted([toolCall("c1", "book_slot", { date, time: "10:00", name: "Kim", phone: "4155550124" })], "Done!"),
    )
    const before = model.requests.length
    await chat(orgId, `I'm Kim, 4155550124, book me on ${date} at 10`)
    const bookings = await infra.db.sql`select service from assistant.bookings where org_id = ${orgId}`
    expect(bookings).toHaveLength(0)
    const tool = ((requestsSince(before)[1]?.json() as Completion | undefined)?.messages ?? []).find(
      (m) => m.role === "tool",
    )
    expect(JSON.parse(tool?.content ?? "{}")).toMatchObject({ booked: false, error: expect.stringContaining("colour") })
  })

  it("loses no lead when the model forgets its tool: deterministic capture runs on every turn", async () => {
    const orgId = newOrg()
    model.setHandler(() => ({
      body: { choices: [{ message: { role: "assistant", content: "Sure, someone will be in touch soon!" } }] },
    }))
    const answer = await chat(orgId, "I'm Dana, please call me back on +1 415 555 0188")
    expect(answer.reply.text).toBe("Sure, someone will be in touch soon!")
    expect(answer.lead?.type).toBe("CALLBACK_REQUESTED")
    expect((await leadEventsOf(infra, orgId))[0]?.data).toEqual({
      phone: "14155550188",
      name: "Dana",
      type: "CALLBACK_REQUESTED",
      booking: null,
    })
  })

  it("adds the confirmation when the model booked but did not say when", async () => {
    const orgId = newOrg()
    const date = futureWeekday(4)
    model.setHandler(
      scripted([toolCall("c1", "book_slot", { date, time: "15:00", name: "Ana", phone: "415 555 0101" })], "All set!"),
    )
    const answer = await chat(orgId, `I'm Ana, 415 555 0101, book me on ${date} at 3pm`)
    expect(answer.reply.text).toContain("All set!")
    expect(answer.reply.text).toContain(`${dayOf(date)} at 3:00 PM`)
  })

  it("gives the model the profile, the booking settings and today's date in the organization's zone", async () => {
    const orgId = newOrg()
    await call(app, orgId, "admin", "PUT", "/api/bookings/settings", {
      timezone: "Pacific/Kiritimati",
      country: "DE",
      services: ["haircut", "colour"],
      slotMinutes: 30,
      capacity: 1,
      hours: { sat: [["10:00", "14:00"]] },
    })
    await call(app, orgId, "admin", "PUT", "/api/assistant/profile", {
      businessName: "Salon Kiri",
      languages: ["de", "en"],
      faqs: [{ question: "Parking?", answer: "Behind the salon." }],
      handoffMessage: "Ask Kiri.",
    })
    model.setHandler(() => ({ body: { choices: [{ message: { role: "assistant", content: "Hallo!" } }] } }))
    const before = model.requests.length
    await chat(orgId, "Hallo")
    const system = (requestsSince(before)[0]?.json() as Completion | undefined)?.messages[0]
    expect(system?.role).toBe("system")
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Pacific/Kiritimati" }).format(new Date())
    for (const fact of [
      "Salon Kiri",
      "Behind the salon.",
      "Ask Kiri.",
      "haircut, colour",
      "Pacific/Kiritimati",
      today,
      "DE",
      "de, en",
    ]) {
      expect(system?.content).toContain(fact)
    }
    expect(system?.content).toContain("Saturday 10:00–14:00")
  })

  it("counts model answers and fallbacks on /metrics", async () => {
    const response = await app.app.inject({ method: "GET", url: "/metrics" })
    expect(response.body).toMatch(/parley_assistant_turns_total\{[^}]*surface="widget"[^}]*engine="model"[^}]*\} [1-9]/)
    expect(response.body).toMatch(/parley_assistant_turns_total\{[^}]*engine="fallback"[^}]*\} [1-9]/)
    expect(response.body).toMatch(/parley_assistant_leads_total\{[^}]*outcome="created"[^}]*\} [1-9]/)
  })
})

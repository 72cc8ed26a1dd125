import { describe, expect, it } from "vitest"
import { type CalendarAnswer, composeReply, planTurn } from "./dialogue.ts"
import { readMessage } from "./read-message.ts"
import { type ConversationState, emptyConversation } from "./state.ts"

const TODAY = "2026-11-23"
const SETTINGS = { services: ["consultation", "haircut"], timezone: "Europe/Berlin" }

const plan = (state: ConversationState, text: string, channel: "widget" | "phone" = "widget") =>
  planTurn(state, readMessage(text, TODAY, SETTINGS.services), SETTINGS, channel)

describe("the booking dialogue", () => {
  it("offers free times of the next open day when asked to book without a date", () => {
    expect(plan(emptyConversation, "I'd like to book an appointment").request).toEqual({
      kind: "offer",
      date: undefined,
      service: "consultation",
    })
  })

  it("offers the named day and service", () => {
    expect(plan(emptyConversation, "can I book a haircut tomorrow?").request).toEqual({
      kind: "offer",
      date: "2026-11-24",
      service: "haircut",
    })
  })

  it("books the time the visitor picks on the day offered", () => {
    const state: ConversationState = {
      ...emptyConversation,
      phone: "4155550100",
      offered: { date: "2026-11-24", service: "haircut" },
    }
    expect(plan(state, "10:30 please").request).toEqual({
      kind: "book",
      date: "2026-11-24",
      time: "10:30",
      service: "haircut",
    })
  })

  it("books straight away when date and time come with the request", () => {
    expect(plan(emptyConversation, "book me in on 2026-11-25 at 2pm, my number is 415 555 0100").request).toEqual({
      kind: "book",
      date: "2026-11-25",
      time: "14:00",
      service: "consultation",
    })
  })

  it("takes the earliest slot when the visitor asks for the first one", () => {
    const state: ConversationState = { ...emptyConversation, offered: { date: "2026-11-24", service: "consultation" } }
    expect(plan(state, "the first one").request).toMatchObject({ kind: "book", time: "earliest" })
  })

  it("books the pending slot once the phone number arrives", () => {
    const state: ConversationState = {
      ...emptyConversation,
      pending: { date: "2026-11-24", time: "10:00", service: "consultation" },
    }
    const next = plan(state, "it's 415 555 0100")
    expect(next.state.phone).toBe("4155550100")
    expect(next.request).toEqual({ kind: "book", date: "2026-11-24", time: "10:00", service: "consultation" })
  })

  it("does nothing with the calendar for a message that is not about booking", () => {
    expect(plan(emptyConversation, "what are your prices?").request).toEqual({ kind: "none" })
  })

  it("never takes a phone number from the text on a phone channel", () => {
    expect(plan(emptyConversation, "my other number is 415 555 0100", "phone").state.phone).toBeUndefined()
  })

  it("remembers names and requests across turns", () => {
    const first = plan(emptyConversation, "Hi, I'm Dana and I'd like a demo").state
    const second = plan(first, "also please call me back").state
    expect(second).toMatchObject({ name: "Dana", demo: true, callback: true })
  })
})

describe("replies", () => {
  const compose = (state: ConversationState, text: string, answer: CalendarAnswer, capturedNow = false) => {
    const facts = readMessage(text, TODAY, SETTINGS.services)
    return composeReply(planTurn(state, facts, SETTINGS, "widget"), facts, answer, SETTINGS, capturedNow)
  }

  it("lists the free times and remembers the offer", () => {
    const composed = compose(emptyConversation, "book please", {
      kind: "offered",
      date: "2026-11-24",
      service: "consultation",
      times: ["09:00", "09:30"],
    })
    expect(composed.text).toContain("09:00, 09:30")
    expect(composed.state.offered).toEqual({ date: "2026-11-24", service: "consultation" })
  })

  it("confirms a booking and records it in the conversation", () => {
    const composed = compose(
      { ...emptyConversation, offered: { date: "2026-11-24", service: "consultation" } },
      "10:00",
      {
        kind: "booked",
        date: "2026-11-24",
        time: "10:00",
        service: "consultation",
      },
    )
    expect(composed.text).toContain("booked")
    expect(composed.state.booking).toEqual({ date: "2026-11-24", time: "10:00", service: "consultation" })
    expect(composed.state.offered).toBeUndefined()
  })

  it("offers the other free times when the slot is taken", () => {
    const composed = compose(emptyConversation, "book 10:00 tomorrow", {
      kind: "refused",
      reason: "full",
      date: "2026-11-24",
      time: "10:00",
      service: "consultation",
      times: ["10:30"],
    })
    expect(composed.text).toContain("already taken")
    expect(composed.text).toContain("10:30")
  })

  it.each([
    "hello",
    "what are your prices?",
    "asdf",
    "I'm interested",
    "call me back",
    "I want a demo",
    "my name is Dana",
    "2026-11-24",
    "?",
  ])("answers %j with a non-empty reply", (text) => {
    expect(compose(emptyConversation, text, { kind: "none" }).text.trim()).not.toBe("")
  })

  it("acknowledges a newly captured number with the request in mind", () => {
    const composed = compose(emptyConversation, "please call me back on 415 555 0100", { kind: "none" }, true)
    expect(composed.text).toContain("call you back at 4155550100")
  })
})

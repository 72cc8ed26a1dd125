import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { DEFAULT_BOOKING_SETTINGS } from "../bookings/settings.ts"
import {
  bookingConfirmation,
  type DayView,
  type HeldBooking,
  type Known,
  nothingKnown,
  type Step,
  step,
} from "./dialogue.ts"
import { leadOfConversation } from "./lead-capture.ts"
import type { EngineContext } from "./profile.ts"
import { readMessage } from "./read-message.ts"
import { type ConversationState, emptyConversation } from "./state.ts"

/**
 * A visitor's walk through a hair salon with three services on a Saturday (issue #23): questions
 * about one's own booking, corrections, a booking of the widget's form moved from the chat, a
 * question asked while the booking waits for a name, a number not of the organization's country.
 */
const SALON: EngineContext = {
  profile: {
    businessName: "Bella Hair Studio",
    languages: ["en", "es"],
    about: "Bella Hair Studio is a hair salon at 221 Baker Street. We cut, colour and style hair.",
    faqs: [{ question: "How much is a haircut?", answer: "Women's cut $45, men's cut $30." }],
  },
  settings: {
    ...DEFAULT_BOOKING_SETTINGS,
    country: "US",
    timezone: "America/New_York",
    services: ["haircut", "colouring", "beard trim"],
    hours: { ...DEFAULT_BOOKING_SETTINGS.hours, sat: [["10:00", "16:00"]] },
  },
  // Saturday 28 November 2026, 13:00.
  today: "2026-11-28",
  nowTime: "13:00",
}

const SLOTS = ["09:00", "09:30", "10:00", "10:30", "11:00", "11:30", "14:00", "14:30", "15:00"]
/** The day's times in the walk; a describe may open longer days (`openFrom7To21`). */
let slots = SLOTS
const day = (date: string): DayView => {
  const weekday = new Date(`${date}T12:00:00Z`).getUTCDay()
  const offered = weekday === 0 ? [] : slots
  return { date, offered, free: offered }
}

const turn = (state: ConversationState, text: string, held: HeldBooking | null = null, context = SALON) => {
  const facts = readMessage(text, state, context)
  const needs: Array<(Step & { kind: "need" })["need"]> = []
  let known: Known = nothingKnown
  for (let i = 0; i < 8; i++) {
    const next = step(state, facts, context, known)
    if (next.kind === "reply") return { text: next.text, state: next.state, needs }
    needs.push(next.need)
    const need = next.need
    if (need.kind === "day") known = { ...known, days: new Map([...known.days, [need.date, day(need.date)]]) }
    else if (need.kind === "nextOpenDay") known = { ...known, nextOpen: { from: need.from, date: need.from } }
    else if (need.kind === "book" || need.kind === "move") known = { ...known, booking: { kind: "booked", id: "b2" } }
    else if (need.kind === "cancel") known = { ...known, cancelled: true }
    else known = { ...known, held }
  }
  throw new Error("the engine did not answer")
}

const converse = (messages: ReadonlyArray<string>, held: HeldBooking | null = null, start = emptyConversation) => {
  let state = start
  const replies: Array<ReturnType<typeof turn>> = []
  for (const message of messages) {
    const answer = turn(state, message, held)
    replies.push(answer)
    state = answer.state
  }
  return { replies, state, last: replies.at(-1) as ReturnType<typeof turn> }
}

const BOOKED: ConversationState = {
  ...emptyConversation,
  name: "Tom",
  phone: "14155550134",
  bookingAsked: true,
  booking: { date: "2026-11-30", time: "09:30", service: "haircut" },
  bookingId: "b1",
  bookingMade: true,
}

describe("a visitor's walk through a salon on a Saturday", () => {
  it.each([
    "is my appointment still on?",
    "when is my booking?",
    "my booking reference is 4155550134, can you check it?",
    "¿sigue en pie mi cita?",
  ])("answers %j with the booking held, never today's free times", (message) => {
    const { replies, state } = converse([message, "the first one"], null, BOOKED)
    expect(replies[0]?.text).toMatch(/November 30|30 de noviembre/)
    expect(replies[0]?.text).not.toMatch(/Free times|Horarios libres|2:00/)
    expect(state.booking).toEqual(BOOKED.booking)
    expect(replies.flatMap((r) => r.needs).some((n) => n.kind === "book")).toBe(false)
  })

  it("says no booking is held when there is none, without offering today's times", () => {
    const { last } = converse(["when is my booking?"])
    expect(last.text).not.toMatch(/Free times|November 28/)
    expect(last.needs.some((n) => n.kind === "book")).toBe(false)
  })

  it.each([
    ["Can I book the 31st of November at 10?", /no 31st of November/],
    ["¿Puedo reservar el 31 de noviembre a las 10?", /No existe el 31 de noviembre/],
  ])("says a date that does not exist does not (%j)", (message, said) => {
    const { last } = converse([message])
    expect(last.text).toMatch(said)
    expect(last.text).not.toMatch(/November 28|28 de noviembre|Free times/)
  })
})

describe("corrections and a booking of the widget's form", () => {
  it("takes a new hour said before the booking is confirmed, and books that one", () => {
    const { replies, state } = converse([
      "book a haircut on Tuesday at 10am",
      "no wait, make it 11",
      "I'm Tom, 415 555 0134",
    ])
    expect(replies[1]?.text).toContain("11:00 AM")
    expect(state.booking).toEqual({ date: "2026-12-01", time: "11:00", service: "haircut" })
  })

  it.each(["sorry, I meant 11 not 10", "can we do 11 instead?", "mejor a las 11, perdón"])(
    "moves the booking just made when the visitor corrects its hour (%j)",
    (message) => {
      const start = { ...BOOKED, booking: { date: "2026-12-01", time: "10:00", service: "haircut" } }
      const { last, state } = converse([message], null, start)
      expect(last.needs.some((n) => n.kind === "move")).toBe(true)
      expect(state.booking).toEqual({ date: "2026-12-01", time: "11:00", service: "haircut" })
    },
  )

  it("says no booking is held when asked to move 'my booking' and none is, never proposing a new one", () => {
    for (const text of ["Hi, can you move my booking to 11:00?", "¿puedes cambiar mi cita a las 11?"]) {
      const { last } = converse([text])
      expect(last.needs.some((n) => n.kind === "book" || n.kind === "move")).toBe(false)
      expect(last.text).not.toMatch(/Shall I book|¿Te la reservo|free on|libre/)
      expect(last.state.pending).toBeUndefined()
    }
  })

  it("moves a booking of the widget's form to the hour asked, on its own day", () => {
    const held: HeldBooking = {
      id: "f1",
      date: "2026-11-30",
      time: "09:30",
      service: "colouring",
      phone: "14155550190",
    }
    const { last } = converse(["Hi, can you move my booking to 11:00?"], held)
    expect(last.needs).toContainEqual(expect.objectContaining({ kind: "move", from: held }))
    expect(last.text).toMatch(/moved your colouring to Monday, November 30 at 11:00 AM/)
  })
})

describe("a question asked while the booking waits for a name or a number", () => {
  it.each([
    ["what time do you open on Monday?", /9:00 AM/],
    ["How much is a haircut?", /\$45/],
  ])("answers %j, then asks again for what is missing", (question, answer) => {
    const { replies, state } = converse(["haircut on Monday at 10:30", "I'm Tom", question, "415 555 0134"])
    expect(replies[2]?.text).toMatch(answer)
    expect(replies[2]?.text).toMatch(/phone number/)
    expect(state.booking).toEqual({ date: "2026-11-30", time: "10:30", service: "haircut" })
  })

  it("answers a question asked when the name was asked for, then asks for the name again", () => {
    const { replies } = converse(["haircut on Monday at 10:30", "when do you close on Monday?"])
    expect(replies[1]?.text).toMatch(/5:00 PM/)
    expect(replies[1]?.text).toMatch(/your name/)
  })
})

describe("a number that is no number of the organization's country", () => {
  it("says it back as written and asks to check it, storing nothing, never a made-up +1 0…", () => {
    const { last, state } = converse(["ok call me on 0612 34 56 78"])
    expect(state.phone).toBeUndefined()
    expect(last.text).toContain("0612 34 56 78")
    expect(last.text).toMatch(/country code/)
    expect(last.text).not.toContain("+1")
  })

  it("books nothing under it until the visitor writes it again", () => {
    const { replies, state } = converse(["haircut on Monday at 10:30", "I'm Tom", "0612 34 56 78", "+33 6 12 34 56 78"])
    expect(replies[2]?.needs.some((n) => n.kind === "book")).toBe(false)
    expect(replies[2]?.text).toContain("0612 34 56 78")
    expect(state.booking).toEqual({ date: "2026-11-30", time: "10:30", service: "haircut" })
    expect(state.phone).toBe("33612345678")
  })
})

describe("a number read with the organization's country (docs/contract.md §8)", () => {
  const GB_SALON: EngineContext = { ...SALON, settings: { ...SALON.settings, country: "GB" } }

  it.each([
    ["I'm Tom, please call me on +44 (0) 7700 900456", "447700900456"],
    ["I'm Tom, please call me on +44 7700 900123", "447700900123"],
  ])("takes %j, international with the (0) trunk prefix or without, from a US business", (text, digits) => {
    const { last, state } = converse([text])
    expect(state.phone).toBe(digits)
    expect(last.text).not.toContain("not sure")
    expect(last.text).toContain("call you back")
    expect(leadOfConversation(state, "chat")?.phone).toBe(digits)
  })

  it("books under the international number it said it took", () => {
    const { replies, state } = converse([
      "I'm Tom, please call me on +44 (0) 7700 900456",
      "Can I book a haircut on Monday at 10:30?",
    ])
    expect(replies[1]?.needs).toContainEqual(
      expect.objectContaining({ kind: "book", phone: "447700900456", name: "Tom" }),
    )
    expect(state.phone).toBe("447700900456")
  })

  it("asks about a UK national number to a US business, and records no lead until it is written again", () => {
    const first = converse(["Can you call me? 07700 900123"])
    expect(first.last.text).toContain("not sure 07700 900123 is a number we can call")
    expect(first.last.text).not.toContain("call you back")
    expect(first.state.phone).toBeUndefined()
    expect(leadOfConversation(first.state, "chat")).toBeUndefined()
    const confirmed = converse(["+44 7700 900123"], null, first.state)
    expect(confirmed.state.phone).toBe("447700900123")
    expect(confirmed.last.text).toContain("call you back")
    expect(leadOfConversation(confirmed.state, "chat")?.phone).toBe("447700900123")
  })

  it("takes the same UK national number from a GB business, with its country code", () => {
    const answer = turn(emptyConversation, "Can you call me? 07700 900123", null, GB_SALON)
    expect(answer.state.phone).toBe("447700900123")
    expect(answer.text).not.toContain("not sure")
    expect(answer.text).toContain("call you back")
  })

  it("keeps the number it had when a doubtful correction follows, and asks about the new one", () => {
    const { last, state } = converse(["please call me on (415) 555-0100", "sorry, it's 07700 900123"])
    expect(last.text).toContain("not sure 07700 900123")
    expect(state.phone).toBe("14155550100")
  })

  it("books nothing under a doubtful number written with the booking", () => {
    const { last, state } = converse(["haircut on Monday at 10:30, I'm Tom, 07700 900123"])
    expect(last.needs.some((n) => n.kind === "book")).toBe(false)
    expect(last.text).toContain("not sure 07700 900123")
    expect(state.phone).toBeUndefined()
    expect(state.pending).toEqual({ date: "2026-11-30", time: "10:30", service: "haircut" })
  })
})

describe("the visitor's language", () => {
  // A phone channel showed no greeting before the customer wrote: there a "hello" is greeted.
  const greeted = {
    ...SALON,
    profile: { ...SALON.profile, greeting: "Welcome to Bella! How can we help?" },
    customerPhone: "14155550100",
  }
  it.each(["Hola", "Buenos días"])(
    "greets %j on a phone channel in Spanish, not with the greeting the business wrote in English",
    (text) => {
      const facts = readMessage(text, emptyConversation, greeted)
      const answer = step(emptyConversation, facts, greeted, nothingKnown)
      expect(answer.kind === "reply" && answer.text).toMatch(/^¡Hola, bienvenido a Bella Hair Studio/)
    },
  )

  it("keeps the business's own greeting for its first language on a phone channel", () => {
    const facts = readMessage("Hello", emptyConversation, greeted)
    const answer = step(emptyConversation, facts, greeted, nothingKnown)
    expect(answer.kind === "reply" && answer.text).toBe("Welcome to Bella! How can we help?")
  })

  it("answers a Spanish question after English turns in Spanish", () => {
    const { last } = converse(["hi", "what are your hours?", "¿Están abiertos ahora?"])
    expect(last.text).toMatch(/abiert|cerrad/i)
  })
})

describe("wording", () => {
  const say = (...messages: Array<string>) => converse(messages).last.text
  it("puts one full stop after a time written 'p.m.'", () => {
    for (const text of [
      say("¿Están abiertos ahora?"),
      say("¿A qué hora cierran hoy?"),
      say("quiero un corte de pelo (haircut) el lunes a las 3"),
    ])
      expect(text).not.toMatch(/\.\./)
  })

  it("puts one full stop after 'p.m.' in the confirmation of a booking a language model made", () => {
    const facts = readMessage("¿me reservas el lunes a las 3?", emptyConversation, SALON)
    const text = bookingConfirmation(emptyConversation, facts, SALON, {
      date: "2026-11-30",
      time: "15:00",
      service: "haircut",
    })
    expect(text).toContain("3:00 p.m.")
    expect(text).not.toMatch(/\.\./)
  })
})

describe("the hours from the clock", () => {
  const say = (...messages: Array<string>) => converse(messages).last.text
  it.each([
    ["when do you close today?", /^We're open now, until 4:00 PM today/],
    ["¿a qué hora cierran hoy?", /^Ahora estamos abiertos, hoy hasta las 4:00/],
    ["are you open now?", /^Yes, we're open now/],
  ])("answers %j without a yes to a when-question", (question, answer) => {
    expect(say(question)).toMatch(answer)
  })

  it("answers 'when do you open next?' with the next opening, not the week's timetable", () => {
    const late = { ...SALON, nowTime: "17:00" }
    const facts = readMessage("when do you open next?", emptyConversation, late)
    const answer = step(emptyConversation, facts, late, nothingKnown)
    expect(answer.kind === "reply" && answer.text).toMatch(/open again on Monday, November 30 at 9:00 AM/)
  })
})

describe("numbers said back", () => {
  it("never wraps a number written with brackets in brackets again", () => {
    const { last } = converse(["here's my number, (415) 555-0134"])
    expect(last.text).toContain("(415) 555-0134")
    expect(last.text).not.toContain("((")
  })

  it.each(["+49 151 23456789", "+44 7700 900456", "+33 6 12 34 56 78"])(
    "says a number of another country back as the visitor wrote it (%j)",
    (written) => {
      const { last } = converse([`please call me back on ${written}`])
      expect(last.text).toContain(written)
    },
  )
})

describe("a part of the day", () => {
  const midday = { ...SALON, profile: { ...SALON.profile, languages: ["en", "es", "fr"] as const } }
  const times = (text: string) => {
    const facts = readMessage(text, emptyConversation, midday as EngineContext)
    let known: Known = nothingKnown
    for (;;) {
      const next = step(emptyConversation, facts, midday as EngineContext, known)
      if (next.kind === "reply") return next.text
      if (next.need.kind !== "day") throw new Error(next.need.kind)
      const offered = ["11:30", "12:00", "12:30", "13:00", "13:30"]
      known = { ...known, days: new Map([[next.need.date, { date: next.need.date, offered, free: offered }]]) }
    }
  }
  it.each([
    ["Quiero una cita para un haircut el lunes por la tarde", "1:00 p.m.", "12:30"],
    ["un rendez-vous haircut lundi après-midi", "13:00", "12:30"],
    ["can I get a haircut on Monday afternoon?", "12:30 PM", "12:00 PM"],
  ])("offers the afternoon as the language counts it (%j)", (text, first, never) => {
    const reply = times(text)
    expect(reply).toContain(first)
    expect(reply).not.toContain(never)
  })
})

describe("today's weekday named on that day (a Saturday)", () => {
  const at = (nowTime: string, messages: ReadonlyArray<string>) => {
    let state = emptyConversation
    const replies: Array<ReturnType<typeof turn>> = []
    for (const message of messages) {
      const answer = turn(state, message, null, { ...SALON, nowTime })
      replies.push(answer)
      state = answer.state
    }
    return { replies, state }
  }

  it("books 'Saturday at 11' said at 09:30 today, not a week on", () => {
    const { replies, state } = at("09:30", ["Can I get a haircut Saturday at 11?", "Tom, 415 555 0134"])
    expect(replies[0]?.text).toMatch(/November 28/)
    expect(replies[0]?.text).not.toMatch(/December 5/)
    expect(state.booking).toEqual({ date: "2026-11-28", time: "11:00", service: "haircut" })
  })

  it("proposes the next Saturday for 'Saturday at 11' said at 15:50, and books it only once accepted", () => {
    const { replies, state } = at("15:50", ["Can I get a haircut Saturday at 11?"])
    expect(replies[0]?.text).toMatch(/December 5/)
    expect(replies[0]?.needs.some((n) => n.kind === "book")).toBe(false)
    expect(state.booking).toBeUndefined()
    const accepted = at("15:50", ["Can I get a haircut Saturday at 11?", "yes please", "Tom, 415 555 0134"])
    expect(accepted.state.booking).toEqual({ date: "2026-12-05", time: "11:00", service: "haircut" })
  })

  it("keeps 'next Saturday' a week on, also in the morning", () => {
    const { replies, state } = at("09:30", ["haircut next Saturday at 11", "Tom, 415 555 0134"])
    expect(replies[0]?.text).toMatch(/December 5/)
    expect(state.booking).toEqual({ date: "2026-12-05", time: "11:00", service: "haircut" })
  })
})

describe("an hour without am/pm at a studio open 07:00–21:00", () => {
  const hourly = Array.from({ length: 14 }, (_, i) => `${String(7 + i).padStart(2, "0")}:00`)
  beforeEach(() => {
    slots = hourly
  })
  afterEach(() => {
    slots = SLOTS
  })

  it.each([
    ["at 7 please, Tom 415 555 0134", "en"],
    ["las 7 me van bien, soy Tom, 415 555 0134", "es"],
    ["7h ça me va, Tom 415 555 0134", "fr"],
  ])("answers the list shown ('7:00, 8:00, … and 6 more') with 7:00, not the hidden 19:00 (%j)", (answer) => {
    const { replies, state } = converse(["a haircut on Tuesday please", answer])
    expect(replies[0]?.text).toMatch(/7:00/)
    expect(state.booking).toEqual({ date: "2026-12-01", time: "07:00", service: "haircut" })
  })

  it("keeps 'at 7' an evening hour when no list was shown", () => {
    const { state } = converse(["a haircut on Tuesday at 7, Tom 415 555 0134"])
    expect(state.booking?.time).toBe("19:00")
  })
})

describe("cancelling a booking named by another day or time", () => {
  it.each([
    "please cancel my booking on December 1 at 10:00",
    "cancel my appointment tomorrow",
    "cancela mi cita del 1 de diciembre",
  ])("cancels nothing, and says the booking held and how to cancel it (%j)", (message) => {
    const { last, state } = converse([message], null, BOOKED)
    expect(last.needs.some((n) => n.kind === "cancel")).toBe(false)
    expect(last.text).toMatch(/November 30|30 de noviembre/)
    expect(state.booking).toEqual(BOOKED.booking)
  })

  it("cancels the booking held when its own day, its weekday or nothing is named", () => {
    for (const message of ["cancel my booking on November 30", "cancel my Monday appointment", "please cancel it"]) {
      const { last } = converse([message], null, BOOKED)
      expect(
        last.needs.some((n) => n.kind === "cancel"),
        message,
      ).toBe(true)
    }
  })
})

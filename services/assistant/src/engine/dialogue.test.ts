import { describe, expect, it } from "vitest"
import { DEFAULT_BOOKING_SETTINGS } from "../bookings/settings.ts"
import { type DayView, type Known, nothingKnown, type Step, step } from "./dialogue.ts"
import { leadOfConversation } from "./lead-capture.ts"
import { CATALOGS } from "./messages/index.ts"
import type { EngineContext } from "./profile.ts"
import { readMessage } from "./read-message.ts"
import { type ConversationState, emptyConversation } from "./state.ts"
import type { Language } from "./text.ts"

// Wednesday 25 November 2026, 10:00; open Monday to Friday 09:00–17:00 (the defaults). One service:
// with two or more, a booking that names none is asked which ("which service, …" below).
const CONTEXT: EngineContext = {
  profile: { businessName: "Acme", languages: ["en", "es"], faqs: [{ question: "Parking?", answer: "On Mill Lane." }] },
  settings: { ...DEFAULT_BOOKING_SETTINGS, services: ["consultation"] },
  today: "2026-11-25",
  nowTime: "10:00",
}
/** The same business with two services. */
const TWO: EngineContext = { ...CONTEXT, settings: { ...CONTEXT.settings, services: ["consultation", "demo call"] } }

const OPEN: ReadonlyArray<string> = ["09:00", "09:30", "10:00", "10:30", "11:00", "11:30", "14:00", "16:30"]

/** A calendar where every weekday offers OPEN, all free but `taken`. */
const calendar = (taken: ReadonlyArray<string> = []) => ({
  day: (date: string): DayView => {
    const weekday = new Date(`${date}T12:00:00Z`).getUTCDay()
    const offered = weekday === 0 || weekday === 6 ? [] : OPEN
    return { date, offered, free: offered.filter((time) => !taken.includes(time)) }
  },
})

/** Runs a turn to its reply, answering the engine's needs from a calendar; returns the needs too. */
const turn = (state: ConversationState, text: string, context = CONTEXT, taken: ReadonlyArray<string> = []) => {
  const facts = readMessage(text, state, context)
  const needs: Array<Step & { kind: "need" }> = []
  let known: Known = nothingKnown
  const cal = calendar(taken)
  for (let i = 0; i < 8; i++) {
    const next = step(state, facts, context, known)
    if (next.kind === "reply") return { ...next, needs: needs.map((n) => n.need) }
    needs.push(next)
    const need = next.need
    if (need.kind === "day") known = { ...known, days: new Map([...known.days, [need.date, cal.day(need.date)]]) }
    else if (need.kind === "nextOpenDay") known = { ...known, nextOpen: { from: need.from, date: "2026-11-26" } }
    else if (need.kind === "book" || need.kind === "move")
      known = { ...known, booking: { kind: "booked", id: "bkg_1" } }
    else if (need.kind === "cancel") known = { ...known, cancelled: true }
    else known = { ...known, held: null }
  }
  throw new Error("the engine did not answer")
}

/** Plays a conversation with a business, each message from the state the previous one left. */
const converseWith = (context: EngineContext, ...messages: Array<string>) => {
  let state = emptyConversation
  const replies: Array<ReturnType<typeof turn>> = []
  for (const message of messages) {
    const answer = turn(state, message, context)
    replies.push(answer)
    state = answer.state
  }
  return { replies, state, last: replies.at(-1) as ReturnType<typeof turn> }
}

const converse = (...messages: Array<string>) => converseWith(CONTEXT, ...messages)

describe("the booking dialogue", () => {
  it("asks for one missing detail at a time: the time, then the name, then the number, then books", () => {
    const { replies, state } = converse("I'd like to book on Friday", "10:30", "Dana Lee", "415 555 0142")
    expect(replies.map((r) => r.state.awaiting)).toEqual(["time", "name", "phone", "done"])
    expect(replies[0]?.text).toContain("Friday, November 27")
    expect(replies[3]?.needs).toContainEqual({
      kind: "book",
      slot: { date: "2026-11-27", time: "10:30", service: "consultation" },
      phone: "14155550142",
      name: "Dana Lee",
    })
    expect(state).toMatchObject({ booking: { date: "2026-11-27", time: "10:30" }, bookingId: "bkg_1" })
  })

  it("notes a name or number given while offered times wait for a choice, asks the time again, and books the one chosen", () => {
    const withNumber = converse("I'd like to book on Friday", "I'm Dana Lee, 415 555 0142", "10:30")
    expect(withNumber.replies.map((r) => r.state.awaiting)).toEqual(["time", "time", "done"])
    expect(withNumber.replies[1]?.text).toMatch(/noted your number.*Which time would you like on Friday, November 27\?/)
    expect(withNumber.replies[1]?.text).not.toMatch(/get back to you/)
    expect(withNumber.replies[2]?.needs).toContainEqual({
      kind: "book",
      slot: { date: "2026-11-27", time: "10:30", service: "consultation" },
      phone: "14155550142",
      name: "Dana Lee",
    })
    const withName = converse("¿Tienen hueco el viernes?", "me llamo Ana Ruiz", "a las 11")
    expect(withName.replies.map((r) => r.state.awaiting)).toEqual(["time", "time", "phone"])
    expect(withName.replies[1]?.text).toMatch(/^Gracias, Ana Ruiz\. ¿A qué hora te viene bien el viernes/)
  })

  it("goes on with the booking when its own question is answered with a yes, instead of starting over", () => {
    const { replies, state } = converse("I'd like to book on Friday at 10:30", "yes please", "415 555 0142")
    expect(replies.map((r) => r.state.awaiting)).toEqual(["name", "phone", "done"])
    expect(replies[1]?.text).not.toMatch(/what would you like to do|your name/i)
    expect(state).toMatchObject({ booking: { date: "2026-11-27", time: "10:30" }, bookingId: "bkg_1" })
  })

  it("offers the part of the day asked for, and its first time when asked for the first", () => {
    const { replies } = converse("can I book a consultation tomorrow afternoon?", "the first one")
    expect(replies[0]?.text).toBe(
      "Free times for consultation on Thursday, November 26: 2:00 PM and 4:30 PM. Which time would you like?",
    )
    expect(replies[1]?.text).toMatch(/^Consultation on Thursday, November 26 at 2:00 PM is free\./)
  })

  it("reads a weekday named after 'next week' in that week, in the same message or a later one", () => {
    const { replies, last } = converse("could I come in next week?", "Friday at 10 works")
    expect(replies[0]?.needs).toContainEqual({ kind: "nextOpenDay", from: "2026-11-30" })
    expect(last.state.pending).toMatchObject({ date: "2026-12-04", time: "10:00" })
    expect(turn(emptyConversation, "next week on Friday at 10?").state.pending).toMatchObject({ date: "2026-12-04" })
  })

  it("says the new slot again when the visitor corrects the day before giving a name", () => {
    const { replies } = converse("a consultation on Thursday at 2pm please", "sorry, I meant Friday at 2")
    expect(replies[1]?.text).toMatch(/^Consultation on Friday, November 27 at 2:00 PM is free\./)
    expect(replies[1]?.state.pending).toMatchObject({ date: "2026-11-27", time: "14:00" })
  })

  it("answers 'do you do <a service>?' with the services when the FAQ found does not say it", () => {
    const barber: EngineContext = {
      ...CONTEXT,
      settings: { ...CONTEXT.settings, services: ["haircut", "beard trim"] },
      profile: {
        ...CONTEXT.profile,
        faqs: [{ question: "How long does a beard trim take?", answer: "About 20 minutes." }],
      },
    }
    expect(turn(emptyConversation, "do you do beard trims?", barber).text).toContain("haircut and beard trim")
    expect(turn(emptyConversation, "how long does a beard trim take?", barber).text).toBe("About 20 minutes.")
  })

  it("books the service asked about on the day named next", () => {
    const { replies, last } = converseWith(TWO, "do you do demo calls?", "ok, can I get one on Monday", "10:30 works")
    expect(replies[1]?.text).toContain("Free times for demo call on Monday, November 30")
    expect(last.state.pending).toMatchObject({ date: "2026-11-30", time: "10:30", service: "demo call" })
  })

  it("says a closed day before asking for a phone number, and books nothing", () => {
    const answer = turn(emptyConversation, "Can I book for Sunday at 11?")
    expect(answer.text).toContain("closed on Sunday")
    expect(answer.text).not.toContain("phone")
    expect(answer.needs.some((need) => need.kind === "book")).toBe(false)
  })

  it("says a past time and the times still free today", () => {
    const answer = turn(emptyConversation, "book me today at 9am")
    expect(answer.text).toContain("already passed")
    expect(answer.text).toContain("10:30 AM")
  })

  it("says a taken slot and offers the free ones", () => {
    const answer = turn(emptyConversation, "book me tomorrow at 10am", CONTEXT, ["10:00"])
    expect(answer.text).toContain("already taken")
    expect(answer.state.offered).toEqual({ date: "2026-11-26", service: "consultation" })
  })

  it("asks when a weekday and a date disagree, and books the one the visitor then names", () => {
    const { replies, state } = converse("Can I book Thursday the 4th at 10?", "Thursday", "I'm Zoe, 415 555 0150")
    expect(replies[0]?.text).toContain("Thursday, December 3")
    expect(replies[0]?.text).toContain("Friday, December 4")
    expect(replies[0]?.needs.some((need) => need.kind === "book")).toBe(false)
    expect(state.booking).toEqual({ date: "2026-12-03", time: "10:00", service: "consultation" })
  })

  it("asks which day a bare number after a weekday means when its date is weeks away, and books the one named", () => {
    // Wednesday 25 November: "Monday 21" is the 21st of December, four Mondays on.
    const { replies, state } = converse("Can I book monday 21?", "the 30th at 10", "I'm Zoe, 415 555 0150")
    expect(replies[0]?.text).toBe("Just to check: did you mean Monday, November 30 or Monday, December 21?")
    expect(replies[0]?.needs.some((need) => need.kind === "book")).toBe(false)
    expect(state.booking).toEqual({ date: "2026-11-30", time: "10:00", service: "consultation" })
  })

  it("reads the hour after a weekday as the hour, in each language", () => {
    for (const text of ["can I book monday 10am", "quiero reservar el lunes 10am", "lundi 10h pour un rendez-vous"]) {
      const answer = turn(emptyConversation, text)
      expect(answer.state.pending ?? answer.state.offered).toMatchObject({ date: "2026-11-30" })
    }
  })

  it("never treats a demo request as a booking, whatever words it uses", () => {
    const answer = turn(emptyConversation, "I'd like to book a demo of your booking software")
    expect(answer.needs).toEqual([])
    expect(answer.state.demo).toBe(true)
    expect(answer.text).toContain("phone number")
  })

  it("cancels the conversation's booking when asked", () => {
    const booked = converse("I'm Kate, 415 555 0172, book me Friday at 10am").state
    const answer = turn(booked, "actually, please cancel that appointment")
    expect(answer.needs).toEqual([
      { kind: "cancel", booking: { id: "bkg_1", date: "2026-11-27", time: "10:00", service: "consultation" } },
    ])
    expect(answer.state.booking).toBeUndefined()
    expect(answer.text).toContain("cancelled")
  })

  it("moves the conversation's booking to the time named", () => {
    const booked = converse("I'm Ben, 415 555 0173, book me Monday at 9:30").state
    const answer = turn(booked, "can we move it to Tuesday at 2pm instead?")
    expect(answer.needs.at(-1)).toMatchObject({ kind: "move", to: { date: "2026-12-01", time: "14:00" } })
    expect(answer.state.booking).toEqual({ date: "2026-12-01", time: "14:00", service: "consultation" })
  })

  it("on a phone channel, looks up the customer's booking by their number to cancel it", () => {
    const channel = { ...CONTEXT, customerPhone: "14155550100" }
    const answer = turn(emptyConversation, "please cancel my appointment", channel)
    expect(answer.needs).toEqual([{ kind: "held" }])
    expect(answer.text).toContain("can't find a booking")
  })
})

describe("requests, numbers and questions", () => {
  it("withdraws a callback when the visitor says not to call", () => {
    const { state, last } = converse("call me back on 415 555 0177", "actually don't call me, I'll email")
    expect(state).toMatchObject({ callback: false, noCall: true })
    expect(last.text).toContain("won't call")
  })

  it("asks about a number the country's plan does not have (a local 555-1234) and stores nothing yet", () => {
    const answer = turn(emptyConversation, "please call me at 555-1234")
    expect(answer.state.phone).toBeUndefined()
    expect(answer.state.awaiting).toBe("phone")
    expect(answer.text).toContain("not sure 555-1234 is a number we can call")
  })

  it("writes the example of that question in the format of the visitor's language, not always France's", () => {
    const spanish = { ...CONTEXT, settings: { ...CONTEXT.settings, country: "ES" } }
    expect(turn(emptyConversation, "please call me at 555-1234").text).toContain("(e.g. +44 …)")
    expect(turn(emptyConversation, "llámame al 555 0101 por favor", spanish).text).toContain("(p. ej. +34 …)")
  })

  it("takes a corrected number", () => {
    const { state, last } = converse("call me on 415 555 0175", "sorry, wrong number, it's 415 555 0176")
    expect(state.phone).toBe("14155550176")
    expect(last.text).toContain("(415) 555-0176")
  })

  it("answers from the FAQ, the hours and the services, and says when it does not know", () => {
    expect(turn(emptyConversation, "where can I park?").text).toBe("On Mill Lane.")
    expect(turn(emptyConversation, "what are your opening hours?").text).toContain("Monday to Friday 9:00 AM–5:00 PM")
    expect(turn(emptyConversation, "what services do you offer?", TWO).text).toContain("consultation and demo call")
    const unknown = turn(emptyConversation, "do you sell printers?")
    expect(unknown.text).toContain("don't know")
    expect(unknown.state.awaiting).toBe("callbackOffer")
    expect(turn(unknown.state, "yes please").text).toContain("phone number")
  })

  it("answers the part of a question it can, says it cannot give the price, and offers a callback", () => {
    const about = "We do check-ups, cleaning and whitening."
    const clinic: EngineContext = { ...CONTEXT, profile: { ...CONTEXT.profile, faqs: [], about } }
    const mixed = turn(emptyConversation, "Do you do teeth whitening? I would like to know the price", clinic)
    expect(mixed.text).toBe(
      "We do check-ups, cleaning and whitening. I can't give you the price here, though. Shall someone from the team call you back?",
    )
    expect(mixed.state.awaiting).toBe("callbackOffer")
    expect(turn(mixed.state, "yes please", clinic).text).toContain("phone number")
    // The profile's hand-off message is the callback offer when set.
    const handoffMessage = "Leave your number and Dr. Ruiz will call you."
    const withHandoff: EngineContext = { ...clinic, profile: { ...clinic.profile, handoffMessage } }
    const price = turn(emptyConversation, "How much is a cleaning?", withHandoff)
    expect(price.text).toBe(`${about} I can't give you the price here, though. ${handoffMessage}`)
    // A question the sentence answers whole is answered with it alone.
    expect(turn(emptyConversation, "do you do whitening?", clinic).text).toBe(about)
  })

  it("says the afternoon's reopening when asked until when it is open on a day with a lunch break", () => {
    const lunch: EngineContext = {
      ...CONTEXT,
      settings: {
        ...CONTEXT.settings,
        hours: {
          ...CONTEXT.settings.hours,
          wed: [
            ["09:00", "12:30"],
            ["14:00", "18:00"],
          ],
        },
      },
    }
    // A when-question gets no "yes" (issue #23).
    expect(turn(emptyConversation, "what time do you close today?", lunch).text).toBe(
      "We're open now, until 12:30 PM today, and again 2:00 PM–6:00 PM.",
    )
    expect(turn(emptyConversation, "¿hasta qué hora abrís hoy?", lunch).text).toBe(
      "Ahora estamos abiertos, hoy hasta las 12:30 p.m. y de nuevo de 2:00 p.m.–6:00 p.m.",
    )
    // In the afternoon range, only its own closing.
    expect(turn(emptyConversation, "are you still open?", { ...lunch, nowTime: "15:00" }).text).toBe(
      "Yes, we're open now, until 6:00 PM today.",
    )
  })

  it("answers both questions of one message: the hours and the services, the hours and the name", () => {
    const both = turn(emptyConversation, "which services do you have, and are you open on Friday?", TWO)
    expect(both.text).toContain("On Friday we're open 9:00 AM–5:00 PM.")
    expect(both.text).toContain("consultation and demo call")
    const named = turn(emptyConversation, "Wann haben Sie morgen auf? Und wie heißt Ihre Firma eigentlich?")
    expect(named.text).toContain("Acme")
    expect(named.text).toContain("9:00 AM–5:00 PM")
  })

  it("answers a question about what would happen from the FAQ, and books or cancels nothing", () => {
    const policy: EngineContext = {
      ...CONTEXT,
      profile: {
        ...CONTEXT.profile,
        faqs: [
          { question: "What is your cancellation policy?", answer: "Cancel 24 hours ahead, or a $20 fee applies." },
        ],
      },
    }
    const asked = turn(emptyConversation, "what happens if I have to cancel my appointment last minute?", policy)
    expect(asked.text).toBe("Cancel 24 hours ahead, or a $20 fee applies.")
    expect(asked.needs).toEqual([])
    const booked = converse("book a consultation on Friday at 10, I'm Ana, 415 555 0100").last.state
    const held = turn(booked, "and what if I cancel it the day before?", policy)
    expect(held.needs).toEqual([])
    expect(held.state.booking).toEqual(booked.booking)
  })

  it("answers a question about the hours that names a day and a time with the hours, never a booking", () => {
    const answer = turn(emptyConversation, "are you open on Friday at 10?")
    expect(answer.text).toBe("On Friday we're open 9:00 AM–5:00 PM.")
    expect(answer.needs).toEqual([])
  })

  it("never starts a booking offer with a lower-case service name", () => {
    const answer = turn(emptyConversation, "can I book a consultation on Friday at 10:30?")
    expect(answer.text).toMatch(/^Consultation on Friday, November 27 at 10:30 AM is free\./)
  })

  it("never starts a reply in another language with the service's name as the business wrote it", () => {
    const asked = turn(emptyConversation, "Hola, ¿puedo reservar una consultation el viernes a las 10:30?")
    expect(asked.text).toMatch(/^El viernes, 27 de noviembre a las 10:30 a\.m\. está libre para consultation\./)
    const booked = turn(asked.state, "Soy Lucía, 415 555 0123")
    expect(booked.text).toMatch(/^¡Reservado, Lucía! Te esperamos el viernes/)
  })

  it("answers in the visitor's language among the profile's, with dates written for it", () => {
    const answer = turn(emptyConversation, "Hola, quiero una cita el viernes")
    expect(answer.text).toContain("viernes, 27 de noviembre")
    expect(answer.state.language).toBe("es")
    expect(turn(emptyConversation, "Bonjour, je voudrais un rendez-vous").state.language).toBe("en")
  })

  it.each(["hello", "what?", "asdf", "I'm interested", "ok", "2026-11-24", "?"])(
    "answers %j with something",
    (text) => {
      expect(turn(emptyConversation, text).text.trim()).not.toBe("")
    },
  )
})

describe("a short answer is read as the answer to the last reply, never as a new conversation", () => {
  const MENU = /what would you like to do|qué necesitas/i
  const BOOKED = ["I'd like to book on Friday at 10:30", "Dana Lee", "415 555 0142"]
  const changes = (needs: ReadonlyArray<{ readonly kind: string }>) =>
    needs.filter((n) => n.kind === "book" || n.kind === "cancel" || n.kind === "move")

  it.each(["yes please", "yes", "sure", "ok", "great", "perfect", "👍", "no thanks", "no"])(
    "after a booking, %j closes with the booking said again, books nothing more and shows no menu",
    (message) => {
      const { last, state } = converse(...BOOKED, message)
      expect(last.text).not.toMatch(MENU)
      expect(last.text).toContain("Friday, November 27 at 10:30 AM")
      expect(changes(last.needs)).toEqual([])
      expect(state).toMatchObject({ booking: { date: "2026-11-27", time: "10:30" }, bookingId: "bkg_1" })
    },
  )

  it("after a booking, a thank-you gets a warm closing with its day and time, in the visitor's language", () => {
    expect(converse(...BOOKED, "thanks!").last.text).toBe(
      "You're welcome, Dana Lee — see you on Friday, November 27 at 10:30 AM.",
    )
    const es = converse("Quiero reservar el viernes a las 10:30", "Dana", "415 555 0142", "¡gracias!")
    expect(es.last.text).toMatch(/^¡De nada, Dana! Te esperamos el viernes, 27 de noviembre a las 10:30/)
    const yes = converse("Quiero reservar el viernes a las 10:30", "Dana", "415 555 0142", "sí, por favor")
    expect(yes.last.text).toMatch(/^¡Todo listo, Dana!/)
  })

  it("books a proposed slot on a yes or a thumbs-up only: a no asks for another time, a thank-you asks again", () => {
    const declined = converse("can I come in at 2pm?", "no thanks")
    expect(declined.replies[0]?.state.awaiting).toBe("confirm")
    expect(declined.last.text).toBe("No problem. Which other day or time would suit you?")
    expect(declined.last.state.pending).toBeUndefined()
    const thanked = converse("can I come in at 2pm?", "thanks!")
    expect(thanked.last.text).toMatch(/Shall I book that for you\?/)
    expect(thanked.last.state).toMatchObject({ awaiting: "confirm", pending: { time: "14:00" } })
    const approved = converse("can I come in at 2pm?", "👍", "Dana", "415 555 0142")
    expect(approved.replies[1]?.state.awaiting).toBe("name")
    expect(changes(approved.replies.flatMap((r) => r.needs))).toHaveLength(1)
    for (const { replies } of [declined, thanked]) expect(changes(replies.flatMap((r) => r.needs))).toEqual([])
  })

  it("shows the times again on a yes to 'which time?', and asks another day on a no, which a day then answers", () => {
    const again = converse("I'd like to book on Friday", "yes")
    expect(again.last.text).toMatch(/^Free times for consultation on Friday, November 27/)
    const other = converse("I'd like to book on Friday", "no", "Monday")
    expect(other.replies[1]?.text).toBe("No problem. Which other day or time would suit you?")
    expect(other.last.text).toMatch(/^Free times for consultation on Monday, November 30/)
    expect(changes(other.replies.flatMap((r) => r.needs))).toEqual([])
  })

  it("offers the next open day's times on a yes to a closed day, and books nothing", () => {
    const { replies, last } = converse("can I book on Saturday?", "yes please")
    expect(replies[0]?.text).toMatch(/closed on Saturday/)
    expect(last.text).toMatch(/^Free times for consultation on Thursday, November 26/)
    expect(changes(last.needs)).toEqual([])
  })

  it("asks the day on a yes after a cancellation, closes on a no, and cancels or books nothing more", () => {
    const yes = converse(...BOOKED, "cancel it", "yes")
    expect(yes.last.text).toBe("Which day would suit you?")
    expect(converse(...BOOKED, "cancel it", "yes", "Monday at 9").last.needs).toContainEqual(
      expect.objectContaining({ kind: "book", slot: { date: "2026-11-30", time: "09:00", service: "consultation" } }),
    )
    const no = converse(...BOOKED, "cancel it", "no thanks")
    expect(no.last.text).toMatch(/^All right, Dana Lee\./)
    expect(changes(no.last.needs)).toEqual([])
    expect(changes(yes.last.needs)).toEqual([])
  })

  it.each([
    ["a callback noted", ["please call me back on 415 555 0142"]],
    ["an FAQ answer", ["Parking?"]],
  ])("after %s, an ok or a great closes instead of the menu", (_, setup) => {
    for (const message of ["ok", "great", "yes please"]) {
      const { last } = converse(...setup, message)
      expect(last.text).toBe("All right. If there's anything else, just write here.")
    }
  })

  it("a no to 'shall someone call you back?' closes and asks for no number", () => {
    const { last, state } = converse("do you repair spaceships?", "no thanks")
    expect(last.text).toBe("All right. If there's anything else, just write here.")
    expect(state.callback).toBe(false)
  })

  it("asks again on a yes to 'did you mean Thursday or Friday?', books the one then named, and asks another day on a no", () => {
    const { replies, last } = converse("book Thursday the 4th at 10", "yes please", "Friday")
    expect(replies[1]?.text).toMatch(/^Just to check: did you mean Thursday, December 3 or Friday, December 4\?/)
    expect(replies[1]?.needs).toEqual([])
    expect(last.state.pending).toEqual({ date: "2026-12-04", time: "10:00", service: "consultation" })
    expect(converse("book Thursday the 4th at 10", "no").last.text).toBe(
      "No problem. Which other day or time would suit you?",
    )
  })

  it.each(["👍", "no", "great"])(
    "goes on to the number on %j to 'may I have your name?', booking nothing yet",
    (message) => {
      const { last, state } = converse("I'd like to book on Friday at 10:30", message)
      expect(last.text).toBe("Thanks! What phone number should I put the booking under?")
      expect(state).toMatchObject({ awaiting: "phone", pending: { date: "2026-11-27", time: "10:30" } })
      expect(changes(last.needs)).toEqual([])
    },
  )

  it("asks what else on a yes to 'anything else?', and closes on a no", () => {
    expect(converse("please call me on 415 555 0142", "don't call me", "yes").last.text).toBe(
      "Of course — what can I help you with?",
    )
    expect(converse("please call me on 415 555 0142", "don't call me", "no").last.text).toMatch(/^All right\./)
  })
})

// The same business speaking all five languages, with a price in its FAQ.
const FIVE: EngineContext = {
  ...CONTEXT,
  profile: {
    ...CONTEXT.profile,
    languages: ["en", "es", "de", "fr", "pt"],
    greeting: "Welcome to Acme! How can we help?",
    faqs: [{ question: "How much is a consultation?", answer: "A consultation costs $50." }],
  },
}
const CHANNEL: EngineContext = { ...FIVE, customerPhone: "14155550100" }
const booked = (needs: ReadonlyArray<{ readonly kind: string }>) => needs.some((n) => n.kind === "book")

describe("a hello to the widget, which showed the greeting already", () => {
  it.each([
    ["Hello", "en", /^Hi there! .*answer a question, book an appointment or have someone call you back\.$/],
    ["hola", "es", /^¡Hola! .*responder una pregunta, reservarte una cita o pedir que te llamemos\.$/],
    ["Hallo", "de", /^Hallo! .*beantworte eine Frage, buche einen Termin oder vereinbare einen Rückruf\.$/],
    ["bonjour", "fr", /^Bonjour ! .*répondre à une question, réserver un rendez-vous ou organiser un rappel\.$/],
    ["olá", "pt", /^Olá! .*responder uma pergunta, agendar um horário ou pedir que liguemos para você\.$/],
  ])(
    "on the widget, which showed the greeting already, answers %j by asking what they need (%s)",
    (text, language, reply) => {
      const answer = turn(emptyConversation, text, FIVE)
      expect(answer.text).toMatch(reply)
      expect(answer.text).not.toContain("Welcome to Acme")
      expect(answer.state.language).toBe(language)
    },
  )

  it("on a phone channel, where nothing was shown before, answers a first hello with the greeting", () => {
    expect(turn(emptyConversation, "Hello", CHANNEL).text).toBe("Welcome to Acme! How can we help?")
  })
})

describe("a name sent after a booking made without one", () => {
  it.each([
    [
      "I'd like to book a consultation tomorrow at 2pm",
      "Ana Lima",
      "Thank you, Ana Lima! I've noted your name. See you on Thursday, November 26 at 2:00 PM.",
    ],
    [
      "Quiero reservar una consulta mañana a las 2",
      "Ana Lima",
      "¡Gracias, Ana Lima! He anotado tu nombre. Te esperamos el jueves, 26 de noviembre a las 2:00 p.m.",
    ],
    [
      "Ich möchte morgen um 14 Uhr einen Termin buchen",
      "Jonas Weber",
      "Danke, Jonas Weber! Ich habe Ihren Namen notiert. Bis Donnerstag, 26. November um 14:00.",
    ],
    [
      "Je voudrais réserver un rendez-vous demain à 14h",
      "Claire Martin",
      "Merci, Claire Martin ! J'ai bien noté votre nom. À jeudi 26 novembre à 14:00.",
    ],
    [
      "Quero agendar uma consulta amanhã às 14h",
      "João Silva",
      "Obrigado, João Silva! Anotei seu nome. Até quinta-feira, 26 de novembro às 14:00.",
    ],
  ])(
    "on a phone channel, thanks a bare name sent after the booking by name and keeps it for the lead (%j)",
    (request, name, thanks) => {
      const { replies, state } = converseWith(CHANNEL, request, name)
      expect(replies[0]?.state.booking).toEqual({ date: "2026-11-26", time: "14:00", service: "consultation" })
      expect(replies[1]?.text).toBe(thanks)
      expect(state).toMatchObject({ name, bookingId: "bkg_1", awaiting: "done" })
      expect(replies[1]?.needs).toEqual([])
      expect(leadOfConversation(state, "cloud", "14155550100")).toMatchObject({ name, type: "BOOKING", own: true })
    },
  )

  it.each(["Perfect", "ok cool", "Great, thanks", "ana lima", "Consultation", "Friday"])(
    "on a phone channel, takes %j after a booking for no name",
    (message) => {
      const { state } = converseWith(CHANNEL, "I'd like to book a consultation tomorrow at 2pm", message)
      expect(state.name).toBeUndefined()
    },
  )
})

describe("a question asked beside a booking request", () => {
  it.each([
    [
      "en",
      "What are your opening hours? I'd like to book a consultation on Friday",
      "Our opening hours: Monday to Friday",
      "Free times for consultation on Friday, November 27",
    ],
    [
      "es",
      "¿Cuál es vuestro horario? Quiero reservar una consulta el viernes",
      "Nuestro horario: de lunes a viernes",
      "el viernes, 27 de noviembre: 9:00 a.m.",
    ],
    [
      "de",
      "Wie sind Ihre Öffnungszeiten? Ich möchte am Freitag einen Termin buchen.",
      "Unsere Öffnungszeiten: Montag bis Freitag",
      "am Freitag, 27. November: 9:00",
    ],
    [
      "fr",
      "Quels sont vos horaires ? Je voudrais réserver un rendez-vous vendredi.",
      "Nos horaires : du lundi au vendredi",
      "le vendredi 27 novembre : 9:00",
    ],
    [
      "pt",
      "Qual é o horário de funcionamento? Quero agendar uma consulta na sexta.",
      "de segunda-feira a sexta-feira",
      "na sexta-feira, 27 de novembro: 9:00",
    ],
  ])(
    "in %s, answers the hours asked beside a booking request, then offers the day's times",
    (language, text, hours, times) => {
      const answer = turn(emptyConversation, text, FIVE)
      expect(answer.text).toContain(hours)
      expect(answer.text).toContain(times)
      expect(answer.text.indexOf(hours)).toBeLessThan(answer.text.indexOf(times))
      expect(answer.state).toMatchObject({ language, awaiting: "time", offered: { date: "2026-11-27" } })
      expect(booked(answer.needs)).toBe(false)
    },
  )

  it("answers the price asked beside a booking request, then asks the name for the slot, and books nothing yet", () => {
    const answer = turn(emptyConversation, "How much is a consultation? Can I book one tomorrow at 2pm?", FIVE)
    expect(answer.text).toMatch(/^A consultation costs \$50\. /)
    expect(answer.text).toContain("Consultation on Thursday, November 26 at 2:00 PM is free. May I have your name")
    expect(answer.state).toMatchObject({ awaiting: "name" })
    expect(booked(answer.needs)).toBe(false)
  })

  it("says a closed day once when the question and the booking are both about it", () => {
    const answer = turn(emptyConversation, "Are you open on Saturday? I'd like to book a consultation", FIVE)
    expect(answer.text.match(/closed/g)).toHaveLength(1)
    expect(answer.text).toContain("Saturday, November 28")
    expect(booked(answer.needs)).toBe(false)
  })

  it("books the day the request names, not the one the question beside it asks about", () => {
    const { replies, state } = converseWith(
      FIVE,
      "Are you open on Saturday? I'd like to book a consultation on Monday at 10",
      "Dana Lee",
      "415 555 0142",
    )
    expect(replies[0]?.text).toMatch(
      /^We're closed on Saturday\. Consultation on Monday, November 30 at 10:00 AM is free\./,
    )
    expect(replies[2]?.needs).toContainEqual(
      expect.objectContaining({ kind: "book", slot: { date: "2026-11-30", time: "10:00", service: "consultation" } }),
    )
    expect(state.booking).toEqual({ date: "2026-11-30", time: "10:00", service: "consultation" })
  })

  it("lists the services beside a booking without asking whether to book one", () => {
    const answer = turn(emptyConversation, "What services do you offer? I'd like to book something for Friday at 10", {
      ...FIVE,
      settings: TWO.settings,
    })
    // "Something" names neither: which one is asked, the day and time kept for the answer.
    expect(answer.text).toBe(
      "We offer consultation and demo call. Which service would you like: consultation or demo call?",
    )
    expect(answer.state.serviceQuestion).toMatchObject({ date: "2026-11-27", time: "10:00" })
    expect(answer.text).not.toContain("Would you like to book one?")
  })

  it.each([
    ["hiya, how much is a consultation? I'd like to book one friday at 10", "A consultation costs $50."],
    ["hola buenas, ¿cuánto cuesta una consulta? quiero reservar el viernes a las 10", "A consultation costs $50."],
  ])("answers a question asked after a greeting beside a booking request: %j", (text, answer) => {
    const reply = turn(emptyConversation, text, FIVE)
    expect(reply.text.startsWith(answer)).toBe(true)
    expect(reply.state).toMatchObject({ awaiting: "name", pending: { date: "2026-11-27", time: "10:00" } })
  })

  it("answers a question beside one asking for a slot by its day and time, whatever its verb", () => {
    const reply = turn(emptyConversation, "How much is a consultation? Can I bring my laptop in friday at 10?", FIVE)
    expect(reply.text).toMatch(/^A consultation costs \$50\. Consultation on Friday, November 27 at 10:00 AM is free\./)
  })

  it.each([
    ["Do you have parking? Also could someone call me tomorrow, 415 555 0142", "call you back"],
    ["¿Tenéis parking? ¿Me podéis llamar? 415 555 0142", "Te llamaremos"],
    ["Is there parking? I'd love a demo, 415 555 0142", "demo"],
  ])("answers a question beside a callback or demo request and notes the request: %j", (text, noted) => {
    const reply = turn(emptyConversation, text)
    expect(reply.text.startsWith("On Mill Lane. ")).toBe(true)
    expect(reply.text).toContain(noted)
    expect(reply.state.callback || reply.state.demo).toBe(true)
    expect(booked(reply.needs)).toBe(false)
  })

  it.each([
    ["are you open on friday? i'd need something at 10", "en"],
    ["¿abrís el viernes? necesitaría algo a las 10", "es"],
    ["habt ihr Freitag offen? ich bräuchte etwas um 10 Uhr", "de"],
    ["vous êtes ouverts vendredi ? il me faudrait quelque chose à 10h", "fr"],
    ["vocês abrem na sexta? precisaria de algo às 10h", "pt"],
  ])(
    "carries a need said in the conditional with a time on as a booking beside the question: %j (%s)",
    (text, language) => {
      const reply = turn(emptyConversation, text, FIVE)
      expect(reply.text).toMatch(/9:00/)
      expect(reply.state).toMatchObject({ language, awaiting: "name", pending: { date: "2026-11-27", time: "10:00" } })
      expect(booked(reply.needs)).toBe(false)
    },
  )

  it("carries a need said in the conditional naming a service on as a booking", () => {
    const salon: EngineContext = { ...FIVE, settings: { ...FIVE.settings, services: ["haircut", "colour"] } }
    expect(turn(emptyConversation, "I'd need a haircut on friday", salon).state).toMatchObject({
      offered: { date: "2026-11-27", service: "haircut" },
    })
  })

  it("answers a need in the conditional that asks to know, or that names a service in a question without a day", () => {
    const salon: EngineContext = { ...FIVE, settings: { ...FIVE.settings, services: ["haircut"] } }
    for (const text of ["I'd need to know the price of a haircut", "I'd need a haircut, how much is that?"]) {
      const reply = turn(emptyConversation, text, salon)
      expect(reply.state.pending ?? reply.state.offered).toBeUndefined()
    }
  })

  it("leaves a booking request asked as one question as it was: no answer put before it", () => {
    const answer = turn(emptyConversation, "Can I book a consultation on Friday at 10?", FIVE)
    expect(answer.text).toMatch(/^Consultation on Friday, November 27 at 10:00 AM is free\./)
  })
})

describe("a request for no more messages, in a sentence", () => {
  const REQUESTS: ReadonlyArray<[string, string, string]> = [
    ["please stop messaging me", "en", "STOP"],
    ["unsubscribe me", "en", "STOP"],
    ["no more messages please", "en", "STOP"],
    ["Can you stop texting me?", "en", "STOP"],
    ["bitte keine Nachrichten mehr", "de", "ABMELDEN"],
    ["Hören Sie bitte auf, mir zu schreiben", "de", "ABMELDEN"],
    ["no me envíen más mensajes", "es", "BAJA"],
    ["por favor, dejen de escribirme", "es", "BAJA"],
    ["arrêtez de m'envoyer des messages", "fr", "ARRET"],
    ["Je ne veux plus recevoir vos messages", "fr", "ARRET"],
    ["parem de me mandar mensagens", "pt", "PARAR"],
    ["não quero receber mais mensagens, obrigado", "pt", "PARAR"],
  ]

  it.each(REQUESTS)("on a phone channel, %j is told the stop word of its language (%s: %s)", (text, language, word) => {
    const answer = turn(emptyConversation, text, CHANNEL)
    expect(answer.state.language).toBe(language)
    expect(answer.text).toMatch(new RegExp(`\\b${word}\\b`))
    expect(answer.text).toMatch(/\bSTOP\b/)
    expect(answer.text).not.toBe(turn(emptyConversation, "blah", CHANNEL).text)
    expect(answer.needs).toEqual([])
  })

  it.each(REQUESTS)("on the widget, %j is told they will not be contacted unless they ask (%s)", (text, language) => {
    const answer = turn(emptyConversation, text, FIVE)
    expect(answer.state.language).toBe(language)
    expect(answer.text).not.toMatch(/\bSTOP\b|BAJA|ABMELDEN|ARRET|PARAR/)
    expect(answer.text).toBe(CATALOGS[language as Language].notContacted())
  })

  it("changes no request on the lead: a callback asked before stays asked", () => {
    const { replies, state } = converse("Please call me back, I'm Dana, 415 555 0142", "actually, stop messaging me")
    expect(replies[1]?.text).toBe(CATALOGS.en.notContacted())
    expect(state.callback).toBe(true)
    expect(leadOfConversation(state, "chat")?.type).toBe("CALLBACK_REQUESTED")
  })

  it("is not read into messages that only share a word: stop by, a booking cancelled, 'no' to an offer", () => {
    for (const text of [
      "Can I stop by tomorrow?",
      "Please cancel my booking",
      "no thanks",
      "I got no messages from you",
    ]) {
      expect(turn(emptyConversation, text, CHANNEL).text, text).not.toMatch(/\bSTOP\b/)
    }
  })
})

describe("a service named with another spelling", () => {
  const withServices = (services: ReadonlyArray<string>): EngineContext => ({
    ...CONTEXT,
    settings: { ...CONTEXT.settings, services },
  })
  const serviceOf = (text: string, services: ReadonlyArray<string>) =>
    readMessage(text, emptyConversation, withServices(services)).service

  it("reads a distinctive word one edit away as the service (both words of five letters or more)", () => {
    expect(serviceOf("I need a color appointment on Friday at 4pm", ["haircut", "colour"])).toBe("colour")
    expect(serviceOf("una cita de color el viernes", ["haircut", "colour"])).toBe("colour")
    expect(serviceOf("book me at the garden center", ["garden centre visit", "delivery"])).toBe("garden centre visit")
    expect(serviceOf("a manicur tomorrow", ["manicure", "pedicure"])).toBe("manicure")
    expect(serviceOf("a colour appointment", ["haircut", "colour"])).toBe("colour")
  })

  it("never reads a short word, or a word another service's name would take too, as a service", () => {
    // "cuts" has four letters; "cure" is no word of five.
    expect(serviceOf("two cuts please", ["haircut", "colour"])).toBeUndefined()
    // "mossage" is one edit from "massage" and from "message"; "color" from "colour" and "colors".
    expect(serviceOf("a mossage please", ["massage", "message therapy"])).toBeUndefined()
    expect(serviceOf("a color appointment", ["colour", "colors class"])).toBeUndefined()
    expect(serviceOf("a medicure please", ["manicure", "pedicure"])).toBe("pedicure")
  })

  it("reads a verb of a service's noun as that service, in the message's language", () => {
    expect(serviceOf("can I get my cat vaccinated on Friday?", ["checkup", "vaccination"])).toBe("vaccination")
    expect(serviceOf("¿puedo vacunar a mi gato el viernes?", ["Consulta", "Vacunación"])).toBe("Vacunación")
    expect(serviceOf("Kann ich am Freitag den Teppich reinigen lassen?", ["Beratung", "Reinigung"])).toBe("Reinigung")
    expect(serviceOf("je voudrais faire réparer mon vélo vendredi", ["réparation", "entretien"])).toBe("réparation")
    // A stem two services' names share points at neither.
    expect(serviceOf("can I get my cat vaccinated?", ["cat vaccination", "dog vaccination"])).toBeUndefined()
  })
})

describe("which service, when two or more are offered and none is named", () => {
  const SALON: EngineContext = {
    ...CONTEXT,
    profile: { ...CONTEXT.profile, languages: ["en", "es", "fr"] },
    settings: { ...CONTEXT.settings, services: ["haircut", "colour"] },
  }
  const ONE: EngineContext = { ...SALON, settings: { ...SALON.settings, services: ["haircut"] } }
  const booked = (needs: ReadonlyArray<{ readonly kind: string }>) => needs.some((need) => need.kind === "book")

  it("asks which service, keeping the day and time, and goes on as if it had been named", () => {
    const { replies, state } = converseWith(
      SALON,
      "I need an appointment on Friday at 2pm",
      "colour",
      "Nora, 415 555 0181",
    )
    expect(replies[0]?.text).toBe("Which service would you like: haircut or colour?")
    expect(replies[0]?.state).toMatchObject({
      awaiting: "service",
      serviceQuestion: { date: "2026-11-27", time: "14:00" },
    })
    expect(replies[1]?.text).toMatch(/^Colour on Friday, November 27 at 2:00 PM is free\./)
    expect(state.booking).toEqual({ date: "2026-11-27", time: "14:00", service: "colour" })
  })

  it("keeps the part of the day asked for: the times offered are that part's", () => {
    const { replies } = converseWith(SALON, "can I come in on Friday afternoon?", "a haircut please")
    expect(replies[0]?.state.awaiting).toBe("service")
    expect(replies[1]?.text).toContain("haircut")
    expect(replies[1]?.text).not.toContain("9:00")
    expect(replies[1]?.state.offered).toMatchObject({ date: "2026-11-27", service: "haircut", partOfDay: "afternoon" })
  })

  it("asks in the visitor's language, the services as a choice", () => {
    expect(turn(emptyConversation, "necesito una cita de corte o algo el viernes por la tarde", SALON).text).toMatch(
      /servicio/,
    )
    expect(turn(emptyConversation, "Je voudrais un rendez-vous pour une couleur vendredi à 14h", SALON).text).toBe(
      "Quelle prestation souhaitez-vous : haircut ou colour ?",
    )
  })

  it("goes on with the booking when the service is said again, or changed, while the name is asked", () => {
    const again = converseWith(
      SALON,
      "I need a colour appointment on Friday at 2pm",
      "colour please",
      "Nora, 415 555 0181",
    )
    expect(again.replies[0]?.state.awaiting).toBe("name")
    expect(again.replies[1]?.text).toMatch(/phone number/)
    expect(again.state.booking).toEqual({ date: "2026-11-27", time: "14:00", service: "colour" })
    const changed = converseWith(
      SALON,
      "I need a colour appointment on Friday at 2pm",
      "a haircut actually",
      "Nora, 415 555 0181",
    )
    expect(changed.replies[1]?.text).toMatch(/Haircut on Friday, November 27 at 2:00 PM/)
    expect(changed.state.booking).toEqual({ date: "2026-11-27", time: "14:00", service: "haircut" })
  })

  it("never asks when the business offers one service", () => {
    const answer = turn(emptyConversation, "I need an appointment on Friday at 2pm", ONE)
    expect(answer.text).toMatch(/^Haircut on Friday/)
  })

  it("asks again once when the answer names none, then proposes the first (booked only on a yes)", () => {
    const { replies } = converseWith(
      SALON,
      "I need an appointment on Friday at 2pm",
      "Nora 415 555 0181",
      "sure",
      "yes",
    )
    expect(replies.map((r) => r.state.awaiting)).toEqual(["service", "service", "confirm", "done"])
    expect(replies[2]?.text).toMatch(/haircut/i)
    expect(booked(replies[2]?.needs ?? [])).toBe(false)
    expect(replies[3]?.state.booking).toEqual({ date: "2026-11-27", time: "14:00", service: "haircut" })
  })

  it("lets a visitor who changes the topic go: the question is answered, nothing booked", () => {
    const { replies } = converseWith(SALON, "I need an appointment on Friday at 2pm", "where can I park?")
    expect(replies[1]?.text).toContain("Mill Lane")
    expect(replies[1]?.state.awaiting).not.toBe("service")
    expect(booked(replies[1]?.needs ?? [])).toBe(false)
  })

  it("books the service named earlier in the conversation without asking", () => {
    const { replies } = converseWith(SALON, "do you do colour?", "ok, Friday at 2pm then")
    expect(replies[1]?.text).toMatch(/^Colour on Friday/)
  })
})

describe("a greeting with a question mark", () => {
  it.each([
    ["Hello again?", "en"],
    ["anyone there?", "en"],
    ["hola?", "es"],
    ["bonjour ?", "fr"],
    ["Hallo, ist da jemand?", "de"],
    ["olá, tem alguém aí?", "pt"],
  ])("answers %j as a hello, never with 'I don't know' and a callback offer", (text, language) => {
    const widget = turn(emptyConversation, text, FIVE)
    expect(widget.text).toBe(CATALOGS[language as Language].helloBack())
    expect(widget.state.awaiting).not.toBe("callbackOffer")
    const channel = turn(emptyConversation, text, CHANNEL)
    expect(channel.state.awaiting).not.toBe("callbackOffer")
    expect(channel.text).not.toBe(CATALOGS[language as Language].menu("Acme"))
  })
})

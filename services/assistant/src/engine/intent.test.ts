import { describe, expect, it } from "vitest"
import { detectIntents } from "./intent.ts"

describe("detectIntents", () => {
  it.each([
    "please call me back",
    "can you call me?",
    "Call me tomorrow",
    "I'd like a callback",
    "give me a call at 555 123 4567",
    "ring me when you can",
    "could someone phone me",
    "me llaman al 612 345 678?",
  ])("hears a callback request in %j", (text) => {
    expect(detectIntents(text).callback).toBe(true)
  })

  it.each(["don't call me, email instead", "please do not call", "I called you yesterday", "what's the price?"])(
    "hears no callback request in %j",
    (text) => {
      expect(detectIntents(text).callback).toBe(false)
    },
  )

  it.each(["can I get a demo?", "I'd like a demonstration", "book a product tour", "show me a walkthrough"])(
    "hears a demo request in %j",
    (text) => {
      expect(detectIntents(text).demo).toBe(true)
    },
  )

  it.each([
    "I want to book an appointment",
    "do you have free slots on Friday?",
    "can I schedule a visit",
    "what's your availability",
  ])("hears a booking request in %j", (text) => {
    expect(detectIntents(text).booking).toBe(true)
  })

  it.each(["what are your prices?", "thanks, bye", "democracy is great"])("hears no demo or booking in %j", (text) => {
    const intents = detectIntents(text)
    expect(intents.demo || intents.booking).toBe(false)
  })

  it.each([
    ["hiya how much is it", "en"],
    ["hola buenas, cuanto cuesta", "es"],
    ["Servus, sag mal wie viel kostet das", "de"],
    ["bonjour alors combien ça coûte", "fr"],
    ["oi, olha, quanto custa", "pt"],
  ] as const)("hears a question after a greeting or a filler in %j (%s)", (text, language) => {
    expect(detectIntents(text, language).question).toBe(true)
  })

  it.each([
    ["bräuchte krallen schneiden um 14 uhr", "de", true],
    ["necesitaría una limpieza", "es", true],
    ["il me faudrait une vidange", "fr", true],
    ["precisaria de uma manicure", "pt", true],
    ["I'd need a full service", "en", true],
    ["I'd need to know the price", "en", false],
    ["necesitaría saber el precio", "es", false],
  ] as const)("hears a need in the conditional in %j (%s): %s", (text, language, need) => {
    expect(detectIntents(text, language).wouldNeed).toBe(need)
  })
})

describe("a message that only greets", () => {
  it.each([
    "Hello again?",
    "hello?",
    "hi again?",
    "hola?",
    "¿hola?",
    "anyone there?",
    "is anybody there??",
    "bonjour ?",
    "Hallo, ist da jemand?",
    "olá, tem alguém aí?",
    "hi there 👋",
    "¿hay alguien?",
    "re bonjour",
    "helloooo?",
    "Grüezi mitenand",
    "Hoi zäme!",
    "Servus",
  ])("reads %j as only a greeting", (text) => {
    expect(detectIntents(text).greetingOnly).toBe(true)
  })

  it.each([
    "hello, are you open on Saturday?",
    "hi, how much is a consultation?",
    "hello? I need a callback",
    "Hi, I'm Dana",
    "is there parking?",
    "hola, ¿tenéis cita mañana?",
    "what?",
  ])("reads %j as more than a greeting", (text) => {
    expect(detectIntents(text).greetingOnly).toBe(false)
  })
})

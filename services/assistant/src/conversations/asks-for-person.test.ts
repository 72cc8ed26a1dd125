import { describe, expect, it } from "vitest"
import { asksForPerson, handedOffReply } from "./asks-for-person.ts"

describe("asksForPerson", () => {
  it.each([
    "Can I talk to a human?",
    "I want to speak with someone from your team",
    "I need a real person",
    "agent",
    "human please",
    "Quiero hablar con una persona",
    "¿Puedo hablar con un agente?",
    "Ich möchte mit einem Menschen sprechen",
    "Kann ich mit einem Mitarbeiter reden?",
    "Je voudrais parler à un conseiller",
    "Est-ce que je peux parler à quelqu'un ?",
    "Quero falar com um atendente",
    "Posso falar com uma pessoa?",
  ])("hears a request for a person in %j", (text) => {
    expect(asksForPerson(text)).toBe(true)
  })

  it.each([
    "Can someone call me back at 415 555 0100?",
    "Book a table for one person tomorrow at 7",
    "What are your opening hours?",
    "¿Cuánto cuesta una consulta?",
    "Wann haben Sie geöffnet?",
    "Je voudrais réserver demain à 15h",
    "Vocês abrem no sábado?",
    "I'm Dana, I'd like a demo",
  ])("does not take %j for one", (text) => {
    expect(asksForPerson(text)).toBe(false)
  })

  it("answers in the conversation's language, English when it has none", () => {
    expect(handedOffReply("de")).toContain("Mensch")
    expect(handedOffReply(undefined)).toContain("a person will answer you")
  })
})

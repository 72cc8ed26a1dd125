import { describe, expect, it } from "vitest"
import { findAnswer, findFaq } from "./knowledge.ts"

const FAQS = [
  { question: "Do you have parking?", answer: "Yes, free parking behind the building on Mill Lane." },
  { question: "How much does it cost?", answer: "Plans start at $29 per month." },
  { question: "Where is your office?", answer: "12 Harbor Street, Portland." },
  { question: "Can I cancel my subscription?", answer: "No long-term contract: cancel from Settings." },
  { question: "Is my data safe?", answer: "Encrypted and stored in the EU; GDPR compliant." },
]

describe("findFaq", () => {
  it.each([
    ["is there somewhere to park?", "Mill Lane"],
    ["Is parking easy round there, or should I take the bus?", "Mill Lane"],
    ["What's the price?", "$29"],
    ["how much is it per month?", "$29"],
    ["what's your address?", "Harbor Street"],
    ["Can I quit whenever I want?", "Settings"],
    ["is customer data kept safe and private?", "GDPR"],
    ["¿cuánto cuesta?", "$29"],
    ["Wo kann ich parken?", "Mill Lane"],
  ])("answers %j with the FAQ that says %j", (question, expected) => {
    expect(findFaq(FAQS, question, "en")?.answer).toContain(expected)
  })

  it.each(["Do you sell printers?", "Can you fix my laptop's screen?", "hello", "?"])(
    "answers nothing for %j",
    (question) => {
      expect(findFaq(FAQS, question, "en")).toBeUndefined()
    },
  )

  it("has nothing to say without FAQs", () => {
    expect(findFaq([], "do you have parking?", "en")).toBeUndefined()
  })
})

describe("findAnswer", () => {
  const faqs = FAQS.filter((faq) => !faq.question.startsWith("Where"))
  const about =
    "Atelier Vélo is a bike shop in Lyon. You'll find us at 18 rue de la Charité, near Bellecour. We sell electric bikes and repair all brands."
  it.each([
    ["where exactly are you?", "18 rue de la Charité"],
    ["vous êtes où exactement ?", "18 rue de la Charité"],
    ["wo seid ihr genau?", "18 rue de la Charité"],
    ["do you sell electric bikes?", "We sell electric bikes"],
    ["is there somewhere to park?", "Mill Lane"],
  ])("answers %j from the FAQ or the sentence of `about` that says %j", (question, expected) => {
    expect(findAnswer(faqs, about, question, "en")?.answer).toContain(expected)
  })

  it("prefers an FAQ written for the question to a sentence of `about`", () => {
    expect(findAnswer(FAQS, about, "where is your office?", "en")?.answer).toContain("Harbor Street")
  })

  it("answers nothing when neither the FAQ nor `about` speaks of it", () => {
    expect(findAnswer(faqs, about, "Can you fix my laptop's screen?", "en")).toBeUndefined()
  })
})

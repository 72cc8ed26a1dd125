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

describe("plurals, other forms and the verbs of a question (take, accept) still find the FAQ", () => {
  const faqs = [{ question: "Do you accept insurance?", answer: "We accept Delta Dental, Aetna and Cigna." }]
  const about = "Bright Smile is a dental clinic in Austin. We do check-ups, cleaning and whitening."
  it.each([
    ["which insurances do you take?", "en"],
    ["¿qué seguros aceptan?", "es"],
    ["welche Versicherungen nehmen Sie?", "de"],
    ["vous prenez quelles assurances ?", "fr"],
    ["vocês aceitam quais convênios?", "pt"],
  ] as const)("%j (profile in English, and in %s)", (question, language) => {
    expect(findAnswer(faqs, about, question, "en")?.answer).toContain("Delta Dental")
    expect(findAnswer(faqs, about, question, language)?.answer).toContain("Delta Dental")
  })

  it("a verb alone names no subject", () => {
    expect(findAnswer(faqs, undefined, "how long does it take?", "en")).toBeUndefined()
  })
})

describe("a question asking for a kind of fact the entry does not state", () => {
  const about = "Bright Smile is a dental clinic in Austin. We do check-ups, cleaning and whitening."
  it.each([["Do you do teeth whitening? I would like to know the price"], ["How much is a cleaning?"]])(
    "%j: the sentence answers what it can, the price is missing",
    (question) => {
      const answer = findAnswer([], about, question, "en")
      expect(answer?.answer).toBe("We do check-ups, cleaning and whitening.")
      expect(answer?.missing).toEqual(["price"])
    },
  )

  it("in Spanish too", () => {
    const sobre = "Sonrisa es una clínica dental. Hacemos revisiones, limpiezas y blanqueamientos."
    expect(findAnswer([], sobre, "¿cuánto cuesta una limpieza?", "es")).toMatchObject({
      answer: "Hacemos revisiones, limpiezas y blanqueamientos.",
      missing: ["price"],
    })
  })

  it("a question that asks no such fact is answered whole", () => {
    expect(findAnswer([], about, "do you do whitening?", "en")?.missing).toEqual([])
  })

  it("an entry that states the price is preferred and complete", () => {
    const faqs = [{ question: "What does whitening cost?", answer: "Whitening is $250." }]
    expect(findAnswer(faqs, about, "How much is whitening?", "en")).toMatchObject({
      answer: "Whitening is $250.",
      missing: [],
    })
  })
})

describe("a question about something the business never wrote about", () => {
  const faqs = [
    {
      question: "How long does a repair take?",
      answer: "Most repairs are done the same day; electric bikes take 2 to 3 days.",
    },
    {
      question: "Do you lend a bike during repairs?",
      answer: "Yes, a courtesy bike for repairs of more than two days.",
    },
    { question: "How much is a service?", answer: "A full service is $69, parts extra." },
  ]
  const about =
    "Spoke & Chain is a bike shop and repair workshop in Denver. We sell electric bikes and city bikes, and we repair all brands."
  it("is not answered by the entry that only shares the business's everyday words", () => {
    expect(findAnswer(faqs, about, "do you also fix electric skateboards?", "en")).toBeUndefined()
    expect(findAnswer(faqs, about, "vous réparez aussi les monoroues électriques ?", "fr")).toBeUndefined()
  })

  it("is answered by the entry that covers most of what is asked, not the best-ranked FAQ", () => {
    expect(findAnswer(faqs, about, "do you sell bikes too, or only repair them?", "en")?.answer).toContain(
      "We sell electric bikes",
    )
  })

  it("still finds the FAQ a word of its own names", () => {
    expect(findAnswer(faqs, about, "can I borrow a bike while mine is in the workshop?", "en")?.answer).toContain(
      "courtesy bike",
    )
  })
})

describe("synonyms across the five languages", () => {
  const faqs = [
    { question: "Can pregnant women do pilates?", answer: "Yes, adapted classes from the second trimester." },
  ]
  it.each([
    ["I'm expecting, is that a problem for the classes?", "en"],
    ["estoy embarazada, ¿puedo ir a clase?", "es"],
    ["ich bin schwanger, geht das?", "de"],
    ["je suis enceinte, c'est possible ?", "fr"],
    ["estou grávida, posso participar?", "pt"],
  ] as const)("%j finds the pregnancy FAQ", (question, language) => {
    expect(findAnswer(faqs, undefined, question, language)?.answer).toContain("second trimester")
  })
})

describe("phrases whose words mean another thing alone, and words of a compound", () => {
  const faqs = [
    { question: "What are your prices?", answer: "Gel manicure $40, gel polish $30." },
    { question: "How long does gel polish last?", answer: "Gel polish lasts two to three weeks." },
    { question: "Do you take off old gel?", answer: "Taking off gel is free with a new set, else $15." },
  ]
  it.each([
    ["combien de temps tient le gel ?", "fr", "two to three weeks"],
    ["¿cuánto tiempo dura el gel?", "es", "two to three weeks"],
    ["wie lange hält Gel?", "de", "two to three weeks"],
    ["quanto tempo dura o gel?", "pt", "two to three weeks"],
    ["how long will my gel polish stay nice?", "en", "two to three weeks"],
    ["is there a charge to remove old gel?", "en", "$15"],
  ] as const)("%j (%s) is answered by the entry that says %j", (question, language, expected) => {
    expect(findAnswer(faqs, undefined, question, language)?.answer).toContain(expected)
  })

  it("finds a hyphenated word by its part", () => {
    const semi = [{ question: "Does semi-permanent polish chip?", answer: "It holds three weeks without chipping." }]
    expect(findAnswer(semi, undefined, "does the semi chip quickly?", "en")?.answer).toContain("three weeks")
  })

  it("a verb of selling names no subject: 'do you sell printers?' is not about point-of-sale software", () => {
    const about = "Brightside makes scheduling and point-of-sale software for small shops."
    expect(findAnswer([], about, "Do you sell printers?", "en")).toBeUndefined()
  })
})

describe("where the business is", () => {
  const about =
    "Praxis Linde liegt in der Lindener Straße 28, 10437 Berlin, im Hinterhof, 1. Stock. Mit der U2 bis Eberswalder Straße, dann 5 Minuten zu Fuß."
  it("is answered by the address, not the way there from the station", () => {
    expect(findAnswer([], about, "wo seid ihr genau?", "de")?.answer).toBe(
      "Praxis Linde liegt in der Lindener Straße 28, 10437 Berlin, im Hinterhof, 1. Stock.",
    )
  })

  it("is asked as 'c'est où exactement ?' too", () => {
    const lyon = "Atelier Lumière est une école. Nous sommes au 12 rue de la Charité, 69002 Lyon."
    expect(findAnswer([], lyon, "c'est où exactement ?", "fr")?.answer).toContain("12 rue de la Charité")
  })

  it("takes no word of the business's name for what a question names ('wedding hair' at a hair studio)", () => {
    const about = "Bella Hair Studio is a hair salon at 221 Baker Street. We are open late on Thursdays."
    expect(findAnswer([], about, "do you do wedding hair?", "en", "Bella Hair Studio")).toBeUndefined()
    expect(findAnswer([], about, "¿hacéis peinados de novia para el pelo?", "es", "Bella Hair Studio")).toBeUndefined()
    expect(findAnswer([], about, "where is the salon?", "en", "Bella Hair Studio")?.answer).toContain("Baker Street")
  })
})

describe("where the business is, in German", () => {
  const about =
    "Die Physiotherapie Aare liegt an der Bahnhofstrasse 5 in Bern, neben dem Hauptbahnhof. Wir behandeln Rücken und Knie."
  it.each(["wo sind Sie?", "wo genau sind Sie?", "wo seid ihr eigentlich?"])(
    "answers %j with the address",
    (question) => {
      expect(findAnswer([], about, question, "de", "Physiotherapie Aare")?.answer).toContain("Bahnhofstrasse 5")
    },
  )
})

import { describe, expect, it } from "vitest"
import { languageOf } from "./language.ts"
import type { Language } from "./text.ts"

describe("languageOf", () => {
  it.each([
    ["hola, quiero una cita", ["en", "es"], "es"],
    ["Hola", ["en", "es"], "es"],
    ["Hello!", ["en", "es"], "en"],
    ["hi im sarah, can you call me back please?", ["de", "en"], "en"],
    ["Bonjour", ["en", "fr"], "fr"],
    ["rappelez-moi svp 07 11 22 33 44", ["en", "fr"], "fr"],
    ["Olá", ["en", "pt"], "pt"],
    ["me liga por favor 11 91234-5678", ["pt", "en"], "pt"],
    ["Hallo, ich möchte einen Termin", ["en", "de"], "de"],
    ["quiero una cita el jueves", ["en"], "en"],
    ["Buenos días", ["en", "es"], "es"],
    ["Bom dia", ["en", "pt"], "pt"],
    // A first message of a day and a part of it: the words for them say the language ("a" and "on"
    // are French words too, and eld's n-grams read this one as French).
    ["a haircut on Monday afternoon", ["fr", "en"], "en"],
    ["a haircut on Monday afternoon", ["en", "fr"], "en"],
    ["corte el lunes por la tarde", ["en", "es"], "es"],
    ["coupe lundi après-midi", ["en", "fr"], "fr"],
    ["Schnitt am Montag Nachmittag", ["en", "de"], "de"],
    ["corte na segunda à tarde", ["en", "pt"], "pt"],
  ] as Array<[string, Array<Language>, Language]>)("answers %j among %j in %s", (text, languages, expected) => {
    expect(languageOf(text, languages, undefined)).toBe(expected)
  })

  it.each(["10:30", "Dana", "ok", "612 345 678"])("keeps the conversation's language on %j", (text) => {
    expect(languageOf(text, ["en", "es"], "es")).toBe("es")
  })

  it("switches to Spanish on a short Spanish question after English turns", () => {
    expect(languageOf("¿Están abiertos ahora?", ["en", "es"], "en")).toBe("es")
  })

  it("switches when a message is clearly in another of the profile's languages", () => {
    expect(languageOf("Sorry, do you speak English? I need an appointment tomorrow", ["es", "en"], "es")).toBe("en")
  })
})

describe("the detector's n-grams", () => {
  it("are eld's small database for the five languages, as installed (else: npm run language-ngrams)", async () => {
    const { eldSubset } = await import("../../scripts/eld-subset.ts")
    const { default: shipped } = await import("./language-ngrams.json", { with: { type: "json" } })
    expect(shipped).toEqual(await eldSubset())
  })
})

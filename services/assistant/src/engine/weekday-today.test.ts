import { describe, expect, it } from "vitest"
import { readWhen } from "./when.ts"

// Saturday 5 December 2026.
const SATURDAY = "2026-12-05"

describe("today's weekday, named alone", () => {
  it.each([
    ["Saturday at 11", "en"],
    ["this Saturday at 11", "en"],
    ["can I come Saturday at 4pm?", "en"],
    ["el sábado a las 11", "es"],
    ["Samstag um 11", "de"],
    ["samedi à 11h", "fr"],
    ["sábado às 11", "pt"],
  ] as const)("%s, said that Saturday at 09:30, is today", (text, language) => {
    const when = readWhen(text, language, SATURDAY, [], "09:30")
    expect(when.date).toBe(SATURDAY)
    expect(when.weekOn).toBeUndefined()
  })

  it.each([
    ["Saturday at 11", "en"],
    ["el sábado a las 11", "es"],
    ["Samstag um 11", "de"],
    ["samedi à 11h", "fr"],
    ["sábado às 11", "pt"],
  ] as const)("%s, said that Saturday at 15:50, is a week on, proposed", (text, language) => {
    const when = readWhen(text, language, SATURDAY, [], "15:50")
    expect(when.date).toBe("2026-12-12")
    expect(when.weekOn).toBe(true)
  })

  it.each([
    ["next Saturday at 11", "en"],
    ["el sábado que viene a las 11", "es"],
    ["el próximo sábado a las 11", "es"],
    ["nächsten Samstag um 11", "de"],
    ["samedi prochain à 11h", "fr"],
    ["no próximo sábado às 11", "pt"],
  ] as const)("%s, said on a Saturday morning, is a week on, as said", (text, language) => {
    const when = readWhen(text, language, SATURDAY, [], "09:30")
    expect(when.date).toBe("2026-12-12")
    expect(when.weekOn).toBeUndefined()
  })

  it("a weekday that is not today's is its next date, whatever the hour", () => {
    expect(readWhen("Sunday at 11", "en", SATURDAY, [], "09:30").date).toBe("2026-12-06")
    expect(readWhen("Friday at 11", "en", SATURDAY, [], "09:30").date).toBe("2026-12-11")
  })

  it("the day alone is today, so its free times are offered", () => {
    expect(readWhen("Saturday?", "en", SATURDAY, [], "15:50").date).toBe(SATURDAY)
  })
})

import { describe, expect, it } from "vitest"
import { readWhen } from "./when.ts"

// Wednesday 25 November 2026, 10:00.
const WEDNESDAY = "2026-11-25"

describe("a day or time taken back in the same message", () => {
  it.each([
    ["Thursday at 2… no wait, Friday at 3", "en", "2026-11-27", "15:00"],
    ["tomorrow at 9, actually Monday at 9", "en", "2026-11-30", "09:00"],
    ["el jueves a las 12, no espera, mejor el viernes a las 12", "es", "2026-11-27", "12:00"],
    ["Donnerstag um 9, nein warte, lieber Freitag um 9", "de", "2026-11-27", "09:00"],
    ["jeudi à 14h, non attendez, plutôt vendredi à 14h", "fr", "2026-11-27", "14:00"],
    ["quinta às 9. Não, espera, sexta às 9", "pt", "2026-11-27", "09:00"],
  ] as const)("reads %j as what follows the taking-back", (text, language, date, time) => {
    const when = readWhen(text, language, WEDNESDAY, [], "10:00")
    expect(when.date).toBe(date)
    expect(when.time).toBe(time)
    expect(when.conflict).toBeUndefined()
  })

  it.each([
    ["Thursday at 2, no wait, Friday", "en", "2026-11-27", "14:00"],
    ["jueves a las 12, o sea el viernes", "es", "2026-11-27", "12:00"],
    ["demain à 11h, non attendez, plutôt lundi", "fr", "2026-11-30", "11:00"],
  ] as const)("keeps the hour written before when only the day is taken back (%j)", (text, language, date, time) => {
    const when = readWhen(text, language, WEDNESDAY, [], "10:00")
    expect(when.date).toBe(date)
    expect(when.time).toBe(time)
  })

  it("reads a message whose 'mejor' takes nothing back as written", () => {
    expect(readWhen("¿cuál es el mejor horario el lunes a las 10?", "es", WEDNESDAY, [], "10:00")).toMatchObject({
      date: "2026-11-30",
      time: "10:00",
    })
  })
})

import { describe, expect, it } from "vitest"
import { followDelay } from "./follow.ts"

describe("how often the widget reads the conversation again", () => {
  it("reads every 3 s while the conversation is lively, then slows down", () => {
    expect(followDelay(0)).toBe(3_000)
    expect(followDelay(5 * 60_000 - 1)).toBe(3_000)
    expect(followDelay(5 * 60_000)).toBe(10_000)
    expect(followDelay(30 * 60_000)).toBe(30_000)
  })
})

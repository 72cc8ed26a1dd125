import { describe, expect, it } from "vitest"
import { parseRanges } from "./parse-ranges.ts"

describe("opening hours as typed", () => {
  it("reads ranges with either dash, several separated by commas; empty is closed", () => {
    expect(parseRanges("09:00–12:00, 13:00-17:00")).toEqual([
      ["09:00", "12:00"],
      ["13:00", "17:00"],
    ])
    expect(parseRanges("  ")).toEqual([])
  })

  it("says what is wrong with a range it cannot read", () => {
    expect(parseRanges("9 to 5")).toBe("“9 to 5” is not a range like 09:00–17:00 (up to 23:59).")
    expect(parseRanges("17:00-09:00")).toBe("In “17:00-09:00” the opening comes after the closing.")
  })
})

import { describe, expect, it } from "vitest"
import { leadTypeOf, strongerLeadType } from "./lead-type.ts"

describe("lead types", () => {
  it.each([
    [{ booked: true, demo: true, callback: true }, "BOOKING"],
    [{ booked: false, demo: true, callback: true }, "DEMO_REQUESTED"],
    [{ booked: false, demo: false, callback: true }, "CALLBACK_REQUESTED"],
    [{ booked: false, demo: false, callback: false }, "GENERAL_INQUIRY"],
  ] as const)("resolves %j to %s", (facts, type) => {
    expect(leadTypeOf(facts)).toBe(type)
  })

  it("keeps the stronger of a stored and a new type, so a returning lead is never downgraded", () => {
    expect(strongerLeadType("BOOKING", "GENERAL_INQUIRY")).toBe("BOOKING")
    expect(strongerLeadType("GENERAL_INQUIRY", "CALLBACK_REQUESTED")).toBe("CALLBACK_REQUESTED")
    expect(strongerLeadType("CALLBACK_REQUESTED", "DEMO_REQUESTED")).toBe("DEMO_REQUESTED")
  })
})

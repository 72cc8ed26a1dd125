import { describe, expect, it } from "vitest"
import { inPlan } from "./plan.ts"

describe("a number some country's plan has", () => {
  it("takes valid numbers and the ranges kept for fiction", () => {
    for (const digits of ["14155550100", "447700900456", "447911123456", "491712345678", "33612345678"]) {
      expect(inPlan(digits), digits).toBe(true)
    }
  })

  it("turns down possible lengths the plan has no numbers for, and unknown calling codes", () => {
    // (415) 555-0110 read as a GB national number; +1 and an area code starting with 1 or 0.
    for (const digits of ["444155550110", "11234567890", "10155550100", "99912345678", "1"]) {
      expect(inPlan(digits), digits).toBe(false)
    }
  })
})

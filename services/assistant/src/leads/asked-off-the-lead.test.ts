import { describe, expect, it } from "vitest"
import type { LeadInput } from "../engine/lead-capture.ts"
import { askedOffTheLead } from "./asked-off-the-lead.ts"
import type { RecordedLead } from "./record-lead.ts"

const input = (type: LeadInput["type"], phone = "14155550111"): LeadInput => ({
  phone,
  name: "",
  type,
  booking: null,
  source: "chat",
})
const recorded = (outcome: RecordedLead["outcome"], type: string): RecordedLead => ({ id: "lead_1", type, outcome })

describe("a request the lead does not say", () => {
  it("is a stranger's callback, demo or booking on a lead another conversation made", () => {
    for (const type of ["CALLBACK_REQUESTED", "DEMO_REQUESTED", "BOOKING"] as const) {
      expect(askedOffTheLead(undefined, input(type), recorded("notOwn", "CALLBACK_REQUESTED"))).toBe(true)
    }
  })

  it("is a callback asked of a lead that already says BOOKING", () => {
    expect(askedOffTheLead(undefined, input("CALLBACK_REQUESTED"), recorded("unchanged", "BOOKING"))).toBe(true)
  })

  it("is not a general question, on anyone's lead", () => {
    expect(askedOffTheLead(undefined, input("GENERAL_INQUIRY"), recorded("notOwn", "BOOKING"))).toBe(false)
  })

  it("is not a request the lead now says", () => {
    expect(askedOffTheLead(undefined, input("DEMO_REQUESTED"), recorded("created", "DEMO_REQUESTED"))).toBe(false)
    expect(askedOffTheLead(undefined, input("DEMO_REQUESTED"), recorded("updated", "DEMO_REQUESTED"))).toBe(false)
  })

  it("counts once: the same request again in the next turn is not new", () => {
    const asked = input("CALLBACK_REQUESTED")
    expect(askedOffTheLead(asked, asked, recorded("notOwn", "BOOKING"))).toBe(false)
    expect(askedOffTheLead(input("GENERAL_INQUIRY"), asked, recorded("notOwn", "BOOKING"))).toBe(true)
    expect(askedOffTheLead(input("CALLBACK_REQUESTED", "14155550199"), asked, recorded("notOwn", "BOOKING"))).toBe(true)
  })
})

import { describe, expect, it } from "vitest"
import { leadOfConversation } from "./lead-capture.ts"
import { emptyConversation } from "./state.ts"

describe("lead capture", () => {
  it("makes a widget visitor a lead as soon as they give a phone number", () => {
    expect(leadOfConversation({ ...emptyConversation, phone: "4155550100" }, "chat")).toEqual({
      phone: "4155550100",
      name: "",
      type: "GENERAL_INQUIRY",
      booking: null,
      source: "chat",
    })
  })

  it("records no widget lead without a phone number, whatever else was said", () => {
    expect(leadOfConversation({ ...emptyConversation, name: "Dana", demo: true }, "chat")).toBeUndefined()
  })

  it("does not make a channel customer a lead for a bare message", () => {
    expect(leadOfConversation(emptyConversation, "cloud", "4915112345678")).toBeUndefined()
  })

  it.each([
    [{ name: "Dana" }, "GENERAL_INQUIRY"],
    [{ callback: true }, "CALLBACK_REQUESTED"],
    [{ demo: true }, "DEMO_REQUESTED"],
    [{ bookingAsked: true }, "GENERAL_INQUIRY"],
    [{ booking: { date: "2026-11-24", time: "10:00", service: "consultation" } }, "BOOKING"],
  ])("makes a channel customer a lead with their own number once there is %j", (extra, type) => {
    const lead = leadOfConversation({ ...emptyConversation, phone: "1111111", ...extra }, "bridge", "4915112345678")
    expect(lead).toMatchObject({ phone: "4915112345678", type, source: "bridge" })
  })

  it("counts the channel's sender as the conversation's own, never a number typed into the widget by itself", () => {
    // docs/contract.md §8: only the conversation that made a lead changes it; a typed number may be anyone's.
    const asked = { ...emptyConversation, phone: "14155550111", name: "Eve", demo: true }
    expect(leadOfConversation(asked, "chat")?.own).toBeUndefined()
    expect(leadOfConversation(asked, "cloud", "14155550111")?.own).toBe(true)
  })
})

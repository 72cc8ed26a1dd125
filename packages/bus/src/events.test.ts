import { decodeBusValue, EventRecord, Topics } from "@parley/contracts"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { eventRecord } from "./events.ts"

describe("eventRecord", () => {
  it("puts an event on its domain's topic, keyed by organization, with an evt_ id and an ISO ms timestamp", async () => {
    const record = eventRecord(
      "lead.created",
      "org_1234567890123456789012",
      { phone: "14155550100", name: "Dana", type: "GENERAL_INQUIRY", booking: null },
      new Date("2026-11-22T09:30:00Z"),
    )
    expect(record.topic).toBe(Topics.eventsLead)
    expect(record.key).toBe("org_1234567890123456789012")
    const decoded = await Effect.runPromise(decodeBusValue(EventRecord)(record.value))
    expect(decoded).toMatchObject({ event: "lead.created", timestamp: "2026-11-22T09:30:00.000Z" })
    expect(decoded.eventId).toMatch(/^evt_[0-9A-Za-z]{22}$/)
  })

  it("refuses data that does not match the event's schema instead of publishing it", () => {
    expect(() =>
      eventRecord("message.status", "org_1234567890123456789012", { messageId: "wamid.1" } as never, new Date()),
    ).toThrow()
  })
})

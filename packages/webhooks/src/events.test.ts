import { Effect, Result, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { EventCatalogue } from "./catalogue.ts"
import { WebhookEnvelope } from "./envelope.ts"
import { EventDataSchemas, EventNames } from "./events.ts"
import { issuesOf } from "./issues.ts"
import { sampleEnvelope, sampleEventData } from "./testing.ts"

const decode = Schema.decodeUnknownSync(WebhookEnvelope)
const issuesFor = (input: unknown) => {
  const result = Effect.runSync(Effect.result(Schema.decodeUnknownEffect(WebhookEnvelope)(input, { errors: "all" })))
  if (Result.isSuccess(result)) throw new Error("expected a decoding failure")
  return issuesOf(result.failure.issue)
}

describe("events", () => {
  it.each(EventNames)(
    "a %s envelope decodes to itself and encodes back to exactly event, timestamp and data",
    (event) => {
      const envelope = sampleEnvelope(event)
      const decoded = decode(JSON.parse(JSON.stringify(envelope)))
      expect(decoded).toEqual(envelope)
      const encoded = Schema.encodeSync(WebhookEnvelope)(decoded)
      expect(Object.keys(encoded)).toEqual(["event", "timestamp", "data"])
      expect(encoded).toEqual(envelope)
    },
  )

  it("the envelope is a union discriminated on event, so the name types data", () => {
    const envelope = decode(sampleEnvelope("campaign.completed"))
    if (envelope.event !== "campaign.completed") throw new Error("narrowing failed")
    const total: number = envelope.data.sent + envelope.data.failed
    expect(total).toBe(envelope.data.totalRecipients)
  })

  it("a field of the wrong type is named with its path", () => {
    const issues = issuesFor({
      ...sampleEnvelope("lead.created"),
      data: { ...sampleEventData["lead.created"], booking: { date: "2026-13-01", time: "9:30", service: "x" } },
    })
    expect(issues.map((i) => i.path)).toEqual(["data.booking.date", "data.booking.time"])
    expect(issues[0]?.message).toContain("YYYY-MM-DD")
    expect(issues[1]?.message).toContain("HH:MM")
  })

  it("a missing field is named", () => {
    const { text: _text, ...data } = sampleEventData["message.inbound"]
    expect(issuesFor({ ...sampleEnvelope("message.inbound"), data })).toEqual([
      { path: "data.text", message: "Missing key" },
    ])
  })

  it("phone numbers with anything but digits are refused", () => {
    const issues = issuesFor({
      ...sampleEnvelope("message.inbound"),
      data: { ...sampleEventData["message.inbound"], from: "+14155550100" },
    })
    expect(issues).toEqual([{ path: "data.from", message: expect.stringContaining("digits only") }])
  })

  it("a timestamp without milliseconds or outside UTC is refused", () => {
    for (const timestamp of ["2026-11-22T09:30:00Z", "2026-11-22T10:30:00.000+01:00", "yesterday"]) {
      expect(issuesFor(sampleEnvelope("message.status", timestamp)).map((i) => i.path)).toEqual(["timestamp"])
    }
  })

  it("message and template statuses are the contract's closed lists", () => {
    expect(
      issuesFor({
        ...sampleEnvelope("message.status"),
        data: { ...sampleEventData["message.status"], status: "seen" },
      }),
    ).toEqual([{ path: "data.status", message: 'Expected "sent" | "delivered" | "read" | "failed"' }])
    expect(
      issuesFor({
        ...sampleEnvelope("template.status"),
        data: { ...sampleEventData["template.status"], status: "PENDING" },
      }).map((i) => i.path),
    ).toEqual(["data.status"])
  })

  it("a campaign whose sent and failed do not add up to its recipients is refused", () => {
    const data = { ...sampleEventData["campaign.completed"], sent: 3 }
    expect(issuesFor({ ...sampleEnvelope("campaign.completed"), data })).toEqual([
      { path: "data", message: "Expected sent + failed = totalRecipients" },
    ])
  })

  it("the template id may be null, a lead's booking may be null", () => {
    expect(decode(sampleEnvelope("template.quality")).data).toMatchObject({ metaTemplateId: null })
    expect(decode(sampleEnvelope("lead.created")).data).toMatchObject({ booking: null })
  })

  it("the catalogue lists the eight events with their channels", () => {
    expect(EventCatalogue.map((e) => e.name)).toEqual(EventNames)
    expect(EventCatalogue.filter((e) => e.channels === "cloud channel only").map((e) => e.name)).toEqual([
      "template.status",
      "template.quality",
      "template.category",
    ])
    for (const entry of EventCatalogue) expect(entry.description.length).toBeGreaterThan(10)
  })

  it.each(EventCatalogue.map((entry) => [entry.name, entry] as const))(
    "the catalogue's sample of %s decodes with that event's own data schema, unchanged",
    (name, entry) => {
      const json = JSON.parse(JSON.stringify(entry.sample))
      expect(Schema.decodeUnknownSync(EventDataSchemas[name])(json)).toEqual(entry.sample)
    },
  )
})

import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { OrgId, WebhookId } from "./ids.ts"
import { isWidgetOnly } from "./scopes.ts"
import { IsoTimestamp, isoTimestamp, normalizePhone } from "./values.ts"

describe("values", () => {
  it("a phone number keeps its digits only", () => {
    expect(normalizePhone("+1 (415) 555-0100")).toBe("14155550100")
    expect(normalizePhone("0044.20.7946.0958")).toBe("00442079460958")
  })

  it("timestamps are ISO 8601 UTC with milliseconds, and nothing else", () => {
    const is = Schema.is(IsoTimestamp)
    expect(is("2026-11-22T09:30:00.000Z")).toBe(true)
    expect(is("2026-11-22T09:30:00Z")).toBe(false)
    expect(is("2026-11-22T09:30:00.000+01:00")).toBe(false)
    expect(is("2026-02-30T09:30:00.000Z")).toBe(false)
    expect(isoTimestamp(Date.UTC(2026, 10, 22, 9, 30))).toBe("2026-11-22T09:30:00.000Z")
  })

  it("an id decodes only under its own prefix", () => {
    expect(Schema.is(OrgId)("org_0123456789abcdefABCDEF")).toBe(true)
    expect(Schema.is(WebhookId)("org_0123456789abcdefABCDEF")).toBe(false)
    expect(Schema.is(OrgId)("org_short")).toBe(false)
  })

  it("a key is widget-only when every scope it has is a widget scope", () => {
    expect(isWidgetOnly(["chat:write", "bookings:read"])).toBe(true)
    expect(isWidgetOnly(["chat:write", "messages:send"])).toBe(false)
    expect(isWidgetOnly([])).toBe(false)
  })
})

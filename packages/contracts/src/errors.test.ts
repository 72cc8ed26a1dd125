import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { ErrorBody, ErrorCode, ErrorStatus, ErrorText, statusOf } from "./errors.ts"

describe("errors", () => {
  it("every code has the status docs/contract.md gives it", () => {
    expect(Object.keys(ErrorStatus).sort()).toEqual([...ErrorCode.literals].sort())
    expect(statusOf("invalid_request")).toBe(400)
    expect(statusOf("unauthorized")).toBe(401)
    for (const code of [
      "missing_scope",
      "widget_key_forbidden",
      "origin_not_allowed",
      "admin_required",
      "plan_feature_required",
      "key_limit",
      "webhook_limit",
    ] as const) {
      expect(statusOf(code)).toBe(403)
    }
    expect(statusOf("not_found")).toBe(404)
    expect(statusOf("conflict")).toBe(409)
    expect(statusOf("payload_too_large")).toBe(413)
    expect(statusOf("unsupported_media_type")).toBe(415)
    expect(statusOf("rate_limited")).toBe(429)
    expect(statusOf("internal")).toBe(500)
    expect(statusOf("unavailable")).toBe(503)
  })

  it("the texts with a variable part name it", () => {
    expect(ErrorText.missingScope("bookings:write")).toBe("API key is missing required scope: bookings:write")
    expect(ErrorText.planFeatureRequired()).toBe("Plan feature required: api_access")
    expect(ErrorText.invalidRequest("url: Missing key")).toBe("Invalid request: url: Missing key")
  })

  it("the widget-only text says where the key works and which scope a server needs", () => {
    expect(ErrorText.widgetKeyForbidden).toBe(
      "This API key is limited to the website widget and /api/public; use a key with the messages:send scope for server-to-server calls",
    )
  })

  it("an error body with an unknown code is refused", () => {
    const decode = Schema.decodeUnknownSync(ErrorBody)
    expect(decode({ error: "Not found", code: "not_found" })).toEqual({ error: "Not found", code: "not_found" })
    expect(() => decode({ error: "Gone", code: "gone" })).toThrow(/code/)
  })
})

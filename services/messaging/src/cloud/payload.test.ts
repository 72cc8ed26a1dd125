import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { graphMessageBody } from "./graph-client.ts"
import { CloudWebhookBody, inboundText, TemplateStatusValue } from "./payload.ts"

describe("inboundText", () => {
  it("is the body of a text, the caption of media, and empty for media without one or other kinds", () => {
    expect(inboundText({ type: "text", text: { body: "hi" } })).toBe("hi")
    expect(inboundText({ type: "video", video: { id: "1", caption: "clip" } })).toBe("clip")
    expect(inboundText({ type: "document", document: { id: "1", filename: "a.pdf" } })).toBe("")
    expect(inboundText({ type: "location", location: { latitude: 1, longitude: 2 } })).toBe("")
  })
})

describe("provider payload decoding", () => {
  it("reads numeric ids as strings, as the provider sends them in template updates", () => {
    const body = Schema.decodeUnknownSync(CloudWebhookBody)({
      object: "whatsapp_business_account",
      entry: [{ id: 102290129340398, changes: [] }],
    })
    expect(body.entry[0]?.id).toBe("102290129340398")
    const value = Schema.decodeUnknownSync(TemplateStatusValue)({
      event: "APPROVED",
      message_template_id: 806312974732579,
      message_template_name: "welcome",
      message_template_language: "en_US",
      reason: null,
    })
    expect(value.message_template_id).toBe("806312974732579")
  })
})

describe("graphMessageBody", () => {
  it("leaves out template components when there are no variables", () => {
    expect(graphMessageBody({ to: "1", type: "template", template: { name: "t", language: "en" } })).toEqual({
      messaging_product: "whatsapp",
      recipient_type: "individual",
      to: "1",
      type: "template",
      template: { name: "t", language: { code: "en" } },
    })
  })
})

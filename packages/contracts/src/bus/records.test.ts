import { EventNames } from "@parley/webhooks"
import { sampleEventData } from "@parley/webhooks/testing"
import { Effect, Result } from "effect"
import { describe, expect, it } from "vitest"
import {
  AttemptRecord,
  ChannelInbound,
  ChannelOutbound,
  DeliveryRecord,
  KeyChanged,
  KeyUsed,
  MemberRemoved,
  WebhookChanged,
} from "../index.ts"
import { decodeBusValue, encodeBusValue } from "./codec.ts"
import { EventRecord, topicOfEvent } from "./events.ts"

const orgId = "org_0123456789abcdefABCDEF"
const webhookId = "wh_0123456789abcdefABCDEF"
const eventId = "evt_0123456789abcdefABCDEF"
const deliveryId = "dlv_0123456789abcdefABCDEF"
const keyId = "key_0123456789abcdefABCDEF"
const at = "2026-11-22T09:30:00.000Z"

const roundTrip = <S extends Parameters<typeof decodeBusValue>[0]>(schema: S, value: unknown) =>
  Effect.runSync(decodeBusValue(schema)(encodeBusValue(schema, value as S["Type"])))

const failureOf = <S extends Parameters<typeof decodeBusValue>[0]>(schema: S, json: string) => {
  const result = Effect.runSync(Effect.result(decodeBusValue(schema)(json)))
  if (Result.isSuccess(result)) throw new Error("expected the value to be refused")
  return result.failure
}

describe("bus records", () => {
  it.each(EventNames)("an EventRecord of %s survives encoding and decoding unchanged", (event) => {
    const record = { eventId, orgId, event, timestamp: at, data: sampleEventData[event] }
    expect(roundTrip(EventRecord, record)).toEqual(record)
  })

  it.each(EventNames)("a DeliveryRecord of %s survives encoding and decoding unchanged", (event) => {
    const record = {
      deliveryId,
      webhookId,
      orgId,
      eventId,
      event,
      timestamp: at,
      data: sampleEventData[event],
      attempt: 2,
      notBefore: "2026-11-22T09:30:05.000Z",
      reason: "event",
    }
    expect(roundTrip(DeliveryRecord, record)).toEqual(record)
  })

  it("an EventRecord whose data does not match its event's schema is refused naming the field", () => {
    const json = JSON.stringify({
      eventId,
      orgId,
      event: "lead.created",
      timestamp: at,
      data: { ...sampleEventData["lead.created"], phone: "+1 415 555 0100" },
    })
    const error = failureOf(EventRecord, json)
    expect(error.issues.map((i) => i.path)).toEqual(["data.phone"])
    expect(error.message).toContain("data.phone")
    expect(error.message).toContain("digits only")
  })

  it("every bad field of a record is reported at once, not only the first", () => {
    const json = JSON.stringify({
      webhookId: "nope",
      orgId,
      url: "https://example.com/hook",
      events: ["message.inbound", "message.sent"],
      enabled: "yes",
      sealedSecret: "v1.aaa.bbb.ccc",
      deleted: false,
      version: 1,
      changedAt: at,
    })
    const paths = failureOf(WebhookChanged, json).issues.map((i) => i.path)
    expect(paths).toEqual(expect.arrayContaining(["webhookId", "events[1]", "enabled"]))
    expect(paths).toHaveLength(3)
  })

  it("a WebhookChanged carrying a plaintext secret is refused", () => {
    const plaintext = "q83vEjRWeJq83vEjRWeJq83vEjRWeJq83vEjRWeJq80="
    const json = JSON.stringify({
      webhookId,
      orgId,
      url: "https://example.com/hook",
      events: ["message.inbound"],
      enabled: true,
      sealedSecret: plaintext,
      deleted: false,
      version: 3,
      changedAt: at,
    })
    const error = failureOf(WebhookChanged, json)
    expect(error.issues).toEqual([{ path: "sealedSecret", message: expect.stringContaining("sealed secret") }])
    expect(error.message).not.toContain(plaintext.slice(0, 10))
  })

  it("a value that is not JSON is refused with a readable reason", () => {
    const error = failureOf(KeyUsed, "{not json")
    expect(error.message).toBe("Invalid KeyUsed record: the value is not JSON")
  })

  it("key, usage, member, attempt and channel records survive encoding and decoding unchanged", () => {
    const samples = [
      [
        KeyChanged,
        {
          keyId,
          orgId,
          digest: "a".repeat(64),
          prefix: "AbCdEf123456",
          scopes: ["chat:write"],
          allowedOrigins: ["https://shop.example"],
          revokedAt: null,
          changedAt: at,
        },
      ],
      [KeyUsed, { keyId, orgId, usedAt: at }],
      [MemberRemoved, { orgId, userId: "usr_0123456789abcdefABCDEF", removedAt: at }],
      [
        AttemptRecord,
        {
          deliveryId,
          webhookId,
          orgId,
          eventId,
          event: "message.status",
          attempt: 3,
          status: "failed",
          responseStatus: null,
          error: "timeout",
          durationMs: 10_000,
          attemptedAt: at,
        },
      ],
      [
        ChannelInbound,
        {
          orgId,
          channel: "bridge",
          from: "14155550100",
          name: "",
          type: "image",
          text: "",
          messageId: "m-1",
          receivedAt: at,
        },
      ],
      [ChannelOutbound, { orgId, channel: "cloud", to: "14155550100", text: "Hello", inReplyTo: "m-1" }],
      [ChannelOutbound, { orgId, channel: "cloud", to: "14155550100", text: "Hello" }],
    ] as const
    for (const [schema, value] of samples) expect(roundTrip(schema, value)).toEqual(value)
  })

  it("an attempt numbered outside 1–3 is refused", () => {
    const json = JSON.stringify({
      deliveryId,
      webhookId,
      orgId,
      eventId,
      event: "message.status",
      attempt: 4,
      status: "failed",
      responseStatus: 500,
      error: "HTTP 500",
      durationMs: 12,
      attemptedAt: at,
    })
    expect(failureOf(AttemptRecord, json).issues.map((i) => i.path)).toEqual(["attempt"])
  })

  it("each event is published on the topic of its domain", () => {
    expect(topicOfEvent("message.status")).toBe("parley.events.message.v1")
    expect(topicOfEvent("lead.updated")).toBe("parley.events.lead.v1")
    expect(topicOfEvent("campaign.completed")).toBe("parley.events.campaign.v1")
    expect(topicOfEvent("template.category")).toBe("parley.events.template.v1")
  })
})

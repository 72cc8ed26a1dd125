import type { IncomingHttpHeaders } from "node:http"
import { Cause, Effect, Exit } from "effect"
import { TestClock } from "effect/testing"
import { describe, expect, it } from "vitest"
import {
  InvalidSignature,
  isVerificationError,
  MalformedBody,
  MissingHeader,
  recommendedStatus,
  TimestampOutsideTolerance,
  UnknownEvent,
} from "./errors.ts"
import { sign } from "./signature.ts"
import { sampleEnvelope, sampleEventData } from "./testing.ts"
import { verify, verifyEffect } from "./verify.ts"

const secret = "whsec-as-registered-0123456789"

const signed = async (body: string | Uint8Array, key = secret) => ({
  "Content-Type": "application/json",
  "X-Service-Event": "message.inbound",
  "X-Service-Signature": await sign(body, key),
  "X-Service-Delivery": "dlv_4tQ2yK8pX1mN7bV3cZ9wL0",
  "X-Service-Attempt": "1",
})

const rejection = async (promise: Promise<unknown>) => {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error("expected verify to reject")
}

describe("verify", () => {
  it("answers the typed envelope of an authentic delivery", async () => {
    const body = JSON.stringify(sampleEnvelope("message.inbound"))
    const envelope = await verify(body, await signed(body), secret)
    expect(envelope).toEqual(sampleEnvelope("message.inbound"))
  })

  it("accepts the body as bytes and the headers as a Fetch Headers, any-case object or IncomingHttpHeaders", async () => {
    const body = JSON.stringify(sampleEnvelope("template.category"))
    const headers = await signed(body)
    const lowerCase: IncomingHttpHeaders = Object.fromEntries(
      Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]),
    )
    const upperCase = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toUpperCase(), v]))
    const repeated: IncomingHttpHeaders = { ...lowerCase, "x-service-signature": [headers["X-Service-Signature"]] }
    for (const form of [new Headers(headers), lowerCase, upperCase, repeated]) {
      expect((await verify(new TextEncoder().encode(body), form, secret)).event).toBe("template.category")
    }
  })

  it("refuses a delivery without a signature header as MissingHeader", async () => {
    const body = JSON.stringify(sampleEnvelope("message.inbound"))
    const { "X-Service-Signature": _, ...headers } = await signed(body)
    const error = await rejection(verify(body, headers, secret))
    expect(error).toBeInstanceOf(MissingHeader)
    expect(error).toMatchObject({ _tag: "MissingHeader", header: "X-Service-Signature" })
    expect(await rejection(verify(body, { ...headers, "x-service-signature": "" }, secret))).toBeInstanceOf(
      MissingHeader,
    )
  })

  it("refuses a body changed after signing, a wrong secret, and a malformed signature as InvalidSignature", async () => {
    const body = JSON.stringify(sampleEnvelope("message.inbound"))
    const headers = await signed(body)
    const tampered = body.replace("Dana Scully", "Fox Mulder")
    expect(await rejection(verify(tampered, headers, secret))).toBeInstanceOf(InvalidSignature)
    expect(await rejection(verify(body, headers, "another secret"))).toBeInstanceOf(InvalidSignature)
    expect(
      await rejection(verify(body, { ...headers, "X-Service-Signature": "sha256=nothex" }, secret)),
    ).toBeInstanceOf(InvalidSignature)
  })

  it("checks the signature before parsing: garbage with a bad signature is InvalidSignature, not MalformedBody", async () => {
    const error = await rejection(verify("{not json", { "x-service-signature": `sha256=${"0".repeat(64)}` }, secret))
    expect(error).toBeInstanceOf(InvalidSignature)
  })

  it("refuses an authentic body that is not JSON or not UTF-8 as MalformedBody", async () => {
    const notJson = "{not json"
    const notJsonError = await rejection(verify(notJson, await signed(notJson), secret))
    expect(notJsonError).toBeInstanceOf(MalformedBody)
    expect(notJsonError).toMatchObject({ reason: "the body is not JSON" })

    const notUtf8 = new Uint8Array([0x7b, 0xff, 0xfe, 0x7d])
    expect(await rejection(verify(notUtf8, await signed(notUtf8), secret))).toMatchObject({
      _tag: "MalformedBody",
      reason: "the body is not UTF-8",
    })
  })

  it("refuses an authentic envelope with invalid data as MalformedBody naming every bad field", async () => {
    const body = JSON.stringify({
      ...sampleEnvelope("lead.created"),
      data: { ...sampleEventData["lead.created"], phone: "+1 415", booking: "tomorrow" },
    })
    const error = (await rejection(verify(body, await signed(body), secret))) as MalformedBody
    expect(error).toBeInstanceOf(MalformedBody)
    expect(error.issues.map((i) => i.path)).toEqual(["data.phone", "data.booking"])
    expect(error.message).toContain("data.phone")
  })

  it("refuses an authentic envelope of an event it does not know as UnknownEvent", async () => {
    const body = JSON.stringify({ event: "invoice.paid", timestamp: "2026-11-22T09:30:00.000Z", data: {} })
    const error = await rejection(verify(body, await signed(body), secret))
    expect(error).toBeInstanceOf(UnknownEvent)
    expect(error).toMatchObject({ event: "invoice.paid" })
    expect(recommendedStatus(error as UnknownEvent)).toBe(200)
  })

  it("ignores the timestamp unless a tolerance is given", async () => {
    const body = JSON.stringify(sampleEnvelope("message.status", "2001-01-01T00:00:00.000Z"))
    expect((await verify(body, await signed(body), secret)).timestamp).toBe("2001-01-01T00:00:00.000Z")
  })

  it("with a tolerance, accepts a timestamp inside it either way and refuses one outside it", async () => {
    const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString()
    const check = async (timestamp: string) => {
      const body = JSON.stringify(sampleEnvelope("message.status", timestamp))
      return verify(body, await signed(body), secret, { toleranceSeconds: 300 })
    }
    expect((await check(at(-200_000))).event).toBe("message.status")
    expect((await check(at(200_000))).event).toBe("message.status")
    const late = await rejection(check(at(-400_000)))
    expect(late).toBeInstanceOf(TimestampOutsideTolerance)
    expect(late).toMatchObject({ toleranceSeconds: 300, skewSeconds: 400 })
    expect(await rejection(check(at(400_000)))).toBeInstanceOf(TimestampOutsideTolerance)
  })

  it("measures the tolerance against Effect's Clock, so it is testable without waiting", async () => {
    const body = JSON.stringify(sampleEnvelope("message.status", "1970-01-01T00:10:00.000Z"))
    const headers = await signed(body)
    const program = Effect.gen(function* () {
      yield* TestClock.setTime(600_000 + 30_000)
      const inside = yield* Effect.exit(verifyEffect(body, headers, secret, { toleranceSeconds: 30 }))
      yield* TestClock.adjust("1 millis")
      const outside = yield* Effect.exit(verifyEffect(body, headers, secret, { toleranceSeconds: 30 }))
      return { inside, outside }
    }).pipe(Effect.provide(TestClock.layer()))
    const { inside, outside } = await Effect.runPromise(program)
    expect(Exit.isSuccess(inside)).toBe(true)
    if (Exit.isSuccess(outside)) throw new Error("expected the later check to fail")
    expect(Cause.squash(outside.cause)).toBeInstanceOf(TimestampOutsideTolerance)
  })

  it("the Effect API fails with the same typed errors, matchable by tag", async () => {
    const body = JSON.stringify(sampleEnvelope("message.inbound"))
    const outcome = await Effect.runPromise(
      verifyEffect(body, await signed(body, "wrong"), secret).pipe(
        Effect.map(() => "verified"),
        Effect.catchTag("InvalidSignature", () => Effect.succeed("refused")),
      ),
    )
    expect(outcome).toBe("refused")
  })

  it("recommends 401 for what cannot be trusted and 400 for an authentic malformed body", () => {
    expect(recommendedStatus(new MissingHeader({ header: "X-Service-Signature" }))).toBe(401)
    expect(recommendedStatus(new InvalidSignature())).toBe(401)
    expect(
      recommendedStatus(new TimestampOutsideTolerance({ timestamp: "", toleranceSeconds: 1, skewSeconds: 2 })),
    ).toBe(401)
    expect(recommendedStatus(new MalformedBody({ reason: "x", issues: [] }))).toBe(200)
  })

  it("treats an empty secret as a programming error, not as a bad delivery", async () => {
    const body = JSON.stringify(sampleEnvelope("message.inbound"))
    const error = await rejection(verify(body, await signed(body), ""))
    expect(error).toBeInstanceOf(TypeError)
    expect(isVerificationError(error)).toBe(false)
  })

  it("tells its own errors from any other thrown value", () => {
    expect(isVerificationError(new InvalidSignature())).toBe(true)
    expect(isVerificationError(new UnknownEvent({ event: "x" }))).toBe(true)
    expect(isVerificationError(new Error("InvalidSignature"))).toBe(false)
    expect(isVerificationError({ _tag: "InvalidSignature" })).toBe(false)
  })
})

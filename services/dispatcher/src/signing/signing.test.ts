import { createHmac } from "node:crypto"
import { sign, standardSignature, verify } from "@parley/webhooks"
import { sampleEnvelope } from "@parley/webhooks/testing"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { Keyring, signatureHeaders, signingKeyOf } from "./signing.ts"

const current = Buffer.alloc(32, 21).toString("base64url")
const previous = Buffer.alloc(32, 42).toString("base64")
const body = JSON.stringify(sampleEnvelope("lead.created"))
const deliveryId = "dlv_4tQ2yK8pX1mN7bV3cZ9wL0"
const signedAt = Date.parse("2026-11-22T09:30:00.400Z")

describe("signing an attempt", () => {
  it("writes X-Service-Signature with the secret string and webhook-signature with its decoded bytes", async () => {
    const headers = signatureHeaders(
      { current: signingKeyOf(current), previous: undefined, previousUntil: 0 },
      deliveryId,
      body,
      signedAt,
    )
    const timestamp = Math.floor(signedAt / 1000)
    expect(headers).toEqual({
      "x-service-signature": await sign(body, current),
      "webhook-id": deliveryId,
      "webhook-timestamp": String(timestamp),
      "webhook-signature": await standardSignature(body, { id: deliveryId, timestamp }, current),
    })
    const reference = createHmac("sha256", Buffer.alloc(32, 21)).update(`${deliveryId}.${timestamp}.${body}`)
    expect(headers["webhook-signature"]).toBe(`v1,${reference.digest("base64")}`)
  })

  it("adds the previous key's signature, second, until its window ends — never to X-Service-Signature", async () => {
    const keys = { current: signingKeyOf(current), previous: signingKeyOf(previous), previousUntil: signedAt + 1 }
    const during = signatureHeaders(keys, deliveryId, body, signedAt)
    const timestamp = Math.floor(signedAt / 1000)
    expect(during["webhook-signature"]).toBe(
      `${await standardSignature(body, { id: deliveryId, timestamp }, current)} ${await standardSignature(body, { id: deliveryId, timestamp }, previous)}`,
    )
    expect(during["x-service-signature"]).toBe(await sign(body, current))
    // A receiver on either key verifies (at the signing time: the Standard check refuses a stale one).
    const at = { ...during, "content-type": "application/json" }
    expect((await verify(body, at, current, { signatureToleranceSeconds: Number.MAX_SAFE_INTEGER })).event).toBe(
      "lead.created",
    )
    expect((await verify(body, at, previous, { signatureToleranceSeconds: Number.MAX_SAFE_INTEGER })).event).toBe(
      "lead.created",
    )

    const after = signatureHeaders(keys, deliveryId, body, signedAt + 1)
    expect(after["webhook-signature"].split(" ")).toHaveLength(1)
  })

  it("a keyring makes a webhook's keys once and again only when its sealed secrets change", () => {
    const opened: Array<string> = []
    const ring = Effect.runSync(
      Keyring.useSync((ring) => ring).pipe(
        Effect.provide(
          Keyring.layer((sealed) => {
            opened.push(sealed)
            return sealed === "a" ? current : previous
          }),
        ),
      ),
    )
    const first = ring.keysOf("wh_1", { sealed: "a", previousSealed: null, previousUntil: 0 })
    expect(ring.keysOf("wh_1", { sealed: "a", previousSealed: null, previousUntil: 0 })).toBe(first)
    const rotated = ring.keysOf("wh_1", { sealed: "b", previousSealed: "a", previousUntil: 5 })
    expect(rotated).not.toBe(first)
    expect(rotated.previousUntil).toBe(5)
    expect(opened).toEqual(["a", "b", "a"])
  })
})

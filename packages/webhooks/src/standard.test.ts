import { createHmac } from "node:crypto"
import { Cause, Effect, Exit } from "effect"
import { TestClock } from "effect/testing"
import { describe, expect, it } from "vitest"
import { InvalidSignature, MissingHeader, TimestampOutsideTolerance } from "./errors.ts"
import { sign } from "./signature.ts"
import { secretBytes, standardSignature } from "./standard.ts"
import { sampleEnvelope } from "./testing.ts"
import { verify, verifyEffect } from "./verify.ts"

// A secret of 32 bytes in every form Parley hands out or accepts: as registered in the standard or
// the URL-safe alphabet (with or without padding), and the whsec_ form of the create response.
const bytes = Uint8Array.from({ length: 32 }, (_, i) => (i * 37 + 251) % 256)
const standard = Buffer.from(bytes).toString("base64")
const urlSafe = Buffer.from(bytes).toString("base64url")
const whsec = `whsec_${standard}`
const previous = `whsec_${Buffer.alloc(32, 9).toString("base64")}`

const body = JSON.stringify(sampleEnvelope("lead.created"))
const id = "dlv_4tQ2yK8pX1mN7bV3cZ9wL0"
const nowSeconds = () => Math.floor(Date.now() / 1000)

/** Headers of a delivery as the dispatcher sends them, signed at `timestamp` by each key in turn. */
const delivery = async (keys: ReadonlyArray<string>, timestamp = nowSeconds(), content: string = body) => ({
  "content-type": "application/json",
  "x-service-signature": await sign(content, standard),
  "x-service-delivery": id,
  "webhook-id": id,
  "webhook-timestamp": String(timestamp),
  "webhook-signature": (await Promise.all(keys.map((key) => standardSignature(content, { id, timestamp }, key)))).join(
    " ",
  ),
})

describe("Standard Webhooks signatures", () => {
  it("are v1,<base64 HMAC-SHA256 of id.timestamp.body> keyed with the secret's decoded bytes", async () => {
    const expected = createHmac("sha256", Buffer.from(bytes)).update(`${id}.1700000000.${body}`).digest("base64")
    for (const form of [whsec, standard, urlSafe, urlSafe.replace(/=+$/, "")]) {
      expect(await standardSignature(body, { id, timestamp: 1_700_000_000 }, form)).toBe(`v1,${expected}`)
    }
  })

  it("read a secret in any form Parley accepts, and refuse one that is not base64 as a programming error", () => {
    for (const form of [whsec, standard, urlSafe]) expect(secretBytes(form)).toEqual(bytes)
    expect(() => secretBytes("not base64!")).toThrow(TypeError)
    expect(() => secretBytes("")).toThrow(TypeError)
  })
})

describe("verify with the Standard Webhooks headers", () => {
  it("accepts a delivery with the secret in either form", async () => {
    const headers = await delivery([whsec])
    for (const form of [whsec, standard, urlSafe]) {
      expect(await verify(body, headers, form)).toEqual(sampleEnvelope("lead.created"))
    }
  })

  it("accepts any of the v1 signatures, so a receiver still on the previous key verifies during a rotation", async () => {
    const headers = await delivery([whsec, previous])
    expect((await verify(body, headers, whsec)).event).toBe("lead.created")
    expect((await verify(body, headers, previous)).event).toBe("lead.created")
    // X-Service-Signature is the new key's only: the previous key verifies through webhook-signature.
    await expect(
      verify(body, { "x-service-signature": headers["x-service-signature"] }, previous),
    ).rejects.toBeInstanceOf(InvalidSignature)
  })

  it("checks webhook-signature, not X-Service-Signature, when the Standard headers are there", async () => {
    const { "x-service-signature": _, ...standardOnly } = await delivery([whsec])
    expect((await verify(body, standardOnly, whsec)).event).toBe("lead.created")
    const forged = { ...(await delivery([previous])), "x-service-signature": await sign(body, standard) }
    await expect(verify(body, forged, whsec)).rejects.toBeInstanceOf(InvalidSignature)
  })

  it("refuses a tampered body, a wrong secret, another delivery's id and a signature of another time", async () => {
    const timestamp = nowSeconds()
    const headers = await delivery([whsec], timestamp)
    await expect(verify(body.replace("Dana", "Eve"), headers, whsec)).rejects.toBeInstanceOf(InvalidSignature)
    await expect(verify(body, headers, previous)).rejects.toBeInstanceOf(InvalidSignature)
    await expect(verify(body, { ...headers, "webhook-id": `${id}x` }, whsec)).rejects.toBeInstanceOf(InvalidSignature)
    await expect(
      verify(body, { ...headers, "webhook-timestamp": String(timestamp - 1) }, whsec),
    ).rejects.toBeInstanceOf(InvalidSignature)
    await expect(verify(body, { ...headers, "webhook-timestamp": "yesterday" }, whsec)).rejects.toBeInstanceOf(
      InvalidSignature,
    )
  })

  it("answers MissingHeader naming the one of the three that is absent", async () => {
    const headers = await delivery([whsec])
    for (const name of ["webhook-id", "webhook-timestamp", "webhook-signature"] as const) {
      const { [name]: _, ...rest } = headers
      await expect(verify(body, rest, whsec)).rejects.toMatchObject({ _tag: "MissingHeader", header: name })
      await expect(verify(body, { ...headers, [name]: "" }, whsec)).rejects.toBeInstanceOf(MissingHeader)
    }
  })

  it("refuses a signing time more than five minutes from now either way, measured on Effect's Clock", async () => {
    const signedAt = 1_700_000_000
    const headers = await delivery([whsec], signedAt)
    const at = (seconds: number) =>
      Effect.gen(function* () {
        yield* TestClock.setTime(seconds * 1000)
        return yield* Effect.exit(verifyEffect(body, headers, whsec))
      }).pipe(Effect.provide(TestClock.layer()), Effect.runPromise)
    for (const accepted of [signedAt - 300, signedAt, signedAt + 300, signedAt + 300.999]) {
      expect(Exit.isSuccess(await at(accepted)), `at ${accepted}`).toBe(true)
    }
    for (const refused of [signedAt - 301, signedAt + 301]) {
      const exit = await at(refused)
      if (Exit.isSuccess(exit)) throw new Error(`expected a refusal at ${refused}`)
      expect(Cause.squash(exit.cause)).toBeInstanceOf(TimestampOutsideTolerance)
      expect(Cause.squash(exit.cause)).toMatchObject({ toleranceSeconds: 300, skewSeconds: 301 })
    }
  })

  it("takes another tolerance for the signing time when asked", async () => {
    const headers = await delivery([whsec], nowSeconds() - 120)
    await expect(verify(body, headers, whsec, { signatureToleranceSeconds: 60 })).rejects.toBeInstanceOf(
      TimestampOutsideTolerance,
    )
    expect((await verify(body, headers, whsec, { signatureToleranceSeconds: 180 })).event).toBe("lead.created")
  })

  it("without the Standard headers, verifies X-Service-Signature; a whsec_ secret stands for its base64 there", async () => {
    const headers = { "x-service-signature": await sign(body, standard) }
    expect((await verify(body, headers, standard)).event).toBe("lead.created")
    expect((await verify(body, headers, whsec)).event).toBe("lead.created")
  })
})

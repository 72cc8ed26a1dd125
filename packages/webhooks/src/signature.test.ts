import { createHmac } from "node:crypto"
import { describe, expect, it } from "vitest"
import { constantTimeEqual, sign, signatureMatches } from "./signature.ts"

const secret = "q83vEjRWeJq83vEjRWeJq83vEjRWeJq83vEjRWeJq80="
const body =
  '{"event":"message.status","timestamp":"2026-11-22T09:30:00.000Z","data":{"messageId":"m1","status":"read","recipient":"14155550100"}}'

describe("signatures", () => {
  it("are sha256= and the lowercase hex HMAC-SHA256 keyed with the secret string as registered", async () => {
    const expected = createHmac("sha256", Buffer.from(secret, "utf8")).update(body).digest("hex")
    expect(await sign(body, secret)).toBe(`sha256=${expected}`)
    // Not keyed with the base64-decoded secret.
    const decodedKey = createHmac("sha256", Buffer.from(secret, "base64")).update(body).digest("hex")
    expect(await sign(body, secret)).not.toBe(`sha256=${decodedKey}`)
  })

  it("of a string body equal those of its UTF-8 bytes", async () => {
    const unicode = body.replace("m1", "m1 — ☕ ünïcode")
    expect(await sign(unicode, secret)).toBe(await sign(new TextEncoder().encode(unicode), secret))
  })

  it("cover the exact bytes: the same JSON with other key order or whitespace does not match", async () => {
    const signature = await sign(body, secret)
    const parsed = JSON.parse(body)
    const reordered = JSON.stringify({ data: parsed.data, event: parsed.event, timestamp: parsed.timestamp })
    const spaced = JSON.stringify(parsed, null, 2)
    expect(JSON.parse(reordered)).toEqual(parsed)
    expect(await signatureMatches(body, signature, secret)).toBe(true)
    expect(await signatureMatches(reordered, signature, secret)).toBe(false)
    expect(await signatureMatches(spaced, signature, secret)).toBe(false)
    expect(await signatureMatches(`${body}\n`, signature, secret)).toBe(false)
  })

  it("do not match under another secret", async () => {
    expect(await signatureMatches(body, await sign(body, secret), `${secret.slice(0, -1)}A`)).toBe(false)
  })

  it("are refused when not of the form sha256=<64 hex>", async () => {
    const hex = (await sign(body, secret)).slice("sha256=".length)
    expect(await signatureMatches(body, hex, secret)).toBe(false)
    expect(await signatureMatches(body, `sha1=${hex}`, secret)).toBe(false)
    expect(await signatureMatches(body, `sha256=${hex.slice(0, -2)}`, secret)).toBe(false)
    expect(await signatureMatches(body, `sha256=${hex.slice(0, -1)}g`, secret)).toBe(false)
    expect(await signatureMatches(body, `sha256=${hex.toUpperCase()}`, secret)).toBe(true)
  })

  it("constant-time comparison tells equal from different bytes and lengths", () => {
    expect(constantTimeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 3]))).toBe(true)
    expect(constantTimeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 4]))).toBe(false)
    expect(constantTimeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2]))).toBe(false)
  })

  it("refuse an empty secret with a clear message instead of signing with it", async () => {
    await expect(sign(body, "")).rejects.toThrow("The webhook secret must be a non-empty string")
  })
})

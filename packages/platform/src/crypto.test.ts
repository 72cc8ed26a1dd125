import { describe, expect, it } from "vitest"
import { constantTimeEqual, hmacSha256Hex, sha256Hex } from "./crypto.ts"

describe("hashes and MACs", () => {
  it("computes SHA-256 as lowercase hex", () => {
    expect(sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
  })

  it("computes HMAC-SHA256 per RFC 4231 test case 2", () => {
    expect(hmacSha256Hex("Jefe", "what do ya want for nothing?")).toBe(
      "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
    )
  })

  it("accepts byte keys as well as string keys", () => {
    expect(hmacSha256Hex(new TextEncoder().encode("Jefe"), "what do ya want for nothing?")).toBe(
      hmacSha256Hex("Jefe", "what do ya want for nothing?"),
    )
  })
})

describe("constantTimeEqual", () => {
  it("is true only for identical values", () => {
    expect(constantTimeEqual("secret", "secret")).toBe(true)
    expect(constantTimeEqual("secret", "secreT")).toBe(false)
    expect(constantTimeEqual("secret", "secret2")).toBe(false)
    expect(constantTimeEqual("", "")).toBe(true)
    expect(constantTimeEqual("", "a")).toBe(false)
    expect(constantTimeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2]))).toBe(true)
    expect(constantTimeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 3]))).toBe(false)
  })

  it("is not fooled by a shorter value that is a prefix padded with zero bytes", () => {
    expect(constantTimeEqual(new Uint8Array([1, 0]), new Uint8Array([1]))).toBe(false)
  })
})

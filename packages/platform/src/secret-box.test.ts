import { Effect, Exit } from "effect"
import { describe, expect, it } from "vitest"
import { InvalidSecretKey, SecretBox, SecretBoxError } from "./secret-box.ts"

const key = Buffer.alloc(32, 7).toString("base64")
const box = SecretBox.fromBase64Key(key)

const flipCharAt = (text: string, index: number) =>
  text.slice(0, index) + (text[index] === "A" ? "B" : "A") + text.slice(index + 1)

describe("SecretBox", () => {
  it("opens what it sealed", () => {
    const secret = "whsec-ünïcödé-🔑"
    const sealed = box.seal(secret)
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]{22}$/)
    expect(box.open(sealed)).toBe(secret)
  })

  it("uses a fresh IV every time, so equal plaintexts seal differently", () => {
    expect(box.seal("same")).not.toBe(box.seal("same"))
  })

  it("refuses a sealed value altered anywhere (IV, ciphertext or tag)", () => {
    const sealed = box.seal("a webhook secret of some length")
    const [, iv, ct, tag] = sealed.split(".") as [string, string, string, string]
    const positions = [3, 3 + iv.length + 1 + 2, 3 + iv.length + 1 + ct.length + 1 + 3]
    expect(tag.length).toBe(22)
    for (const position of positions) {
      const tampered = flipCharAt(sealed, position)
      expect(tampered).not.toBe(sealed)
      expect(() => box.open(tampered)).toThrow(SecretBoxError)
    }
  })

  it("refuses a value sealed under another key", () => {
    const other = SecretBox.fromBase64Key(Buffer.alloc(32, 9).toString("base64url"))
    const error = (() => {
      try {
        box.open(other.seal("x"))
      } catch (e) {
        return e
      }
    })()
    expect(error).toBeInstanceOf(SecretBoxError)
    expect((error as SecretBoxError).reason).toBe("authentication_failed")
  })

  it("refuses malformed and unknown-version values with a typed reason", () => {
    const reasonOf = (sealed: string) => {
      try {
        box.open(sealed)
        return "opened"
      } catch (e) {
        return (e as SecretBoxError).reason
      }
    }
    expect(reasonOf("garbage")).toBe("malformed")
    expect(reasonOf(box.seal("x").replace(/^v1/, "v2"))).toBe("unsupported_version")
    expect(reasonOf("v1.!!.aa.bb")).toBe("malformed")
  })

  it("fails the Effect form with SecretBoxError", () => {
    const exit = Effect.runSyncExit(box.openEffect("v1.a.b.c"))
    expect(Exit.isFailure(exit)).toBe(true)
    expect(Effect.runSync(box.openEffect(box.seal("ok")))).toBe("ok")
  })

  it("accepts standard and URL-safe base64 keys and refuses keys that are not 32 bytes", () => {
    const bytes = Buffer.alloc(32, 0xfb)
    const a = SecretBox.fromBase64Key(bytes.toString("base64"))
    const b = SecretBox.fromBase64Key(bytes.toString("base64url"))
    expect(b.open(a.seal("same key"))).toBe("same key")
    expect(() => SecretBox.fromBase64Key(Buffer.alloc(16).toString("base64"))).toThrow(InvalidSecretKey)
    expect(() => SecretBox.fromBase64Key("not base64 at all!")).toThrow(InvalidSecretKey)
  })
})

import { SecretBox } from "@parley/platform"
import { Redacted } from "effect"
import { describe, expect, it } from "vitest"
import { tokenOpener } from "./provider.ts"

const box = SecretBox.fromBase64Key(Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64"))

describe("tokenOpener", () => {
  it("opens a sealed token once and answers the same opened token after", () => {
    const open = tokenOpener(box)
    const sealed = box.seal("EAAG-first-token")
    const first = open(sealed)
    expect(Redacted.value(first)).toBe("EAAG-first-token")
    expect(open(sealed)).toBe(first)
  })

  it("opens a rotated token afresh: a new sealed value, even of the same token, is its own entry", () => {
    const open = tokenOpener(box)
    const before = open(box.seal("EAAG-old"))
    const rotated = open(box.seal("EAAG-new"))
    expect(Redacted.value(before)).toBe("EAAG-old")
    expect(Redacted.value(rotated)).toBe("EAAG-new")
    expect(open(box.seal("EAAG-old"))).not.toBe(before)
  })

  it("refuses a sealed value that is not ours, and remembers nothing for it", () => {
    const open = tokenOpener(box)
    const other = SecretBox.fromBase64Key(Buffer.alloc(32, 7).toString("base64"))
    const foreign = other.seal("EAAG-foreign")
    expect(() => open(foreign)).toThrow(/cannot be opened/)
    expect(() => open(foreign)).toThrow(/cannot be opened/)
  })
})

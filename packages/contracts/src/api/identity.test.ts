import { crc32 as zlibCrc32 } from "node:zlib"
import { describe, expect, it } from "vitest"
import { apiKeyChecksum, crc32 } from "./identity.ts"

describe("crc32", () => {
  it("matches the standard check value and zlib's results", () => {
    expect(crc32("123456789")).toBe(0xcbf43926)
    expect(crc32("")).toBe(0)
    expect(crc32("The quick brown fox jumps over the lazy dog")).toBe(0x414fa339)
  })

  it("reads a text that is not ASCII as its UTF-8 bytes, wherever the first such character is", () => {
    for (const text of ["é", "héllo", "parley_abc.dèf", "ascii first, then ✓", "日本語", "emoji 👋 last"]) {
      expect(crc32(text)).toBe(zlibCrc32(text))
    }
  })

  it("gives the 6-character base62 checksum API keys carry", () => {
    const checksum = apiKeyChecksum("parley_abc.def")
    expect(checksum).toMatch(/^[0-9A-Za-z]{6}$/)
    expect(checksum).not.toBe(apiKeyChecksum("parley_abc.deg"))
  })
})

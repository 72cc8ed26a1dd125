import { createHash } from "node:crypto"
import { crc32 } from "node:zlib"
import { API_KEY_ALPHABET, apiKeyChecksum, parseApiKey } from "@parley/contracts"
import { describe, expect, it } from "vitest"
import { mintApiKey } from "./api-key-secret.ts"

const KEY = /^parley_[0-9A-Za-z]{12}\.[0-9A-Za-z]{49}$/

const base62OfCrc = (text: string): string => {
  let value = crc32(text)
  let out = ""
  for (let i = 0; i < 6; i++) {
    out = API_KEY_ALPHABET[value % 62] + out
    value = Math.floor(value / 62)
  }
  return out
}

describe("minted API keys", () => {
  it("have the form parley_<12 base62>.<43 random base62><6 base62 checksum>", () => {
    const { key, prefix } = mintApiKey()
    expect(key).toMatch(KEY)
    expect(key.slice(7, 19)).toBe(prefix)
  })

  it("end with the base62 CRC32 (as zlib computes it) of everything before the checksum", () => {
    for (let i = 0; i < 50; i++) {
      const { key } = mintApiKey()
      expect(key.slice(-6)).toBe(base62OfCrc(key.slice(0, -6)))
      expect(apiKeyChecksum(key.slice(0, -6))).toBe(key.slice(-6))
    }
  })

  it("are parsed back, and any single mistyped character is refused without a read", () => {
    const { key, prefix } = mintApiKey()
    expect(parseApiKey(key)).toEqual({ prefix, key })
    for (let i = 7; i < key.length; i++) {
      if (key[i] === ".") continue
      const swapped = key[i] === "A" ? "B" : "A"
      expect(parseApiKey(key.slice(0, i) + swapped + key.slice(i + 1))).toBeUndefined()
    }
    expect(parseApiKey(`${key}x`)).toBeUndefined()
    expect(parseApiKey(key.replace("parley_", "parlay_"))).toBeUndefined()
  })

  it("do not repeat, and spread over the whole alphabet", () => {
    const keys = Array.from({ length: 2000 }, () => mintApiKey().key)
    expect(new Set(keys).size).toBe(keys.length)
    const seen = new Set(keys.join("").replace(/parley_|\./g, ""))
    expect(seen.size).toBe(62)
  })

  it("are digested as lowercase SHA-256 hex of the whole key", () => {
    const { key } = mintApiKey()
    expect(createHash("sha256").update(key).digest("hex")).toMatch(/^[0-9a-f]{64}$/)
  })
})

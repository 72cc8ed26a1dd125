import { describe, expect, it } from "vitest"
import { bytesToBase62, fromBase62, isBase62, randomBase62, toBase62Fixed } from "./base62.ts"
import { isId, newId } from "./ids.ts"

describe("newId", () => {
  it("makes <prefix>_ followed by 22 base62 characters", () => {
    const id = newId("wh")
    expect(id).toMatch(/^wh_[0-9A-Za-z]{22}$/)
    expect(isId("wh", id)).toBe(true)
    expect(isId("org", id)).toBe(false)
  })

  it("never repeats across 100 000 ids", () => {
    const ids = new Set<string>()
    for (let i = 0; i < 100_000; i++) ids.add(newId("evt"))
    expect(ids.size).toBe(100_000)
  })

  it("encodes 128 bits: the 22 characters decode to a value below 2^128", () => {
    for (let i = 0; i < 1000; i++) {
      const value = fromBase62(newId("key").slice(4))
      expect(value).toBeDefined()
      expect((value as bigint) < 1n << 128n).toBe(true)
    }
  })

  it("spreads every bit: each of the 128 bits is set in roughly half of 4 000 ids", () => {
    const counts = new Array<number>(128).fill(0)
    const n = 4000
    for (let i = 0; i < n; i++) {
      const value = fromBase62(newId("org").slice(4)) as bigint
      for (let bit = 0; bit < 128; bit++) if ((value >> BigInt(bit)) & 1n) counts[bit] = (counts[bit] as number) + 1
    }
    // Binomial(4000, 0.5): sd ≈ 31.6; 7 sd either way never trips by chance.
    for (const count of counts) expect(Math.abs(count - n / 2)).toBeLessThan(221)
  })

  it("refuses a prefix that is not lowercase alphanumeric", () => {
    expect(() => newId("Org")).toThrow(RangeError)
    expect(() => newId("a_b")).toThrow(RangeError)
    expect(() => newId("")).toThrow(RangeError)
  })
})

describe("base62", () => {
  it("draws every character of the alphabet about equally often", () => {
    const sample = randomBase62(62 * 2000)
    expect(isBase62(sample)).toBe(true)
    const counts = new Map<string, number>()
    for (const char of sample) counts.set(char, (counts.get(char) ?? 0) + 1)
    expect(counts.size).toBe(62)
    // Each count ~ Binomial(124000, 1/62): mean 2000, sd ≈ 44.4; 6 sd bounds stay safe from chance.
    // A plain `byte % 62` would give the first 8 characters 5/256 instead of 4/256 (≈ +500 each).
    for (const count of counts.values()) expect(Math.abs(count - 2000)).toBeLessThan(267)
    const firstEight = [..."01234567"].reduce((sum, c) => sum + (counts.get(c) ?? 0), 0) / 8
    const rest = [..."89ABCDEFGHIJKLMNOPQRSTUVWXYZ"].reduce((sum, c) => sum + (counts.get(c) ?? 0), 0) / 28
    expect(Math.abs(firstEight - rest)).toBeLessThan(150)
  })

  it("returns exactly the requested length", () => {
    for (const n of [0, 1, 12, 43, 1000]) expect(randomBase62(n)).toHaveLength(n)
  })

  it("writes fixed-width numbers that round-trip, and refuses ones that do not fit", () => {
    expect(toBase62Fixed(0, 6)).toBe("000000")
    expect(toBase62Fixed(61, 2)).toBe("0z")
    expect(toBase62Fixed(62, 2)).toBe("10")
    expect(toBase62Fixed(0xffffffff, 6)).toBe("4gfFC3")
    expect(fromBase62(toBase62Fixed(0xffffffff, 6))).toBe(0xffffffffn)
    expect(() => toBase62Fixed(62 ** 2, 2)).toThrow(RangeError)
    expect(fromBase62("ab-")).toBeUndefined()
  })
})

describe("bytesToBase62", () => {
  it("agrees with BigInt arithmetic on random and edge values of several lengths", () => {
    const viaBigInt = (bytes: Uint8Array, width: number) => {
      let value = 0n
      for (const byte of bytes) value = (value << 8n) | BigInt(byte)
      return toBase62Fixed(value, width)
    }
    const cases = [
      new Uint8Array(16),
      new Uint8Array(16).fill(255),
      new Uint8Array([1]),
      new Uint8Array([0, 0, 1, 0, 0]),
    ]
    for (let i = 0; i < 500; i++) cases.push(crypto.getRandomValues(new Uint8Array(1 + (i % 33))))
    for (const bytes of cases) {
      const width = Math.ceil((bytes.length * 8) / Math.log2(62))
      expect(bytesToBase62(bytes, width)).toBe(viaBigInt(bytes, width))
    }
  })
})

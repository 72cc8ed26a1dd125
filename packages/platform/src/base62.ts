/**
 * Base62 (`0-9A-Za-z`): the alphabet of ids, API key parts and their checksums. Random strings are
 * drawn by rejection sampling so every character is equally likely (a plain `byte % 62` would
 * favour the first eight characters).
 */
export const BASE62_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

const BASE = 62n
// 248 = 4 × 62: bytes at or above it are rejected so that `byte % 62` is uniform.
const REJECT_AT = 248

/** `n` uniformly random base62 characters from `crypto.getRandomValues`. */
export const randomBase62 = (n: number): string => {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`randomBase62: invalid length ${n}`)
  let out = ""
  while (out.length < n) {
    // Ask for a little more than needed (about 3% of bytes are rejected), within getRandomValues'
    // 65 536-byte limit per call.
    const bytes = crypto.getRandomValues(new Uint8Array(Math.min(65_536, Math.ceil((n - out.length) * 1.1) + 4)))
    for (const byte of bytes) {
      if (byte >= REJECT_AT) continue
      out += BASE62_ALPHABET[byte % 62]
      if (out.length === n) break
    }
  }
  return out
}

/**
 * Big-endian bytes → base62, left-padded with `0` to `width` characters. Long division on 32-bit
 * words in plain numbers (each step stays below 2^53), several times faster than BigInt on the id
 * hot path.
 */
export const bytesToBase62 = (bytes: Uint8Array, width: number): string => {
  const words: Array<number> = []
  const offset = (4 - (bytes.length % 4)) % 4
  for (let i = -offset; i < bytes.length; i += 4) {
    let word = 0
    for (let j = i; j < i + 4; j++) word = word * 256 + (j >= 0 ? (bytes[j] as number) : 0)
    words.push(word)
  }
  const digits: Array<string> = []
  let nonZero = words.some((word) => word !== 0)
  while (nonZero) {
    let remainder = 0
    nonZero = false
    for (let i = 0; i < words.length; i++) {
      const current = remainder * 0x1_0000_0000 + (words[i] as number)
      const quotient = Math.floor(current / 62)
      remainder = current - quotient * 62
      words[i] = quotient
      if (quotient !== 0) nonZero = true
    }
    digits.push(BASE62_ALPHABET[remainder] as string)
  }
  if (digits.length > width) throw new RangeError(`value does not fit in ${width} base62 characters`)
  return digits.reverse().join("").padStart(width, "0")
}

/**
 * A non-negative integer as exactly `width` base62 characters (left-padded with `0`); throws when it
 * does not fit, so a checksum can never be silently truncated.
 */
export const toBase62Fixed = (n: number | bigint, width: number): string => {
  const value = typeof n === "bigint" ? n : BigInt(n)
  if (value < 0n) throw new RangeError("toBase62Fixed: negative value")
  return bigintToBase62(value, width)
}

const bigintToBase62 = (input: bigint, width: number): string => {
  let value = input
  let out = ""
  while (value > 0n) {
    out = BASE62_ALPHABET[Number(value % BASE)] + out
    value /= BASE
  }
  if (out.length > width) throw new RangeError(`value does not fit in ${width} base62 characters`)
  return out.padStart(width, "0")
}

/** Base62 text → integer; `undefined` when a character is outside the alphabet. */
export const fromBase62 = (text: string): bigint | undefined => {
  let value = 0n
  for (const char of text) {
    const digit = BASE62_ALPHABET.indexOf(char)
    if (digit < 0) return undefined
    value = value * BASE + BigInt(digit)
  }
  return value
}

export const isBase62 = (text: string): boolean => /^[0-9A-Za-z]*$/.test(text)

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

/** Big-endian bytes → base62, left-padded with `0` to `width` characters. */
export const bytesToBase62 = (bytes: Uint8Array, width: number): string => {
  let value = 0n
  for (const byte of bytes) value = (value << 8n) | BigInt(byte)
  return bigintToBase62(value, width)
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

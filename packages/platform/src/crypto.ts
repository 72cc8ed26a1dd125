/**
 * Hashing, MACs and comparisons. `node:crypto` rather than Web Crypto here because these sit on
 * hot request paths (key digests, principal checks) and the synchronous calls cost no promise
 * round trip; randomness comes from the web-standard `crypto.getRandomValues`.
 */
import { createHash, createHmac } from "node:crypto"

export type BinaryLike = string | Uint8Array

export const sha256Hex = (data: BinaryLike): string => createHash("sha256").update(data).digest("hex")

export const hmacSha256 = (key: BinaryLike, data: BinaryLike): Uint8Array =>
  new Uint8Array(createHmac("sha256", key).update(data).digest())

export const hmacSha256Hex = (key: BinaryLike, data: BinaryLike): string =>
  createHmac("sha256", key).update(data).digest("hex")

/**
 * `X-Service-Signature` of a signed post (webhook deliveries, the bridge's outbound messages):
 * `sha256=<lowercase hex HMAC-SHA256>` over the exact body bytes, keyed with the secret string as
 * registered (docs/contract.md §6). Synchronous, for the delivery hot path; receivers use @parley/webhooks.
 */
export const deliverySignature = (body: string, secret: string): string => `sha256=${hmacSha256Hex(secret, body)}`

const encoder = new TextEncoder()
const toBytes = (value: BinaryLike): Uint8Array => (typeof value === "string" ? encoder.encode(value) : value)

/**
 * Compares in time that depends only on the lengths, never on where the first difference is.
 * Strings are compared as their UTF-8 bytes.
 */
export const constantTimeEqual = (a: BinaryLike, b: BinaryLike): boolean => {
  const left = toBytes(a)
  const right = toBytes(b)
  const length = Math.max(left.length, right.length)
  let difference = left.length ^ right.length
  for (let i = 0; i < length; i++) {
    difference |= (left[i] ?? 0) ^ (right[i] ?? 0)
  }
  return difference === 0
}

// CRC-32 (IEEE 802.3, the zlib/PNG polynomial), table-driven.
export const base64UrlEncode = (bytes: Uint8Array): string => Buffer.from(bytes).toString("base64url")

/** Strict base64url decoding: `undefined` for any character outside the alphabet. */
export const base64UrlDecode = (text: string): Uint8Array | undefined => {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return undefined
  return new Uint8Array(Buffer.from(text, "base64url"))
}

/**
 * HMAC-SHA256 signatures over the raw body, with Web Crypto only so that the same code runs on
 * Node, Deno, Bun and edge runtimes. The key is the secret string exactly as registered (its UTF-8
 * bytes — not base64-decoded), the message is the body bytes exactly as sent.
 */

const encoder = new TextEncoder()
const SIGNATURE = /^sha256=([0-9a-fA-F]{64})$/

/** The body as bytes: strings are encoded as UTF-8, bytes are used as they are. */
export const bodyBytes = (rawBody: string | Uint8Array): Uint8Array<ArrayBuffer> =>
  typeof rawBody === "string" ? encoder.encode(rawBody) : new Uint8Array(rawBody)

const hmacSha256 = async (secret: string, message: Uint8Array<ArrayBuffer>): Promise<Uint8Array> => {
  // Web Crypto refuses an empty HMAC key with an obscure error; say what is actually wrong.
  if (typeof secret !== "string" || secret === "") throw new TypeError("The webhook secret must be a non-empty string")
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ])
  return new Uint8Array(await crypto.subtle.sign("HMAC", key, message))
}

const toHex = (bytes: Uint8Array): string => {
  let hex = ""
  for (const byte of bytes) hex += byte.toString(16).padStart(2, "0")
  return hex
}

const fromHex = (hex: string): Uint8Array => {
  const bytes = new Uint8Array(hex.length / 2)
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16)
  return bytes
}

/** Compares two byte strings in time that depends only on their lengths, never on their contents. */
export const constantTimeEqual = (a: Uint8Array, b: Uint8Array): boolean => {
  if (a.length !== b.length) return false
  let difference = 0
  for (let i = 0; i < a.length; i++) difference |= (a[i] as number) ^ (b[i] as number)
  return difference === 0
}

/** The `X-Service-Signature` value for a body: `sha256=<lowercase hex HMAC-SHA256>`. */
export const sign = async (rawBody: string | Uint8Array, secret: string): Promise<string> =>
  `sha256=${toHex(await hmacSha256(secret, bodyBytes(rawBody)))}`

/**
 * True when `header` is a well-formed `sha256=<hex>` signature of exactly these bytes under
 * `secret`. The digest is compared in constant time; nothing of the body is parsed.
 */
export const signatureMatches = async (
  rawBody: string | Uint8Array,
  header: string,
  secret: string,
): Promise<boolean> => {
  const match = SIGNATURE.exec(header.trim())
  if (match === null) return false
  const expected = await hmacSha256(secret, bodyBytes(rawBody))
  return constantTimeEqual(expected, fromHex(match[1] as string))
}

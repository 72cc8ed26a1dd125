/**
 * Standard Webhooks (https://www.standardwebhooks.com/) signatures, with Web Crypto only:
 * `webhook-signature: v1,<base64 HMAC-SHA256(key, "<webhook-id>.<webhook-timestamp>.<body>")>`, keyed
 * with the secret's decoded bytes. Parley sends them beside `X-Service-Signature` (docs/contract.md §6);
 * during the 24 hours after a rotation a second `v1,` signature by the previous key follows the first.
 *
 * The reading of the headers follows the `standardwebhooks` npm package exactly, so that the two
 * accept and refuse the same deliveries (test/e2e/standard-webhooks-agreement.test.ts): the
 * timestamp is read as `parseInt` reads it, the signature list is split on single spaces, only `v1`
 * entries count, and each is compared with the expected base64 text in constant time.
 */
import { bodyBytes, constantTimeEqual } from "./signature.ts"

/** The Standard Webhooks form of a secret: `whsec_` and the standard base64 of its bytes. */
export const SecretPrefix = "whsec_"

const encoder = new TextEncoder()
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/

/**
 * The key bytes of a secret given as `whsec_<base64>` or as registered with Parley (standard or
 * URL-safe base64, padding optional). Anything else is a programming error, not a bad delivery.
 */
export const secretBytes = (secret: string): Uint8Array<ArrayBuffer> => {
  if (typeof secret !== "string" || secret === "") throw new TypeError("The webhook secret must be a non-empty string")
  const text = secret.startsWith(SecretPrefix) ? secret.slice(SecretPrefix.length) : secret
  const unpadded = text.replace(/=+$/, "")
  if (!BASE64.test(text) || unpadded.length % 4 === 1) {
    throw new TypeError("The webhook secret must be base64, as registered, or its whsec_ form")
  }
  const padded = unpadded
    .replaceAll("-", "+")
    .replaceAll("_", "/")
    .padEnd(Math.ceil(unpadded.length / 4) * 4, "=")
  const binary = atob(padded)
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}

const toBase64 = (bytes: Uint8Array): string => {
  let binary = ""
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary)
}

/** `<id>.<timestamp>.` followed by the body bytes: what a Standard Webhooks signature covers. */
const signedContent = (id: string, timestamp: number, body: Uint8Array): Uint8Array<ArrayBuffer> => {
  const prefix = encoder.encode(`${id}.${timestamp}.`)
  const content = new Uint8Array(prefix.length + body.length)
  content.set(prefix)
  content.set(body, prefix.length)
  return content
}

const hmacBase64 = async (key: Uint8Array<ArrayBuffer>, content: Uint8Array<ArrayBuffer>): Promise<string> => {
  const cryptoKey = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"])
  return toBase64(new Uint8Array(await crypto.subtle.sign("HMAC", cryptoKey, content)))
}

/** What a delivery says about itself in the Standard Webhooks headers. */
export interface StandardSigned {
  /** `webhook-id`: Parley's delivery id, the same on every attempt. */
  readonly id: string
  /** `webhook-timestamp`: Unix seconds at which the attempt was signed. */
  readonly timestamp: number
}

/**
 * A `webhook-signature` entry, `v1,<base64>`, for a body (for tests and senders). `secret` in
 * either form: `whsec_…` or as registered.
 */
export const standardSignature = async (
  rawBody: string | Uint8Array,
  signed: StandardSigned,
  secret: string,
): Promise<string> =>
  `v1,${await hmacBase64(secretBytes(secret), signedContent(signed.id, signed.timestamp, bodyBytes(rawBody)))}`

/** `webhook-timestamp` as the Standard Webhooks libraries read it: `parseInt`, NaN when it is not a number. */
export const parseStandardTimestamp = (header: string): number => Number.parseInt(header, 10)

/**
 * True when one of the `v1` entries of `signatureHeader` is the signature of these bytes under
 * `secret` for this id and (parsed) timestamp. Every entry is compared in constant time.
 */
export const standardSignatureMatches = async (
  rawBody: string | Uint8Array,
  signed: StandardSigned,
  signatureHeader: string,
  secret: string,
): Promise<boolean> => {
  const expected = encoder.encode(
    await hmacBase64(secretBytes(secret), signedContent(signed.id, signed.timestamp, bodyBytes(rawBody))),
  )
  let matched = false
  for (const entry of signatureHeader.split(" ")) {
    const [version, signature] = entry.split(",")
    if (version !== "v1" || signature === undefined) continue
    // No early exit: every entry costs the same whichever one matches.
    if (constantTimeEqual(encoder.encode(signature), expected)) matched = true
  }
  return matched
}

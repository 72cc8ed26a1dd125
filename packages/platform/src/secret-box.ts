/**
 * Encryption of secrets at rest (webhook secrets, channel tokens) under `PARLEY_SECRET_KEY`:
 * AES-256-GCM with a fresh random 96-bit IV per message, written as
 * `v1.<iv>.<ciphertext>.<tag>` (base64url parts). The version prefix leaves room for key rotation.
 */
import { createCipheriv, createDecipheriv, createSecretKey, type KeyObject } from "node:crypto"
import { Data, Effect } from "effect"
import { base64UrlDecode, base64UrlEncode } from "./crypto.ts"

export class SecretBoxError extends Data.TaggedError("SecretBoxError")<{
  readonly reason: "malformed" | "unsupported_version" | "authentication_failed"
}> {
  override get message(): string {
    return `Sealed secret cannot be opened: ${this.reason}`
  }
}

export class InvalidSecretKey extends Error {
  override readonly name = "InvalidSecretKey"
}

const VERSION = "v1"
const IV_BYTES = 12
const TAG_BYTES = 16

/** Standard or URL-safe base64, padding optional. */
const decodeAnyBase64 = (text: string): Uint8Array | undefined => {
  const trimmed = text.trim()
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(trimmed)) return undefined
  return base64UrlDecode(trimmed.replace(/=+$/, "").replaceAll("+", "-").replaceAll("/", "_"))
}

export class SecretBox {
  // A KeyObject made once: building one from raw bytes on every call dominated seal/open time.
  readonly #key: KeyObject

  private constructor(key: Uint8Array) {
    this.#key = createSecretKey(key)
  }

  /** A box for a 32-byte key given in base64 (standard or URL-safe); throws for any other length. */
  static fromBase64Key(base64Key: string): SecretBox {
    const key = decodeAnyBase64(base64Key)
    if (key === undefined || key.length !== 32) {
      throw new InvalidSecretKey("PARLEY_SECRET_KEY must be 32 bytes, base64-encoded")
    }
    return new SecretBox(key)
  }

  seal(plaintext: string | Uint8Array): string {
    const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES))
    const cipher = createCipheriv("aes-256-gcm", this.#key, iv)
    const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()])
    const tag = cipher.getAuthTag()
    return [VERSION, base64UrlEncode(iv), base64UrlEncode(ciphertext), base64UrlEncode(tag)].join(".")
  }

  /** The plaintext as UTF-8; throws `SecretBoxError` when the value was altered or is not ours. */
  open(sealed: string): string {
    return new TextDecoder().decode(this.openBytes(sealed))
  }

  openBytes(sealed: string): Uint8Array {
    const parts = sealed.split(".")
    if (parts.length !== 4) throw new SecretBoxError({ reason: "malformed" })
    const [version, ivText, ciphertextText, tagText] = parts as [string, string, string, string]
    if (version !== VERSION) throw new SecretBoxError({ reason: "unsupported_version" })
    const iv = base64UrlDecode(ivText)
    const ciphertext = base64UrlDecode(ciphertextText)
    const tag = base64UrlDecode(tagText)
    if (iv?.length !== IV_BYTES || ciphertext === undefined || tag?.length !== TAG_BYTES) {
      throw new SecretBoxError({ reason: "malformed" })
    }
    try {
      const decipher = createDecipheriv("aes-256-gcm", this.#key, iv, { authTagLength: TAG_BYTES })
      decipher.setAuthTag(tag)
      return new Uint8Array(Buffer.concat([decipher.update(ciphertext), decipher.final()]))
    } catch {
      throw new SecretBoxError({ reason: "authentication_failed" })
    }
  }

  /** `open` as an Effect whose failure is the typed `SecretBoxError`. */
  openEffect(sealed: string): Effect.Effect<string, SecretBoxError> {
    return Effect.try({
      try: () => this.open(sealed),
      catch: (error) =>
        error instanceof SecretBoxError ? error : new SecretBoxError({ reason: "authentication_failed" }),
    })
  }
}

/**
 * Signing an attempt (docs/contract.md §6): `X-Service-Signature` keyed with the secret string as
 * registered, and the Standard Webhooks headers — `webhook-signature` keyed with the secret's
 * decoded bytes over `<webhook-id>.<webhook-timestamp>.<body>`, followed during a rotation's window
 * by the previous key's. This runs for every attempt, so the keys are made once per webhook secret
 * (`Keyring`), not per attempt: an HMAC from a ready `KeyObject` costs ~3 µs here.
 */
import { createHmac, createSecretKey, type KeyObject } from "node:crypto"
import { Context, Layer } from "effect"

/** One secret, ready to sign both ways. */
export interface SigningKey {
  /** `X-Service-Signature`'s key: the secret string as registered (its UTF-8 bytes). */
  readonly registered: KeyObject
  /** `webhook-signature`'s key: the 32 bytes the secret decodes to (standard or URL-safe base64). */
  readonly decoded: KeyObject
}

export const signingKeyOf = (secret: string): SigningKey => ({
  registered: createSecretKey(Buffer.from(secret, "utf8")),
  // Node's base64 decoder reads both alphabets, padded or not.
  decoded: createSecretKey(Buffer.from(secret, "base64")),
})

/** What a webhook signs with: its key, and during a rotation's window the previous one. */
export interface WebhookKeys {
  readonly current: SigningKey
  readonly previous: SigningKey | undefined
  /** Until when (ms since the epoch, exclusive) `previous` signs too. */
  readonly previousUntil: number
}

export interface SignatureHeaders {
  readonly "x-service-signature": string
  readonly "webhook-id": string
  readonly "webhook-timestamp": string
  readonly "webhook-signature": string
}

/** The signature headers of one attempt of `deliveryId` with this body, signed at `nowMs`. */
export const signatureHeaders = (
  keys: WebhookKeys,
  deliveryId: string,
  body: string,
  nowMs: number,
): SignatureHeaders => {
  const timestamp = Math.floor(nowMs / 1000)
  const signed = `${deliveryId}.${timestamp}.${body}`
  let signature = `v1,${createHmac("sha256", keys.current.decoded).update(signed).digest("base64")}`
  if (keys.previous !== undefined && nowMs < keys.previousUntil) {
    signature += ` v1,${createHmac("sha256", keys.previous.decoded).update(signed).digest("base64")}`
  }
  return {
    "x-service-signature": `sha256=${createHmac("sha256", keys.current.registered).update(body).digest("hex")}`,
    "webhook-id": deliveryId,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": signature,
  }
}

/** A webhook's secrets as its projection row holds them: sealed. */
export interface SealedSecrets {
  readonly sealed: string
  readonly previousSealed: string | null
  /** ms since the epoch; ignored without `previousSealed`. */
  readonly previousUntil: number
}

/**
 * The keys of each webhook, opened and made once per secret: a webhook's entry is rebuilt only when
 * its sealed secrets change (a rotation, or the previous key's window ending), so the old keys are
 * dropped with it. Bounded: cleared when it holds more webhooks than any dispatcher serves at once.
 * `keysOf` runs for every projection row read, so it answers plainly, not as an Effect.
 */
export class Keyring extends Context.Service<
  Keyring,
  { readonly keysOf: (webhookId: string, secrets: SealedSecrets) => WebhookKeys }
>()("@parley/dispatcher/Keyring") {
  /** A keyring that opens sealed secrets with `open` (the service's `SecretBox`). */
  static readonly layer = (open: (sealed: string) => string) =>
    Layer.sync(Keyring, () => Keyring.of(new OpenedKeys(open)))
}

class OpenedKeys {
  readonly #open: (sealed: string) => string
  readonly #byWebhook = new Map<string, { readonly secrets: SealedSecrets; readonly keys: WebhookKeys }>()

  constructor(open: (sealed: string) => string) {
    this.#open = open
  }

  keysOf(webhookId: string, secrets: SealedSecrets): WebhookKeys {
    const held = this.#byWebhook.get(webhookId)
    if (
      held !== undefined &&
      held.secrets.sealed === secrets.sealed &&
      held.secrets.previousSealed === secrets.previousSealed &&
      held.secrets.previousUntil === secrets.previousUntil
    ) {
      return held.keys
    }
    const keys: WebhookKeys = {
      current: signingKeyOf(this.#open(secrets.sealed)),
      previous: secrets.previousSealed === null ? undefined : signingKeyOf(this.#open(secrets.previousSealed)),
      previousUntil: secrets.previousSealed === null ? 0 : secrets.previousUntil,
    }
    if (this.#byWebhook.size >= 10_000) this.#byWebhook.clear()
    this.#byWebhook.set(webhookId, { secrets, keys })
    return keys
  }
}

/**
 * Rotation without downtime (docs/contract.md §5): for 24 hours after a PUT that changes the secret, the
 * key in use just before it keeps signing `webhook-signature` beside the new one, so receivers can
 * roll over without dropping a delivery. A second rotation inside the window replaces it: never
 * more than two keys. The registry keeps the previous key sealed like the current one, and forgets
 * it once the window ends (`forgetExpiredPreviousSecrets`, every `PreviousSecretSweepEvery`); the
 * dispatcher stops signing with it at the expiry instant itself, whenever the sweep runs.
 */
import { timingSafeEqual } from "node:crypto"

/** How long the previous key keeps signing after a rotation. */
export const PreviousSecretWindowMs = 24 * 60 * 60 * 1000

/** How often expired previous keys are erased (and the webhooks' state published without them). */
export const PreviousSecretSweepEvery = "1 minute"

/**
 * The 32 bytes a secret stands for: standard or URL-safe base64, padding optional (as `checkSecret`
 * accepts). Node's base64 decoder reads both alphabets and needs no padding.
 */
export const secretBytes = (secret: string): Buffer => Buffer.from(secret, "base64")

/** The Standard Webhooks form of a secret: `whsec_` and the standard base64 of its bytes. */
export const signingSecretOf = (secret: string): string => `whsec_${secretBytes(secret).toString("base64")}`

/** True when two secrets stand for the same key (a PUT of the same key in another alphabet rotates nothing). */
export const sameKey = (a: string, b: string): boolean => {
  const left = secretBytes(a)
  const right = secretBytes(b)
  return left.length === right.length && timingSafeEqual(left, right)
}

import { createHash } from "node:crypto"
import { DeliveryId, type EventId, type WebhookId } from "@parley/contracts"
import { bytesToBase62 } from "@parley/platform"

/**
 * The delivery id of an (event, webhook) pair: derived, not random, so that fanning an event out
 * again after a crash produces the same ids and receivers can deduplicate on X-Service-Delivery.
 * 128 bits of SHA-256 in 22 base62 characters, the shape of every other Parley id.
 */
export const deliveryIdFor = (eventId: EventId, webhookId: WebhookId): DeliveryId => {
  const digest = createHash("sha256").update(`${eventId}\u0000${webhookId}`).digest()
  return DeliveryId.make(`dlv_${bytesToBase62(digest.subarray(0, 16), 22)}`)
}

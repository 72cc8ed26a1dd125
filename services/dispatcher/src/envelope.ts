import { createHmac } from "node:crypto"
import type { DeliveryRecord } from "@parley/contracts"

/**
 * The exact bytes POSTed: `{"event","timestamp","data"}` in that order and nothing else. Built the
 * same way on every attempt from the delivery record, so every attempt sends the same body.
 */
export const envelopeBody = (delivery: DeliveryRecord): string =>
  JSON.stringify({ event: delivery.event, timestamp: delivery.timestamp, data: delivery.data })

/** `sha256=<lowercase hex HMAC-SHA256>` keyed with the secret string as registered, over the body bytes. */
export const signatureOf = (body: string, secret: string): string =>
  `sha256=${createHmac("sha256", secret).update(body, "utf8").digest("hex")}`

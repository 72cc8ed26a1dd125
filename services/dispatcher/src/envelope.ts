import type { DeliveryRecord } from "@parley/contracts"

/**
 * The exact bytes POSTed: `{"event","timestamp","data"}` in that order and nothing else. Built the
 * same way on every attempt from the delivery record, so every attempt sends the same body.
 */
export const envelopeBody = (delivery: DeliveryRecord): string =>
  JSON.stringify({ event: delivery.event, timestamp: delivery.timestamp, data: delivery.data })

import { type DeliveryRecord, envelopeBodyOf } from "@parley/contracts"

/**
 * The exact bytes POSTed: `{"event","timestamp","data"}` in that order and nothing else. Built the
 * same way on every attempt from the delivery record, so every attempt sends the same body.
 */
export const envelopeBody = (delivery: DeliveryRecord): string =>
  envelopeBodyOf(delivery.event, delivery.timestamp, JSON.stringify(delivery.data))

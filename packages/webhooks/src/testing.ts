import { EventSamples } from "./catalogue.ts"
import type { WebhookEnvelopeOf } from "./envelope.ts"
import type { EventData, EventName } from "./events.ts"

/**
 * One valid `data` per event, for tests of anything that produces, carries or receives events
 * (`@parley/webhooks/testing`): the catalogue's documented samples.
 */
export const sampleEventData: { readonly [E in EventName]: EventData<E> } = EventSamples

/** A valid envelope of `event` at `timestamp` (default a fixed instant). */
export const sampleEnvelope = <E extends EventName>(
  event: E,
  timestamp = "2026-11-22T09:30:00.000Z",
): WebhookEnvelopeOf<E> => ({ event, timestamp, data: sampleEventData[event] }) as WebhookEnvelopeOf<E>

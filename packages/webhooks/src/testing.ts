import type { WebhookEnvelopeOf } from "./envelope.ts"
import type { EventData, EventName } from "./events.ts"

/**
 * One valid `data` per event, for tests of anything that produces, carries or receives events
 * (`@parley/webhooks/testing`). Shaped as real traffic: digits-only numbers, provider ids.
 */
export const sampleEventData: { readonly [E in EventName]: EventData<E> } = {
  "message.inbound": {
    from: "14155550100",
    name: "Dana Scully",
    type: "text",
    text: "Hi, can someone call me back?",
    messageId: "wamid.HBgLMTQxNTU1NTAxMDAVAgASGBQzQUZCQjY2",
  },
  "message.status": { messageId: "wamid.HBgLMTQxNTU1NTAxMDAVAgARGBI5", status: "delivered", recipient: "14155550100" },
  "lead.created": { phone: "14155550100", name: "Dana", type: "CALLBACK_REQUESTED", booking: null },
  "lead.updated": {
    phone: "14155550100",
    name: "Dana",
    type: "BOOKING",
    booking: { date: "2026-11-24", time: "09:30", service: "consultation" },
  },
  "campaign.completed": {
    campaignId: "cmp_4tQ2yK8pX1mN7bV3cZ9wL0",
    name: "November offer",
    totalRecipients: 3,
    sent: 2,
    failed: 1,
  },
  "template.status": {
    name: "order_update",
    language: "en_US",
    metaTemplateId: "1234567890",
    status: "REJECTED",
    reason: "INVALID_FORMAT",
  },
  "template.quality": {
    name: "order_update",
    language: "en_US",
    metaTemplateId: null,
    qualityScore: "YELLOW",
    previousQualityScore: "",
  },
  "template.category": {
    name: "order_update",
    language: "en_US",
    metaTemplateId: "1234567890",
    category: "MARKETING",
    previousCategory: "UTILITY",
  },
}

/** A valid envelope of `event` at `timestamp` (default a fixed instant). */
export const sampleEnvelope = <E extends EventName>(
  event: E,
  timestamp = "2026-11-22T09:30:00.000Z",
): WebhookEnvelopeOf<E> => ({ event, timestamp, data: sampleEventData[event] }) as WebhookEnvelopeOf<E>

import type { EventData, EventName } from "./events.ts"

/** Where an event can come from, as the specification's catalogue words it. */
export type EventChannels = "both channels" | "cloud channel only"

export interface EventCatalogueEntry<E extends EventName = EventName> {
  readonly name: E
  readonly description: string
  readonly channels: EventChannels
  /**
   * A documented example of the event's `data`, shaped as real traffic (digits-only numbers,
   * provider ids): what `GET /api/org/webhook-events` shows and a test delivery
   * (`POST /api/org/webhooks/:id/test`) sends.
   */
  readonly sample: EventData<E>
}

/** One valid `data` per event: the catalogue's samples. */
export const EventSamples: { readonly [E in EventName]: EventData<E> } = {
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

const entry = <E extends EventName>(name: E, description: string, channels: EventChannels): EventCatalogueEntry<E> => ({
  name,
  description,
  channels,
  sample: EventSamples[name],
})

/**
 * The event catalogue that `GET /api/org/webhook-events` answers and that a webhook created without
 * `events` subscribes to. Descriptions are the specification's "fires when" texts.
 */
export const EventCatalogue: ReadonlyArray<{ readonly [E in EventName]: EventCatalogueEntry<E> }[EventName]> = [
  entry("message.inbound", "A customer sent a message", "both channels"),
  entry("message.status", "A sent message moved to sent, delivered, read or failed", "both channels"),
  entry("lead.created", "The assistant captured a new lead from a conversation", "both channels"),
  entry("lead.updated", "A person already recorded as a lead came back with more detail", "both channels"),
  entry("campaign.completed", "Every recipient of a broadcast has been attempted", "both channels"),
  entry(
    "template.status",
    "The template provider approved, rejected, paused or disabled a template",
    "cloud channel only",
  ),
  entry("template.quality", "The template provider re-scored a template's quality", "cloud channel only"),
  entry("template.category", "The template provider moved a template between categories", "cloud channel only"),
]

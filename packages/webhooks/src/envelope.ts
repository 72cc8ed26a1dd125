import { Schema } from "effect"
import { EventDataSchemas, type EventName } from "./events.ts"
import { IsoTimestamp } from "./primitives.ts"

/**
 * The body of every delivery: exactly `{ event, timestamp, data }`, a union discriminated on
 * `event` so that narrowing on the name types `data`.
 */
const envelopeOf = <E extends EventName>(event: E) =>
  Schema.Struct({
    event: Schema.Literal(event),
    /** When the event happened (ISO 8601 UTC, milliseconds) — not when this attempt was made. */
    timestamp: IsoTimestamp,
    data: EventDataSchemas[event],
  })

export const MessageInboundEvent = envelopeOf("message.inbound")
export const MessageStatusEvent = envelopeOf("message.status")
export const LeadCreatedEvent = envelopeOf("lead.created")
export const LeadUpdatedEvent = envelopeOf("lead.updated")
export const CampaignCompletedEvent = envelopeOf("campaign.completed")
export const TemplateStatusEvent = envelopeOf("template.status")
export const TemplateQualityEvent = envelopeOf("template.quality")
export const TemplateCategoryEvent = envelopeOf("template.category")

export const WebhookEnvelope = Schema.Union([
  MessageInboundEvent,
  MessageStatusEvent,
  LeadCreatedEvent,
  LeadUpdatedEvent,
  CampaignCompletedEvent,
  TemplateStatusEvent,
  TemplateQualityEvent,
  TemplateCategoryEvent,
]).annotate({ identifier: "WebhookEnvelope" })

/** A decoded delivery body; `switch (envelope.event)` narrows `envelope.data`. */
export type WebhookEnvelope = typeof WebhookEnvelope.Type

/** The envelope of one named event. */
export type WebhookEnvelopeOf<E extends EventName> = Extract<WebhookEnvelope, { readonly event: E }>

/** The envelope schema of one named event. */
export const envelopeSchemaFor = <E extends EventName>(event: E) => envelopeSchemas[event]

const envelopeSchemas = {
  "message.inbound": MessageInboundEvent,
  "message.status": MessageStatusEvent,
  "lead.created": LeadCreatedEvent,
  "lead.updated": LeadUpdatedEvent,
  "campaign.completed": CampaignCompletedEvent,
  "template.status": TemplateStatusEvent,
  "template.quality": TemplateQualityEvent,
  "template.category": TemplateCategoryEvent,
} as const

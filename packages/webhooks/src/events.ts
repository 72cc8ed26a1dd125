import { Schema } from "effect"
import { CalendarDate, ClockTime, Count, PhoneDigits } from "./primitives.ts"

/**
 * The `data` of each of the eight events, field for field as the specification's Events section
 * defines them. Closed value lists are literals where the contract closes them (message and
 * template status); lists the specification leaves open ("and further kinds", "and others") and
 * the provider's quality scores and categories, which the provider may extend, stay strings so that
 * a new value never makes a receiver refuse a genuine delivery.
 */

export const MessageInboundData = Schema.Struct({
  /** Customer number, digits only. */
  from: PhoneDigits,
  /** Customer's profile name; may be empty. */
  name: Schema.String,
  /** `text`, `image`, `video`, `document`, `audio`, `location`, and further kinds. */
  type: Schema.String,
  /** Body or caption; empty for media without a caption. */
  text: Schema.String,
  /** Provider's message id. */
  messageId: Schema.String,
}).annotate({ identifier: "MessageInboundData" })
export type MessageInboundData = typeof MessageInboundData.Type

export const MessageStatusValue = Schema.Literals(["sent", "delivered", "read", "failed"])
export type MessageStatusValue = typeof MessageStatusValue.Type

export const MessageStatusData = Schema.Struct({
  /** Provider id returned when the message was sent. */
  messageId: Schema.String,
  status: MessageStatusValue,
  /** Number the message was addressed to, digits only. */
  recipient: PhoneDigits,
}).annotate({ identifier: "MessageStatusData" })
export type MessageStatusData = typeof MessageStatusData.Type

export const Booking = Schema.Struct({
  date: CalendarDate,
  time: ClockTime,
  service: Schema.String,
}).annotate({ identifier: "Booking" })
export type Booking = typeof Booking.Type

const leadFields = {
  /** Lead's number, digits only. */
  phone: PhoneDigits,
  /** Name extracted by the assistant; may be empty. */
  name: Schema.String,
  /** `CALLBACK_REQUESTED`, `DEMO_REQUESTED`, `BOOKING`, `GENERAL_INQUIRY`, and others. */
  type: Schema.String,
  /** The booking when one was made, else null. */
  booking: Schema.NullOr(Booking),
}

export const LeadCreatedData = Schema.Struct(leadFields).annotate({ identifier: "LeadCreatedData" })
export type LeadCreatedData = typeof LeadCreatedData.Type

export const LeadUpdatedData = Schema.Struct(leadFields).annotate({ identifier: "LeadUpdatedData" })
export type LeadUpdatedData = typeof LeadUpdatedData.Type

export const CampaignCompletedData = Schema.Struct({
  campaignId: Schema.String,
  /** The campaign's name. */
  name: Schema.String,
  totalRecipients: Count,
  sent: Count,
  failed: Count,
})
  .check(
    Schema.makeFilter((c) => c.sent + c.failed === c.totalRecipients, {
      expected: "sent + failed = totalRecipients",
    }),
  )
  .annotate({ identifier: "CampaignCompletedData" })
export type CampaignCompletedData = typeof CampaignCompletedData.Type

const templateFields = {
  /** Template name. */
  name: Schema.String,
  /** Language code, e.g. `en_US`. */
  language: Schema.String,
  /** The provider's template id, null when the provider gave none. */
  metaTemplateId: Schema.NullOr(Schema.String),
}

export const TemplateStatusValue = Schema.Literals(["APPROVED", "REJECTED", "PAUSED", "DISABLED"])
export type TemplateStatusValue = typeof TemplateStatusValue.Type

export const TemplateStatusData = Schema.Struct({
  ...templateFields,
  status: TemplateStatusValue,
  /** The provider's reason on REJECTED, `""` otherwise. */
  reason: Schema.String,
}).annotate({ identifier: "TemplateStatusData" })
export type TemplateStatusData = typeof TemplateStatusData.Type

export const TemplateQualityData = Schema.Struct({
  ...templateFields,
  /** `GREEN`, `YELLOW`, `RED`. */
  qualityScore: Schema.String,
  /** The earlier score, `""` when unknown. */
  previousQualityScore: Schema.String,
}).annotate({ identifier: "TemplateQualityData" })
export type TemplateQualityData = typeof TemplateQualityData.Type

export const TemplateCategoryData = Schema.Struct({
  ...templateFields,
  /** `MARKETING`, `UTILITY`, `AUTHENTICATION`. */
  category: Schema.String,
  /** The earlier category, `""` when unknown. */
  previousCategory: Schema.String,
}).annotate({ identifier: "TemplateCategoryData" })
export type TemplateCategoryData = typeof TemplateCategoryData.Type

/** Every event's `data` schema by event name: the single source from which the unions are built. */
export const EventDataSchemas = {
  "message.inbound": MessageInboundData,
  "message.status": MessageStatusData,
  "lead.created": LeadCreatedData,
  "lead.updated": LeadUpdatedData,
  "campaign.completed": CampaignCompletedData,
  "template.status": TemplateStatusData,
  "template.quality": TemplateQualityData,
  "template.category": TemplateCategoryData,
} as const

export type EventDataSchemas = typeof EventDataSchemas
export type EventName = keyof EventDataSchemas
/** The `data` type of one event. */
export type EventData<E extends EventName = EventName> = EventDataSchemas[E]["Type"]

/** Every event name, in catalogue order. */
export const EventNames = Object.keys(EventDataSchemas) as ReadonlyArray<EventName>

export const EventName = Schema.Literals([
  "message.inbound",
  "message.status",
  "lead.created",
  "lead.updated",
  "campaign.completed",
  "template.status",
  "template.quality",
  "template.category",
]).annotate({ description: "The name of a webhook event" })

/** True when `name` is one of the eight event names. */
export const isEventName = (name: unknown): name is EventName =>
  typeof name === "string" && Object.hasOwn(EventDataSchemas, name)

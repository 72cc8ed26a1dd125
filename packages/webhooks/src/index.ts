/**
 * @parley/webhooks — verify, decode and deduplicate Parley webhook deliveries.
 * Web Crypto and Effect only: runs unchanged on Node, Deno, Bun and edge runtimes.
 */
export { EventCatalogue, type EventCatalogueEntry, type EventChannels } from "./catalogue.ts"
export {
  type ClaimState,
  type DedupeOutcome,
  type Deduplicator,
  type DeduplicatorOptions,
  type DeliveryStore,
  MemoryDeliveryStore,
  makeDeduplicator,
} from "./dedupe.ts"
export {
  CampaignCompletedEvent,
  envelopeSchemaFor,
  LeadCreatedEvent,
  LeadUpdatedEvent,
  MessageInboundEvent,
  MessageStatusEvent,
  TemplateCategoryEvent,
  TemplateQualityEvent,
  TemplateStatusEvent,
  WebhookEnvelope,
  type WebhookEnvelopeOf,
} from "./envelope.ts"
export {
  InvalidSignature,
  isVerificationError,
  MalformedBody,
  MissingHeader,
  recommendedStatus,
  TimestampOutsideTolerance,
  UnknownEvent,
  type VerificationError,
} from "./errors.ts"
export {
  Booking,
  CampaignCompletedData,
  type EventData,
  EventDataSchemas,
  EventName,
  EventNames,
  isEventName,
  LeadCreatedData,
  LeadUpdatedData,
  MessageInboundData,
  MessageStatusData,
  MessageStatusValue,
  TemplateCategoryData,
  TemplateQualityData,
  TemplateStatusData,
  TemplateStatusValue,
} from "./events.ts"
export { DeliveryHeaders, type HeadersLike, headerValue } from "./headers.ts"
export { formatPath, type Issue, issuesOf, issuesOfError } from "./issues.ts"
export { CalendarDate, ClockTime, Count, IsoTimestamp, PhoneDigits } from "./primitives.ts"
export { constantTimeEqual, sign, signatureMatches } from "./signature.ts"
export { runToPromise, type VerifyOptions, verify, verifyEffect } from "./verify.ts"

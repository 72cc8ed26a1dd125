/**
 * @parley/webhooks — verify, decode and deduplicate Parley webhook deliveries.
 * Web Crypto and Effect only: runs unchanged on Node, Deno, Bun and edge runtimes. Verifies Parley's
 * own signature and the Standard Webhooks headers (`webhook-id`, `webhook-timestamp`,
 * `webhook-signature`) that every delivery also carries.
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
export { DeliveryHeaders, type HeadersLike, headerValue, StandardHeaders } from "./headers.ts"
export { formatPath, type Issue, issuesOf, issuesOfError } from "./issues.ts"
export { CalendarDate, ClockTime, Count, IsoTimestamp, PhoneDigits } from "./primitives.ts"
export { constantTimeEqual, sign, signatureMatches } from "./signature.ts"
export {
  SecretPrefix,
  type StandardSigned,
  secretBytes,
  standardSignature,
  standardSignatureMatches,
} from "./standard.ts"
export {
  DefaultSignatureToleranceSeconds,
  runToPromise,
  type VerifyOptions,
  verify,
  verifyEffect,
} from "./verify.ts"

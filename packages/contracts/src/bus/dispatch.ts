import { Schema } from "effect"
import { EventDataSchemas, EventName } from "../events.ts"
import { DeliveryId, EventId, OrgId, WebhookId } from "../ids.ts"
import { IsoTimestamp } from "../values.ts"

/** A logged response body is cut to this many characters (docs/contract.md §6 reads at most 64 KiB of it). */
export const MaxLoggedResponseChars = 64 * 1024

/**
 * The exact bytes POSTed to a receiver: `{"event","timestamp","data"}` in that order and nothing
 * else (docs/contract.md §6), from the event's data as JSON text — the dispatcher sends it, the registry
 * shows it in an attempt's detail.
 */
export const envelopeBodyOf = (event: string, timestamp: string, dataJson: string): string =>
  `{"event":${JSON.stringify(event)},"timestamp":${JSON.stringify(timestamp)},"data":${dataJson}}`

/** Which attempt of a delivery: at most three (docs/contract.md §6). */
export const AttemptNumber = Schema.Literals([1, 2, 3])
export type AttemptNumber = typeof AttemptNumber.Type

/**
 * Why a delivery exists: an event fanned out, an administrator's test event
 * (`POST /api/org/webhooks/:id/test`), or an administrator's redeliver or replay.
 */
export const DeliveryReason = Schema.Literals(["event", "test", "redeliver", "replay"])
export type DeliveryReason = typeof DeliveryReason.Type

const deliveryRecordOf = <E extends EventName>(event: E) =>
  Schema.Struct({
    deliveryId: DeliveryId,
    webhookId: WebhookId,
    orgId: OrgId,
    eventId: EventId,
    event: Schema.Literal(event),
    timestamp: IsoTimestamp,
    data: EventDataSchemas[event],
    attempt: AttemptNumber,
    /** Not to be attempted before this instant (the retry gap). */
    notBefore: IsoTimestamp,
    reason: DeliveryReason,
    /**
     * A test delivery, or a redelivery or replay of one: every attempt carries `X-Service-Test: true`.
     * Absent on every other delivery.
     */
    test: Schema.optionalKey(Schema.Literal(true)),
  })

/**
 * `parley.dispatch.deliveries.v1` and the retry topics (key: webhookId): one attempt to make of
 * one delivery. It carries the envelope's parts, so the body can be rebuilt byte for byte.
 */
export const DeliveryRecord = Schema.Union([
  deliveryRecordOf("message.inbound"),
  deliveryRecordOf("message.status"),
  deliveryRecordOf("lead.created"),
  deliveryRecordOf("lead.updated"),
  deliveryRecordOf("campaign.completed"),
  deliveryRecordOf("template.status"),
  deliveryRecordOf("template.quality"),
  deliveryRecordOf("template.category"),
]).annotate({ identifier: "DeliveryRecord" })
export type DeliveryRecord = typeof DeliveryRecord.Type

/**
 * What the first attempt of a delivery carries besides its outcome: the envelope's parts the
 * registry keeps for redeliver and replay, and why the delivery exists. The dispatcher makes the
 * first attempt of an event's delivery straight from the fan-out, so this is where the registry
 * learns the envelope (its data was decoded by the dispatcher against the event's schema).
 */
export const DeliveredEnvelope = Schema.Struct({
  timestamp: IsoTimestamp,
  data: Schema.Record(Schema.String, Schema.Unknown),
  reason: DeliveryReason,
  test: Schema.optionalKey(Schema.Literal(true)),
})
export type DeliveredEnvelope = typeof DeliveredEnvelope.Type

/**
 * `parley.dispatch.attempts.v1` (key: webhookId): the outcome of one attempt — docs/contract.md's
 * Attempt plus the webhook and organization it belongs to, and on attempt 1 the envelope.
 */
export const AttemptRecord = Schema.Struct({
  deliveryId: DeliveryId,
  webhookId: WebhookId,
  orgId: OrgId,
  eventId: EventId,
  event: EventName,
  attempt: AttemptNumber,
  status: Schema.Literals(["success", "failed"]),
  /** The HTTP status answered, null on timeout or connection error. */
  responseStatus: Schema.NullOr(Schema.Int),
  /** Why it failed (`timeout`, `connection refused`, `HTTP 500`), null on success. */
  error: Schema.NullOr(Schema.String),
  durationMs: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)),
  attemptedAt: IsoTimestamp,
  envelope: Schema.optionalKey(DeliveredEnvelope),
  /**
   * What the receiver answered, as text: at most `MaxLoggedResponseChars` of the 64 KiB read
   * (docs/contract.md §6). Absent when nothing was read — a 2xx body is not read, a timeout has none.
   */
  responseBody: Schema.optionalKey(Schema.String),
}).annotate({ identifier: "AttemptRecord" })
export type AttemptRecord = typeof AttemptRecord.Type

import { Schema } from "effect"
import { EventCatalogue, EventDataSchemas, EventName } from "../events.ts"
import { DeliveryId, EventId, WebhookId } from "../ids.ts"
import { IsoTimestamp } from "../values.ts"

/**
 * Bodies of the webhook-registry API (CONTRACT.md §5). Request schemas fix the shape; the rules that
 * need more than a shape (URL reachability, secret decoding, catalogue membership) are checked by
 * the service, which answers 400s naming the field.
 */

export const CreateWebhookRequest = Schema.Struct({
  url: Schema.String,
  secret: Schema.optionalKey(Schema.String),
  events: Schema.optionalKey(Schema.Array(Schema.String)),
}).annotate({ identifier: "CreateWebhookRequest" })
export type CreateWebhookRequest = typeof CreateWebhookRequest.Type

export const UpdateWebhookRequest = Schema.Struct({
  url: Schema.optionalKey(Schema.String),
  secret: Schema.optionalKey(Schema.String),
  events: Schema.optionalKey(Schema.Array(Schema.String)),
  enabled: Schema.optionalKey(Schema.Boolean),
}).annotate({ identifier: "UpdateWebhookRequest" })
export type UpdateWebhookRequest = typeof UpdateWebhookRequest.Type

export const DeliveryOutcome = Schema.Literals(["success", "failed"])
export type DeliveryOutcome = typeof DeliveryOutcome.Type

/** A webhook as every response shows it; never its secret (only the create response adds it). */
export const Webhook = Schema.Struct({
  id: WebhookId,
  url: Schema.String,
  events: Schema.Array(EventName),
  enabled: Schema.Boolean,
  createdAt: IsoTimestamp,
  updatedAt: IsoTimestamp,
  lastDeliveryStatus: Schema.NullOr(DeliveryOutcome),
  lastDeliveryAt: Schema.NullOr(IsoTimestamp),
  lastResponseStatus: Schema.NullOr(Schema.Int),
  failureCount: Schema.Int,
}).annotate({ identifier: "Webhook" })
export type Webhook = typeof Webhook.Type

/**
 * The create response: the webhook with its secret, this once, in two forms of the same 32 bytes —
 * `secret` as registered (or generated: standard base64), `signingSecret` as `whsec_<standard
 * base64>`, the form Standard Webhooks libraries take (CONTRACT.md §5).
 */
export const CreatedWebhook = Schema.Struct({
  ...Webhook.fields,
  secret: Schema.String,
  signingSecret: Schema.String.check(
    Schema.isPattern(/^whsec_[A-Za-z0-9+/]{43}=$/u, { expected: "whsec_ and the standard base64 of 32 bytes" }),
  ),
}).annotate({
  identifier: "CreatedWebhook",
})
export type CreatedWebhook = typeof CreatedWebhook.Type

export const ListWebhooksResponse = Schema.Struct({ data: Schema.Array(Webhook) })

/** One attempt of one delivery, as the deliveries log shows it. */
export const Attempt = Schema.Struct({
  deliveryId: DeliveryId,
  eventId: EventId,
  event: EventName,
  attempt: Schema.Int,
  status: DeliveryOutcome,
  responseStatus: Schema.NullOr(Schema.Int),
  error: Schema.NullOr(Schema.String),
  durationMs: Schema.Int,
  attemptedAt: IsoTimestamp,
}).annotate({ identifier: "Attempt" })
export type Attempt = typeof Attempt.Type

export const ListDeliveriesResponse = Schema.Struct({
  data: Schema.Array(Attempt),
  nextCursor: Schema.NullOr(Schema.String),
})

/**
 * `GET /api/org/webhooks/:id/deliveries`'s query (CONTRACT.md §5): `limit` 1–100, an opaque
 * `cursor`, `status` one of the outcomes.
 */
export const ListDeliveriesQuery = Schema.Struct({
  limit: Schema.optionalKey(Schema.String.check(Schema.isPattern(/^[0-9]+$/u, { expected: "an integer 1–100" }))),
  cursor: Schema.optionalKey(Schema.String),
  status: Schema.optionalKey(DeliveryOutcome),
})

export const RedeliverResponse = Schema.Struct({ deliveryId: DeliveryId })

export const ReplayRequest = Schema.Struct({
  since: Schema.String,
  until: Schema.optionalKey(Schema.String),
  status: Schema.optionalKey(Schema.Literal("failed")),
}).annotate({ identifier: "ReplayRequest" })
export type ReplayRequest = typeof ReplayRequest.Type

export const ReplayResponse = Schema.Struct({ queued: Schema.Int })

/** A catalogue entry of one event: its `sample` is a valid `data` of that event (CONTRACT.md §5). */
const catalogueEntryOf = <E extends EventName>(name: E) =>
  Schema.Struct({
    name: Schema.Literal(name),
    description: Schema.String,
    channels: Schema.String,
    sample: EventDataSchemas[name],
  })

export const WebhookEventsResponse = Schema.Struct({
  data: Schema.Array(
    Schema.Union(EventCatalogue.map((entry) => catalogueEntryOf(entry.name))).annotate({
      identifier: "WebhookEventCatalogueEntry",
    }),
  ),
})

/** `POST /api/org/webhooks/:id/test`: one delivery of the named event's catalogue sample. */
export const TestWebhookRequest = Schema.Struct({ event: EventName }).annotate({
  identifier: "TestWebhookRequest",
})
export type TestWebhookRequest = typeof TestWebhookRequest.Type

export const TestWebhookResponse = Schema.Struct({ deliveryId: DeliveryId })

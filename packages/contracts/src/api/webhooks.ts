import { Schema } from "effect"
import { DeliveryReason } from "../bus/dispatch.ts"
import { EventCatalogue, EventDataSchemas, EventName } from "../events.ts"
import { DeliveryId, EventId, WebhookId } from "../ids.ts"
import { isInstant } from "../instant.ts"
import { IsoTimestamp } from "../values.ts"
import { PageCursor, PageLimit } from "./page-limit.ts"

/**
 * Bodies of the webhook-registry API (docs/contract.md §5). The request schemas hold every rule of a
 * field that needs no I/O — the URL's form, the secret's base64 and length, the catalogue's names —
 * so the registry decodes a body with them and answers one 400 naming every bad field; whether a
 * URL's host is public needs DNS, and stays the registry's.
 */

/** What a URL must not hold: the URL parser strips or encodes these, so the URL stored would not be the one checked. */
const hasWhitespaceOrControl = (s: string): boolean =>
  /\s/.test(s) || [...s].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f)

/** Why `s` is not a webhook URL by its form alone, or `undefined` (whether its host is public needs DNS: the registry's). */
export const webhookUrlProblem = (s: string): string | undefined => {
  if (hasWhitespaceOrControl(s)) return "must not contain whitespace or control characters"
  if (!URL.canParse(s)) return "must be an absolute URL"
  const url = new URL(s)
  if (url.protocol !== "http:" && url.protocol !== "https:") return "must use http or https"
  if (url.username !== "" || url.password !== "") return "must not contain credentials"
  if (url.hostname === "") return "must have a host"
  if (url.port === "0") return "must not use port 0"
  return undefined
}

/**
 * A webhook's URL (docs/contract.md §5): absolute `http:` or `https:`, at most 2048 characters, no
 * credentials. That its host is, and resolves only to, public addresses the registry checks with
 * DNS at registration, and the dispatcher again at every connection.
 */
export const WebhookUrl = Schema.String.check(
  Schema.isMaxLength(2048),
  Schema.makeFilter((s: string) => webhookUrlProblem(s) ?? true, {
    expected: "an absolute http(s) URL of at most 2048 characters, without credentials",
  }),
)

/** The base64 (standard or URL-safe alphabet, padding optional) of exactly 32 bytes: 43 characters and at most one `=`. */
const SECRET = /^(?:[A-Za-z0-9+/]{43}|[A-Za-z0-9_-]{43})=?$/u

/** Why `s` is not a webhook secret, or `undefined`. */
export const webhookSecretProblem = (s: string): string | undefined =>
  SECRET.test(s) ? undefined : "must be the base64 (standard or URL-safe) of exactly 32 bytes"

/** A webhook secret as registered: base64 (standard or URL-safe alphabet, padding optional) of exactly 32 bytes. */
export const WebhookSecret = Schema.String.check(
  Schema.isPattern(SECRET, { expected: "the base64 (standard or URL-safe) of exactly 32 bytes" }),
)

/** The events a webhook receives: a non-empty list of catalogue names (the registry drops duplicates). */
export const WebhookEvents = Schema.Array(EventName).check(
  Schema.isMinLength(1, { expected: "at least one event of the catalogue" }),
)

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/u

/**
 * An ISO 8601 time with a zone (`2026-11-22T09:30:00Z`, `…+01:00`), as `since` and `until` take. A
 * time of the right form that is no time at all (month 13, 30 February, year 0000) or outside the
 * years 0001–9999 (`parseInstant`) is refused too — Postgres would refuse it with a 500; one issue
 * either way.
 */
export const IsoTime = Schema.String.check(
  Schema.isPattern(ISO_TIME, { expected: "an ISO 8601 time" }),
  Schema.makeFilter((s: string) => !ISO_TIME.test(s) || isInstant(s) || "must be an ISO 8601 time"),
)

export const CreateWebhookRequest = Schema.Struct({
  url: WebhookUrl,
  /** Omitted: the registry generates 32 random bytes. */
  secret: Schema.optionalKey(WebhookSecret),
  /** Omitted: every event of the catalogue at that moment. */
  events: Schema.optionalKey(WebhookEvents),
}).annotate({ identifier: "CreateWebhookRequest" })
export type CreateWebhookRequest = typeof CreateWebhookRequest.Type

export const UpdateWebhookRequest = Schema.Struct({
  url: Schema.optionalKey(WebhookUrl),
  /** Rotates the key: the previous one keeps signing too for 24 hours (docs/contract.md §5). */
  secret: Schema.optionalKey(WebhookSecret),
  events: Schema.optionalKey(WebhookEvents),
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
 * base64>`, the form Standard Webhooks libraries take (docs/contract.md §5).
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
  /**
   * Beyond docs/contract.md's Attempt, so a log can tell them apart: why its delivery exists (an event,
   * a test event, a redelivery or a replay) and whether it carried `X-Service-Test: true`.
   */
  reason: DeliveryReason,
  test: Schema.Boolean,
}).annotate({ identifier: "Attempt" })
export type Attempt = typeof Attempt.Type

/**
 * One attempt in full (`GET /api/org/webhooks/:id/deliveries/:deliveryId/attempts/:attempt`): the
 * request sent — its body exactly, and the headers that do not change between signings (the
 * signatures and `webhook-timestamp` are made per attempt and not kept; the secret never is) — and
 * what the receiver answered.
 */
export const AttemptDetail = Schema.Struct({
  ...Attempt.fields,
  request: Schema.Struct({
    headers: Schema.Record(Schema.String, Schema.String),
    /** The JSON body sent, as text; null when the delivery's envelope was not kept (past 30 days). */
    body: Schema.NullOr(Schema.String),
  }),
  response: Schema.Struct({
    status: Schema.NullOr(Schema.Int),
    /** At most 64 KiB of a non-2xx answer as text; null when nothing was read (a 2xx body is not read, §6). */
    body: Schema.NullOr(Schema.String),
  }),
}).annotate({ identifier: "AttemptDetail" })
export type AttemptDetail = typeof AttemptDetail.Type

/** The `:attempt` of an attempt's detail: 1, 2 or 3. */
export const AttemptNumberParam = Schema.Literals(["1", "2", "3"])

export const ListDeliveriesResponse = Schema.Struct({
  data: Schema.Array(Attempt),
  nextCursor: Schema.NullOr(Schema.String),
})

/**
 * `GET /api/org/webhooks/:id/deliveries`'s query (docs/contract.md §5): `limit` 1–100, an opaque
 * `cursor`, `status` one of the outcomes.
 */
export const ListDeliveriesQuery = Schema.Struct({
  limit: Schema.optionalKey(PageLimit),
  cursor: Schema.optionalKey(PageCursor),
  status: Schema.optionalKey(DeliveryOutcome),
})

export const RedeliverResponse = Schema.Struct({ deliveryId: DeliveryId })

export const ReplayRequest = Schema.Struct({
  since: IsoTime,
  /** Exclusive; omitted, now. It must be later than `since` (the registry answers 400). */
  until: Schema.optionalKey(IsoTime),
  status: Schema.optionalKey(Schema.Literal("failed")),
}).annotate({ identifier: "ReplayRequest" })
export type ReplayRequest = typeof ReplayRequest.Type

export const ReplayResponse = Schema.Struct({ queued: Schema.Int })

/** A catalogue entry of one event: its `sample` is a valid `data` of that event (docs/contract.md §5). */
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

/**
 * The document's `webhooks` section (OpenAPI 3.1): the requests Parley makes to a receiver, one per
 * event — the envelope compiled from the very Schemas `@parley/webhooks` decodes with, the
 * catalogue's sample as its example, and the delivery headers of docs/contract.md §6.
 */
import type { Schema } from "effect"
import { EventCatalogue, type EventName, envelopeSchemaFor } from "../../events.ts"
import type { JsonSchemaObject } from "../routes/model.ts"

/** `lead.created` → `LeadCreatedEvent`: the component name of an event's envelope. */
const envelopeName = (event: EventName): string =>
  `${event
    .split(".")
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join("")}Event`

/** The envelope Schemas the section refers to, to be compiled with the rest. */
export const deliverySchemas: ReadonlyArray<{ readonly name: string; readonly effect: Schema.Top }> =
  EventCatalogue.map((entry) => ({ name: envelopeName(entry.name), effect: envelopeSchemaFor(entry.name) }))

const header = (name: string, description: string, schema: JsonSchemaObject, required = true) => ({
  name,
  in: "header",
  required,
  description,
  schema,
})

/** The headers of every attempt, as `components.parameters` the entries refer to. */
export const deliveryHeaderParameters: Record<string, ReturnType<typeof header>> = {
  "X-Service-Event": header("X-Service-Event", "The event's name.", { type: "string" }),
  "X-Service-Signature": header(
    "X-Service-Signature",
    "`sha256=` and the lowercase hex HMAC-SHA256 of the raw body, keyed with the secret string exactly as registered. Always the current key's, also during a rotation.",
    { type: "string", pattern: "^sha256=[0-9a-f]{64}$" },
  ),
  "X-Service-Delivery": header(
    "X-Service-Delivery",
    "The delivery id, the same on every attempt of one delivery: deduplicate on it.",
    { type: "string", pattern: "^dlv_[0-9A-Za-z]+$" },
  ),
  "X-Service-Attempt": header("X-Service-Attempt", "Which attempt this is: 1, 2 or 3.", {
    type: "string",
    enum: ["1", "2", "3"],
  }),
  "X-Service-Test": header(
    "X-Service-Test",
    "`true` on a test delivery (`POST /api/org/webhooks/{id}/test`), on each of its retries, redeliveries and replays; absent otherwise.",
    { type: "string", enum: ["true"] },
    false,
  ),
  "User-Agent": header("User-Agent", "`Parley-Webhooks/<version>`.", { type: "string", pattern: "^Parley-Webhooks/" }),
  "webhook-id": header(
    "webhook-id",
    "Standard Webhooks: the delivery id (as `X-Service-Delivery`), the same on every attempt.",
    { type: "string" },
  ),
  "webhook-timestamp": header(
    "webhook-timestamp",
    "Standard Webhooks: Unix seconds at which this attempt was signed. Refuse one more than five minutes from now, so that a captured request cannot be replayed.",
    { type: "string", pattern: "^[0-9]+$" },
  ),
  "webhook-signature": header(
    "webhook-signature",
    "Standard Webhooks: `v1,` and the standard base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the secret's 32 decoded bytes (`signingSecret` without its `whsec_` prefix). For 24 hours after a rotation a second `v1,…` by the previous key follows, after one space: accept the request when any of them matches.",
    { type: "string", pattern: "^v1,[A-Za-z0-9+/]+={0,2}( v1,[A-Za-z0-9+/]+={0,2})?$" },
  ),
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })

/** One entry per event of the catalogue: what Parley POSTs to a webhook subscribed to it. */
export const deliveryWebhooks = (): Record<string, unknown> =>
  Object.fromEntries(
    EventCatalogue.map((entry) => [
      entry.name,
      {
        post: {
          operationId: `deliver.${entry.name}`,
          summary: `${entry.name}: ${entry.description}`,
          description: `Sent to the URL of each enabled webhook subscribed to \`${entry.name}\` (${entry.channels}). Verify before parsing: with any Standard Webhooks library (\`webhook-*\` headers, secret \`signingSecret\`), with \`@parley/webhooks\`, or by hand. Deliveries are at least once and unordered.`,
          tags: ["Deliveries"],
          parameters: Object.keys(deliveryHeaderParameters).map((name) => ({
            $ref: `#/components/parameters/${name}`,
          })),
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: ref(envelopeName(entry.name)),
                example: { event: entry.name, timestamp: "2026-11-22T09:30:00.000Z", data: entry.sample },
              },
            },
          },
          responses: {
            "2XX": { description: "Accepted: the delivery succeeded. The body is not read." },
            default: {
              description:
                "Any other status (redirects included), a connection error, or no complete answer within 10 s: the attempt failed. Three attempts in all, the second about 5 s after the first failed, the third about 10 s after the second.",
            },
          },
        },
      },
    ]),
  )

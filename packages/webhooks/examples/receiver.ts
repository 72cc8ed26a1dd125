/**
 * An example Parley webhook receiver as a Fetch handler: `export default { fetch }` runs as it is
 * under `deno serve`, `bun run` and edge runtimes; `node-server.ts` launches it on Node.
 *
 * It answers 401 when a delivery cannot be authenticated, and 2xx otherwise: 200 once handled,
 * 200 for a retry of a delivery already handled (deduplicated on X-Service-Delivery), 409 while a
 * concurrent attempt of the same delivery is still being handled (Parley tries again later).
 */
import {
  type DedupeOutcome,
  DeliveryHeaders,
  headerValue,
  isVerificationError,
  makeDeduplicator,
  recommendedStatus,
  verify,
  type WebhookEnvelope,
} from "../src/index.ts"

export interface ReceiverOptions {
  /** The webhook's secret, exactly as registered (or as Parley generated it). */
  readonly secret: string
  /** What to do with each authentic event, once per delivery. */
  readonly onEvent?: (envelope: WebhookEnvelope) => Promise<void> | void
  readonly toleranceSeconds?: number
}

const json = (status: number, body: unknown): Response =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } })

/** Describes an event in one line, showing how `switch` on `event` types `data`. */
export const describe = (envelope: WebhookEnvelope): string => {
  switch (envelope.event) {
    case "message.inbound":
      return `message from ${envelope.data.from}: ${envelope.data.text}`
    case "message.status":
      return `message ${envelope.data.messageId} ${envelope.data.status}`
    case "lead.created":
    case "lead.updated":
      return `lead ${envelope.data.phone} (${envelope.data.type})${envelope.data.booking ? ` booked ${envelope.data.booking.date} ${envelope.data.booking.time}` : ""}`
    case "campaign.completed":
      return `campaign ${envelope.data.name}: ${envelope.data.sent}/${envelope.data.totalRecipients} sent`
    case "template.status":
      return `template ${envelope.data.name} ${envelope.data.status}`
    case "template.quality":
      return `template ${envelope.data.name} quality ${envelope.data.qualityScore}`
    case "template.category":
      return `template ${envelope.data.name} now ${envelope.data.category}`
  }
}

export const makeReceiver = (options: ReceiverOptions) => {
  const dedupe = makeDeduplicator()
  const onEvent = options.onEvent ?? ((envelope) => console.log(describe(envelope)))

  const fetch = async (request: Request): Promise<Response> => {
    if (request.method !== "POST") return json(405, { error: "Method not allowed" })
    // The raw bytes, never request.json(): the signature covers the body exactly as sent.
    const body = new Uint8Array(await request.arrayBuffer())
    let envelope: WebhookEnvelope
    try {
      envelope = await verify(body, request.headers, options.secret, { toleranceSeconds: options.toleranceSeconds })
    } catch (error) {
      if (!isVerificationError(error)) throw error
      return json(recommendedStatus(error), { error: error.message })
    }
    // Parley always sends X-Service-Delivery; without one there is nothing to deduplicate on.
    const outcome: DedupeOutcome<void> =
      headerValue(request.headers, DeliveryHeaders.delivery) === undefined
        ? { status: "handled", value: await onEvent(envelope) }
        : await dedupe.once(request.headers, async () => onEvent(envelope))
    if (outcome.status === "in-progress") return json(409, { error: "Delivery is being handled" })
    return json(200, { received: envelope.event, duplicate: outcome.status === "duplicate" })
  }

  return { fetch }
}

const env = (name: string): string | undefined =>
  // biome-ignore lint/suspicious/noExplicitAny: Deno, Bun and Node each expose the environment differently
  (globalThis as any).Deno?.env.get(name) ?? (globalThis as any).process?.env[name]

const secret = env("PARLEY_WEBHOOK_SECRET")
const receiver = secret === undefined ? undefined : makeReceiver({ secret })

/** `deno serve examples/receiver.ts` / `bun run examples/receiver.ts` pick this up. */
export default {
  fetch: (request: Request): Promise<Response> =>
    receiver === undefined
      ? Promise.resolve(json(500, { error: "PARLEY_WEBHOOK_SECRET is not set" }))
      : receiver.fetch(request),
}

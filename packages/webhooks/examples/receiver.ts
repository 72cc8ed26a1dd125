/**
 * An example Parley webhook receiver as a Fetch handler: `export default { fetch }` runs as it is
 * under `deno serve`, `bun run` and edge runtimes; `node-server.ts` launches it on Node.
 *
 * As CONTRACT §12 asks, it answers 401 when a delivery cannot be authenticated (a missing or bad
 * signature; with `toleranceSeconds`, a timestamp outside it) and 2xx otherwise:
 * - 200 once handled;
 * - 200 for a retry of a delivery already handled (deduplicated on X-Service-Delivery);
 * - 200 for an attempt of a delivery that is being handled right now, once that handling ends:
 *   it waits for it rather than handling the delivery twice, and answers with its outcome;
 * - 200 and a logged warning for an authentic body it cannot decode (malformed, or an event newer
 *   than this library): retrying the same bytes could never succeed.
 * Only `onEvent` throwing makes it answer 500, so that Parley tries that delivery again.
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
  /** Where warnings go (an authentic delivery it cannot decode). Default `console.warn`. */
  readonly warn?: (message: string) => void
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
  const warn = options.warn ?? ((message) => console.warn(message))
  // Deliveries being handled in this process, by id: a concurrent attempt of one of them (a retry
  // Parley sent after the first attempt timed out, while that one still runs here) waits for it.
  const handling = new Map<string, Promise<DedupeOutcome<void>>>()

  const handleOnce = (
    deliveryId: string,
    headers: Headers,
    envelope: WebhookEnvelope,
    running: Promise<DedupeOutcome<void>> | undefined,
  ): Promise<DedupeOutcome<void>> => {
    if (running !== undefined) {
      // Its outcome is ours: handled there is a duplicate here, and if it threw, so do we (500).
      return running.then(
        (outcome): DedupeOutcome<void> => ({ status: outcome.status === "handled" ? "duplicate" : outcome.status }),
      )
    }
    const outcome = dedupe.once(headers, async () => onEvent(envelope)).finally(() => handling.delete(deliveryId))
    handling.set(deliveryId, outcome)
    return outcome
  }

  const fetch = async (request: Request): Promise<Response> => {
    const deliveryId = headerValue(request.headers, DeliveryHeaders.delivery) || undefined
    // Noted as the request arrives, used only once it is authenticated: a handling of this delivery
    // already running here, which this attempt then waits for even if it ends meanwhile.
    const runningOnArrival = deliveryId === undefined ? undefined : handling.get(deliveryId)
    // The raw bytes, never request.json(): the signature covers the body exactly as sent.
    const body = new Uint8Array(await request.arrayBuffer())
    let envelope: WebhookEnvelope
    try {
      envelope = await verify(body, request.headers, options.secret, { toleranceSeconds: options.toleranceSeconds })
    } catch (error) {
      if (!isVerificationError(error)) throw error
      if (recommendedStatus(error) === 401) return json(401, { error: error.message })
      // Authentic (the signature was checked first) but not decodable by this version.
      warn(`ignoring delivery ${deliveryId ?? "(no id)"}: ${error._tag}: ${error.message}`)
      return json(200, { ignored: error._tag })
    }
    // Parley always sends X-Service-Delivery; without one there is nothing to deduplicate on.
    const outcome: DedupeOutcome<void> =
      deliveryId === undefined
        ? { status: "handled", value: await onEvent(envelope) }
        : await handleOnce(deliveryId, request.headers, envelope, runningOnArrival ?? handling.get(deliveryId))
    // "in-progress" only comes from a store shared with other instances: one of them is handling it.
    return json(200, { received: envelope.event, duplicate: outcome.status !== "handled" })
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

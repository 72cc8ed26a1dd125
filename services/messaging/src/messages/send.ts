import type { ChannelKind, OrgId } from "@parley/contracts"
import { Database } from "@parley/db"
import { newId } from "@parley/platform"
import { Effect, Option } from "effect"
import type { BridgeEgress } from "../bridge/bridge-egress.ts"
import { postToBridge } from "../bridge/outbound.ts"
import { resolveSendChannel, type StoredChannel } from "../channels/repository.ts"
import { TokenBox } from "../channels/token-box.ts"
import { CloudProviders } from "../cloud/cloud-providers.ts"
import type { ProviderOutcome } from "../cloud/graph-client.ts"
import { ChannelNotConfigured, ProviderRejected, ProviderUnavailable } from "../errors.ts"
import { MessagingMetrics, outcomeLabel } from "../metrics.ts"
import { sendWrites } from "./send-writes.ts"

export interface OutboundMessage {
  /** Digits only. */
  readonly to: string
  readonly channel?: ChannelKind | undefined
  readonly content:
    | { readonly type: "text"; readonly text: string }
    | {
        readonly type: "template"
        readonly name: string
        readonly language: string
        readonly variables?: ReadonlyArray<string> | undefined
      }
  readonly campaignId?: string | undefined
  /** Set for sends caused by a bus record: a second send with the same key does nothing. */
  readonly sourceKey?: string | undefined
  /** Provider calls while it answers rate-limited or unavailable (default 1: the caller decides). */
  readonly attempts?: number | undefined
  /** First backoff between those attempts; doubles each time. */
  readonly retryBaseMs?: number | undefined
}

export interface SentMessage {
  readonly id: string
  /** The provider's id (the cloud API's `messages[0].id`; on the bridge, Parley's own id). */
  readonly messageId: string
}

/**
 * Sends one message through the organization's channel. The message is recorded (`pending`) and
 * committed BEFORE the provider is called, then marked `sent` or `failed` with the provider's
 * answer: a send is never lost, whatever fails. Answers `undefined` when `sourceKey` was seen before
 * and its message was sent or failed; one still `pending` (a crash) is sent now (`pendingSend`).
 */
export const sendMessage = (orgId: OrgId, message: OutboundMessage) =>
  Effect.gen(function* () {
    const { sql } = yield* Database
    const requested = message.channel ?? (message.content.type === "template" ? "cloud" : undefined)
    const fresh = newId("msg")
    const writes = yield* sendWrites
    const recorded = yield* writes.record({
      id: fresh,
      orgId,
      channel: requested,
      phone: message.to,
      type: message.content.type,
      text: message.content.type === "text" ? message.content.text : "",
      campaignId: message.campaignId ?? null,
      sourceKey: message.sourceKey ?? null,
    })
    const send = Option.isSome(recorded)
      ? { channel: recorded.value, id: fresh }
      : yield* unrecordedSend(orgId, requested, message.sourceKey)
    if (send === undefined) return undefined
    const { channel, id } = send
    const attempts = Math.max(1, message.attempts ?? 1)
    const calls = Effect.gen(function* () {
      let outcome = yield* deliver(channel, id, message)
      for (
        let attempt = 2;
        attempt <= attempts && (outcome._tag === "RateLimited" || outcome._tag === "Unavailable");
        attempt++
      ) {
        yield* Effect.sleep((message.retryBaseMs ?? 1000) * 2 ** (attempt - 2))
        outcome = yield* deliver(channel, id, message)
      }
      return outcome
    })
    // A send keyed by its source is this process's while it renews the row (see `pendingSend`).
    const outcome =
      message.sourceKey === undefined
        ? yield* calls
        : yield* Effect.raceFirst(
            calls,
            Effect.promise(
              () => sql`update messaging.messages set updated_at = now() where id = ${id} and status = 'pending'`,
            ).pipe(
              Effect.catchCause((cause) => Effect.logWarning("renewing a pending send failed", cause)),
              Effect.delay(PendingSendRenewMs),
              Effect.forever,
            ),
          )
    if (outcome._tag === "Accepted") {
      yield* writes.settle({ id, providerMessageId: outcome.value, error: null })
      return { id, messageId: outcome.value } satisfies SentMessage
    }
    yield* writes.settle({ id, providerMessageId: null, error: outcome.detail })
    yield* Effect.logWarning("message send failed").pipe(
      Effect.annotateLogs({ orgId, messageId: id, channel: channel.kind, detail: outcome.detail }),
    )
    return yield* outcome._tag === "Rejected"
      ? new ProviderRejected({ detail: outcome.detail })
      : new ProviderUnavailable({ detail: outcome.detail, rateLimited: outcome._tag === "RateLimited" })
  })

/**
 * Why a send recorded nothing: the organization has no such channel, or its source key was recorded
 * before — then its message is the one to send now if still `pending` (`pendingSend`), else none.
 */
const unrecordedSend = (orgId: OrgId, requested: ChannelKind | undefined, sourceKey: string | undefined) =>
  Effect.gen(function* () {
    const found = yield* resolveSendChannel(orgId, requested)
    if (Option.isNone(found)) return yield* new ChannelNotConfigured({ kind: requested ?? "messaging" })
    const id = yield* pendingSend(orgId, found.value.kind, sourceKey)
    return id === undefined ? undefined : { channel: found.value, id }
  })

/**
 * A `pending` send keyed by its source is its process's while that process renews the row's
 * `updated_at` (every `PendingSendRenewMs` while its provider calls run); one not renewed for
 * `PendingSendLeaseMs` was left by a process that stopped.
 */
export const PendingSendLeaseMs = 6_000
const PendingSendRenewMs = 2_000
const PendingSendPollMs = 100

/**
 * The message a previous send of the same source key recorded and never finished, to be sent now.
 * Two cases find one `pending`:
 * - the process stopped between recording it and the provider's answer, and the bus delivered the
 *   record that caused it again: once its lease has run out it is taken over (by one handling: the
 *   claim is a conditional update) and sent under its own id (DESIGN §3.1: at least once). The
 *   provider-facing id is that same id — the bridge's `messageId`, the sandbox's client reference —
 *   so a provider that deduplicates by it delivers it once; the Graph API has no such key, so a
 *   crash after its call and before the answer was stored may send that message twice (never zero
 *   times);
 * - the record came again while the first send still waits for the provider (on Kafka a rebalance
 *   hands the partition on, to another process or back to this one, before the first handling is
 *   done): this handling waits until that send is settled and then does nothing. Sending it again
 *   answered a customer twice (test/reply-in-flight.test.ts, test/e2e/distributed-twice.test.ts).
 * A source key whose message was sent or failed does nothing, as before.
 */
const pendingSend = (orgId: OrgId, channel: ChannelKind, sourceKey: string | undefined) =>
  Effect.gen(function* () {
    if (sourceKey === undefined) return undefined
    const { sql } = yield* Database
    for (;;) {
      const [row] = yield* Effect.promise(
        () => sql<Array<{ id: string; expired: boolean }>>`
          select id, updated_at < now() - ${PendingSendLeaseMs} * interval '1 millisecond' as expired
          from messaging.messages
          where org_id = ${orgId} and source_key = ${sourceKey} and status = 'pending' and channel = ${channel}`,
      )
      if (row === undefined) return undefined
      if (row.expired) {
        const [claimed] = yield* Effect.promise(
          () => sql`
            update messaging.messages set updated_at = now()
            where id = ${row.id} and status = 'pending'
              and updated_at < now() - ${PendingSendLeaseMs} * interval '1 millisecond'
            returning id`,
        )
        if (claimed !== undefined) {
          yield* Effect.logInfo("resuming a send left pending").pipe(Effect.annotateLogs({ orgId, messageId: row.id }))
          return row.id
        }
      } else {
        yield* Effect.sleep(PendingSendPollMs)
      }
    }
  })

/** What a provider call runs on: the providers, the bridge's client, the box of tokens, the metrics. */
export type ProviderParties = CloudProviders | BridgeEgress | TokenBox | MessagingMetrics

/** One provider call for an already recorded message; never fails, the outcome says how it went. */
export const deliver = (
  channel: StoredChannel,
  id: string,
  message: OutboundMessage,
): Effect.Effect<ProviderOutcome<string>, never, ProviderParties> =>
  Effect.gen(function* () {
    const metrics = yield* MessagingMetrics
    const outcome = yield* callProvider(channel, id, message)
    metrics.providerCalls.inc({ channel: channel.kind, outcome: outcomeLabel(outcome._tag) })
    return outcome
  })

const callProvider = (
  channel: StoredChannel,
  id: string,
  message: OutboundMessage,
): Effect.Effect<ProviderOutcome<string>, never, ProviderParties> =>
  Effect.gen(function* () {
    const { of: cloudProvider } = yield* CloudProviders
    const box = yield* TokenBox
    if (channel.kind === "bridge") {
      if (message.content.type !== "text" || channel.outbound_url === null || channel.inbound_token_sealed === null) {
        return { _tag: "Rejected", status: 400, detail: "the bridge channel carries text messages only" } as const
      }
      const key = box.open(channel.inbound_token_sealed)
      return yield* postToBridge(channel.outbound_url, key, {
        to: message.to,
        text: message.content.text,
        messageId: id,
      })
    }
    if (channel.phone_number_id === null || (channel.access_token_sealed === null && !channel.sandbox)) {
      return { _tag: "Rejected", status: 400, detail: "the cloud channel is incomplete" } as const
    }
    const content = message.content
    return yield* cloudProvider(channel).sendMessage(
      content.type === "text"
        ? { to: message.to, type: "text", text: content.text }
        : {
            to: message.to,
            type: "template",
            template: {
              name: content.name,
              language: content.language,
              ...(content.variables === undefined ? {} : { variables: content.variables }),
            },
          },
      id,
    )
  })

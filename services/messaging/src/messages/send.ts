import type { ChannelKind } from "@parley/contracts"
import { Database } from "@parley/db"
import { newId } from "@parley/platform"
import { Effect, Option, Redacted } from "effect"
import { postToBridge } from "../bridge/outbound.ts"
import { resolveSendChannel, type StoredChannel } from "../channels/repository.ts"
import type { ProviderOutcome } from "../cloud/graph-client.ts"
import { ChannelNotConfigured, ProviderRejected, ProviderUnavailable } from "../errors.ts"
import { outcomeLabel } from "../metrics.ts"
import { MessagingResources } from "../resources.ts"

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
 * answer: a send is never lost, whatever fails. Answers `undefined` when `sourceKey` was seen before.
 */
export const sendMessage = (orgId: string, message: OutboundMessage) =>
  Effect.gen(function* () {
    const { sql } = yield* Database
    const requested = message.channel ?? (message.content.type === "template" ? "cloud" : undefined)
    const found = yield* resolveSendChannel(orgId, requested)
    if (Option.isNone(found)) {
      return yield* new ChannelNotConfigured({ kind: requested ?? "messaging" })
    }
    const channel = found.value
    const id = newId("msg")
    const text = message.content.type === "text" ? message.content.text : ""
    // On the bridge Parley's id is the message id, known before the call, so a status the bridge
    // reports while our post is still in flight already finds the message.
    const inserted = yield* Effect.promise(
      () => sql`
        insert into messaging.messages
          (id, org_id, channel, direction, phone, type, text, status, campaign_id, source_key, provider_message_id)
        values (${id}, ${orgId}, ${channel.kind}, 'outbound', ${message.to}, ${message.content.type}, ${text},
                'pending', ${message.campaignId ?? null}, ${message.sourceKey ?? null},
                ${channel.kind === "bridge" ? id : null})
        on conflict (org_id, source_key) where source_key is not null do nothing
        returning id`,
    )
    if (inserted.length === 0) return undefined

    const attempts = Math.max(1, message.attempts ?? 1)
    let outcome = yield* deliver(channel, id, message)
    for (
      let attempt = 2;
      attempt <= attempts && (outcome._tag === "RateLimited" || outcome._tag === "Unavailable");
      attempt++
    ) {
      yield* Effect.sleep((message.retryBaseMs ?? 1000) * 2 ** (attempt - 2))
      outcome = yield* deliver(channel, id, message)
    }
    if (outcome._tag === "Accepted") {
      yield* Effect.promise(
        () => sql`
          update messaging.messages
          set provider_message_id = ${outcome.value}, updated_at = now(),
              -- a bridge may report "delivered" before it answers our post: keep the further status
              status = case when status = 'pending' then 'sent' else status end
          where id = ${id}`,
      )
      return { id, messageId: outcome.value } satisfies SentMessage
    }
    yield* Effect.promise(
      () => sql`
        update messaging.messages set status = 'failed', error = ${outcome.detail}, updated_at = now()
        where id = ${id}`,
    )
    yield* Effect.logWarning("message send failed").pipe(
      Effect.annotateLogs({ orgId, messageId: id, channel: channel.kind, detail: outcome.detail }),
    )
    return yield* outcome._tag === "Rejected"
      ? new ProviderRejected({ detail: outcome.detail })
      : new ProviderUnavailable({ detail: outcome.detail, rateLimited: outcome._tag === "RateLimited" })
  })

/** One provider call for an already recorded message; never fails, the outcome says how it went. */
export const deliver = (
  channel: StoredChannel,
  id: string,
  message: OutboundMessage,
): Effect.Effect<ProviderOutcome<string>, never, MessagingResources> =>
  Effect.gen(function* () {
    const { metrics } = yield* MessagingResources
    const outcome = yield* callProvider(channel, id, message)
    metrics.providerCalls.inc({ channel: channel.kind, outcome: outcomeLabel(outcome._tag) })
    return outcome
  })

const callProvider = (
  channel: StoredChannel,
  id: string,
  message: OutboundMessage,
): Effect.Effect<ProviderOutcome<string>, never, MessagingResources> =>
  Effect.gen(function* () {
    const { graph, box } = yield* MessagingResources
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
    if (channel.phone_number_id === null || channel.access_token_sealed === null) {
      return { _tag: "Rejected", status: 400, detail: "the cloud channel is incomplete" } as const
    }
    const token = Redacted.make(box.open(channel.access_token_sealed))
    const content = message.content
    return yield* graph.sendMessage(
      channel.phone_number_id,
      token,
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
    )
  })

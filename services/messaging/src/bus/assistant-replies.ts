import { Bus, type BusRecord, decodeOrSkip } from "@parley/bus"
import { ChannelOutbound, Topics } from "@parley/contracts"
import type { Database } from "@parley/db"
import { Context, Effect, Layer } from "effect"
import { type ProviderParties, sendMessage } from "../messages/send.ts"
import { SendWriteBatches } from "../messages/send-writes.ts"

export const ASSISTANT_REPLIES_GROUP = "messaging.channel-outbound"

/**
 * The key that makes a redelivered reply a no-op. A reply to an inbound message is keyed by that
 * message: the assistant answers each message once, and keying by the text instead would let a
 * regenerated answer (a language model asked twice after a redelivery) reach the customer twice.
 * A reply that answers nothing in particular is keyed by its position in the log.
 */
const sourceKeyOf = (record: BusRecord, reply: ChannelOutbound): string =>
  reply.inReplyTo === undefined
    ? `bus:${record.topic}:${record.partition}:${record.offset}`
    : `reply:${reply.channel}:${reply.inReplyTo}`

/**
 * Sends the assistant's replies (`parley.channel.outbound.v1`) through the organization's channel.
 * A reply is recorded before the provider call and never sent twice; a provider failure leaves it
 * tried three times (1 s, 2 s apart) while the provider is rate limiting or down, then left recorded
 * as failed (visible in `GET /api/messages`) rather than holding up the partition.
 */
export const handleAssistantReply = (
  reply: ChannelOutbound,
  record: BusRecord,
  options: { readonly retryBaseMs: number },
) =>
  Effect.gen(function* () {
    yield* sendMessage(reply.orgId, {
      to: reply.to,
      channel: reply.channel,
      content: { type: "text", text: reply.text },
      sourceKey: sourceKeyOf(record, reply),
      attempts: 3,
      retryBaseMs: options.retryBaseMs,
    }).pipe(
      Effect.catch((error) =>
        Effect.logWarning("assistant reply not sent").pipe(
          Effect.annotateLogs({ orgId: reply.orgId, reason: error._tag }),
        ),
      ),
    )
  })

export const consumeAssistantReplies = (options: { readonly retryBaseMs: number } = { retryBaseMs: 1000 }) =>
  Effect.gen(function* () {
    const bus = yield* Bus
    // The replies of one subscription's window share their pending and outcome writes' transactions.
    const context = Context.merge(
      yield* Effect.context<Database | ProviderParties>(),
      yield* Layer.build(SendWriteBatches.layer),
    )
    return yield* bus.subscribe(
      { groupId: ASSISTANT_REPLIES_GROUP, topics: [Topics.channelOutbound] },
      decodeOrSkip(ChannelOutbound, (reply, record) =>
        handleAssistantReply(reply, record, options).pipe(Effect.provideContext(context)),
      ),
    )
  })

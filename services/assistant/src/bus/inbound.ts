import { Bus, decodeOrSkip, OutboxWriter } from "@parley/bus"
import { ChannelInbound, ChannelOutbound, encodeBusValue, Topics } from "@parley/contracts"
import { Database, makeGroupCommit, withTransaction } from "@parley/db"
import { newId } from "@parley/platform"
import { Clock, Context, Effect, Layer, Option } from "effect"
import type postgres from "postgres"
import {
  findChannelTurn,
  recentHistory,
  STALE_TURN_RETRIES,
  type StaleConversation,
  storeTurn,
} from "../chat/conversation-store.ts"
import { runTurn } from "../chat/turn.ts"
import { handOffOf } from "../conversations/customer-turn.ts"
import { channelMessageWhileHeld } from "../conversations/held-message.ts"
import { personHolds } from "../conversations/hold.ts"
import { leadOfConversation } from "../engine/lead-capture.ts"
import { emptyConversation } from "../engine/state.ts"
import { recordLead } from "../leads/record-lead.ts"
import { LanguageModel } from "../llm/language-model.ts"
import { claimStatement, handledColumn } from "./inbound-handled.ts"
import { OneAtATime } from "./one-at-a-time.ts"

export const CHANNEL_INBOUND_GROUP = "assistant.channel-inbound"

/**
 * Answers one customer message from a phone channel: the same engine as the widget, on the
 * conversation of (organization, channel, customer number). The stored turn, the lead (only once
 * there is something to record, with the customer's own number) and the reply as `ChannelOutbound`
 * commit in one transaction, marked handled by the provider's message id so a redelivered record
 * does nothing.
 */
export const handleChannelInbound = (inbound: ChannelInbound) =>
  answerChannelMessage(inbound).pipe(
    // A turn that lost a race for its conversation is recomputed; past the retries the bus retries.
    Effect.retry({ times: STALE_TURN_RETRIES, while: (error) => error._tag === "StaleConversation" }),
    Effect.withSpan("assistant.channelInbound"),
  )

const answerChannelMessage = (inbound: ChannelInbound) =>
  Effect.gen(function* () {
    const { sql } = yield* Database
    // Whether the message was handled, its conversation and the settings: one round trip before the turn.
    const { found, setup, also } = yield* findChannelTurn<{ handled: boolean }>(
      sql,
      inbound.orgId,
      inbound.channel,
      inbound.from,
      handledColumn(sql, inbound),
    )
    if (also.handled) return
    const conversationId = found?.id ?? newId("ses")
    const arrivedAt = new Date(yield* Clock.currentTimeMillis)
    if (found !== undefined && (yield* personHolds(sql, found, arrivedAt))) {
      return yield* channelMessageWhileHeld(inbound, found, arrivedAt)
    }
    // Only a model reads the history; the deterministic engine keeps what it needs in the state.
    const model = yield* LanguageModel
    const history = found === undefined || !model.enabled ? [] : yield* recentHistory(sql, conversationId)
    const state = found?.state ?? emptyConversation
    const profileName = inbound.name.trim()
    const turn = yield* runTurn({
      orgId: inbound.orgId,
      conversationId,
      source: inbound.channel,
      customerPhone: inbound.from,
      state,
      message: inbound.text,
      history,
      setup,
    })
    const handOff = handOffOf(inbound.text, found?.state, turn)
    const outbox = yield* OutboxWriter
    const at = new Date(yield* Clock.currentTimeMillis)
    yield* (yield* turnCommit)((tx) =>
      Effect.gen(function* () {
        // The message is claimed by the statement that stores the turn: a redelivery stores nothing, and stops here.
        const claimed = yield* storeTurn(tx, {
          id: conversationId,
          readVersion: found?.version,
          orgId: inbound.orgId,
          channel: inbound.channel,
          customer: inbound.from,
          state: turn.state,
          visitorText: inbound.text,
          replyText: handOff.text,
          at,
          note: { waiting: handOff.waiting, receivedAt: new Date(inbound.receivedAt), customerName: profileName },
          claim: claimStatement(tx, inbound),
        })
        if (!claimed) return
        const capture = leadOfConversation(turn.state, inbound.channel, inbound.from)
        // The provider's profile name is a better name than none, but never replaces one the customer gave.
        if (capture !== undefined) {
          yield* recordLead(
            tx,
            inbound.orgId,
            capture.name === "" && profileName !== "" ? { ...capture, name: profileName } : capture,
          )
        }
        yield* outbox.append(tx, [
          {
            topic: Topics.channelOutbound,
            key: inbound.orgId,
            value: encodeBusValue(ChannelOutbound, {
              orgId: inbound.orgId,
              channel: inbound.channel,
              to: inbound.from,
              text: handOff.text,
              inReplyTo: inbound.messageId,
            }),
          },
        ])
      }),
    )
  })

/** A turn's writes, all through `tx`: they commit together, or not at all. */
type TurnWrites = (tx: postgres.TransactionSql) => Effect.Effect<void, StaleConversation, OutboxWriter>

/**
 * Turns of different customers that finish together commit in one transaction (`makeGroupCommit`):
 * each handler still goes on — and the bus commits past its record — only once its own turn
 * committed, and a batch that fails (a stale conversation) is applied again turn by turn, so each
 * turn gets the outcome it would have had alone. Its writes are idempotent by `claimStatement`.
 */
class TurnCommits extends Context.Service<
  TurnCommits,
  (writes: TurnWrites) => Effect.Effect<void, StaleConversation, OutboxWriter>
>()("@parley/assistant/TurnCommits") {
  /** One group commit, shared by the handlers of the subscription it is built for. */
  static readonly layer = Layer.effect(
    TurnCommits,
    Effect.map(
      makeGroupCommit((tx, turns: ReadonlyArray<TurnWrites>) => Effect.forEach(turns, (writes) => writes(tx))),
      (commits) => TurnCommits.of(commits.submit),
    ),
  )
}

/** The subscription's shared turn commits; elsewhere (a turn handled alone) a transaction of its own. */
const turnCommit = Effect.map(Effect.serviceOption(TurnCommits), (shared) =>
  Option.getOrElse(shared, () => (writes: TurnWrites) => withTransaction(writes)),
)

/** Subscribes to `parley.channel.inbound.v1` for as long as the Scope lives. */
export const consumeChannelInbound = Effect.gen(function* () {
  const bus = yield* Bus
  const context = Context.merge(
    yield* Effect.context<Database | OutboxWriter | LanguageModel>(),
    yield* Layer.build(TurnCommits.layer),
  )
  const serial = new OneAtATime()
  return yield* bus.subscribe(
    { groupId: CHANNEL_INBOUND_GROUP, topics: [Topics.channelInbound] },
    decodeOrSkip(ChannelInbound, (message) =>
      serial
        .run(`${message.orgId}:${message.channel}:${message.from}`, handleChannelInbound(message))
        .pipe(Effect.provideContext(context)),
    ),
  )
})

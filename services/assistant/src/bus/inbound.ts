import { Bus, decodeOrSkip, OutboxWriter } from "@parley/bus"
import { ChannelInbound, ChannelOutbound, encodeBusValue, Topics } from "@parley/contracts"
import { Database, makeGroupCommit, withTransaction } from "@parley/db"
import { BatchQueue, newId, withHotSpan } from "@parley/platform"
import { Clock, Context, Effect, Layer, Option } from "effect"
import type postgres from "postgres"
import {
  type ChannelTurnKey,
  type ChannelTurnStart,
  findChannelTurns,
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
import { askedOffTheLead } from "../leads/asked-off-the-lead.ts"
import { type LeadFound, leadStatement, leadWrite, recordFoundLead } from "../leads/record-lead.ts"
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
    withHotSpan("assistant.channelInbound"),
  )

const answerChannelMessage = (inbound: ChannelInbound) =>
  Effect.gen(function* () {
    const { sql } = yield* Database
    // Whether the message was handled, its conversation and the settings: one round trip before the turn.
    const { found, setup, also } = yield* (yield* turnRead)({
      orgId: inbound.orgId,
      channel: inbound.channel,
      customer: inbound.from,
      messageId: inbound.messageId,
    })
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
      customerName: profileName,
      state,
      message: inbound.text,
      history,
      setup,
    })
    const handOff = handOffOf(inbound.text, found?.state, turn)
    const outbox = yield* OutboxWriter
    const at = new Date(yield* Clock.currentTimeMillis)
    const capture = leadOfConversation(turn.state, inbound.channel, inbound.from)
    // The provider's profile name is a better name than none, but never replaces one the customer gave.
    const lead =
      capture === undefined
        ? undefined
        : yield* leadWrite(
            inbound.orgId,
            capture.name === "" && profileName !== "" ? { ...capture, name: profileName } : capture,
          )
    yield* (yield* turnCommit)({
      customer: `${inbound.orgId}:${inbound.from}`,
      writes: (tx) =>
        Effect.gen(function* () {
          // The message is claimed by the statement that stores the turn: a redelivery stores nothing, and stops here.
          const stored = yield* storeTurn<LeadFound>(tx, {
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
            // The statement that stores the turn creates the lead, or locks the known one (a round trip
            // less); `recordFoundLead` merges what the turn learnt into it.
            also: lead === undefined ? undefined : leadStatement(tx, lead, tx`exists (select from stored)`, "also"),
          })
          if (stored === false) return
          if (lead !== undefined) {
            const recorded = yield* recordFoundLead(tx, lead, stored.also[0])
            const previous =
              found === undefined ? undefined : leadOfConversation(found.state, inbound.channel, inbound.from)
            // A request the lead does not say (it already says BOOKING) waits for a person in the Inbox.
            if (!handOff.waiting && askedOffTheLead(previous, lead.input, recorded)) {
              yield* Effect.promise(
                () => tx`update assistant.conversations set waiting = true where id = ${conversationId}`,
              )
            }
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
    })
  })

/**
 * A turn's writes, all through `tx`: they commit together, or not at all. `customer` (organization
 * and number) names the lead they may write.
 */
export interface TurnWrites {
  readonly customer: string
  readonly writes: (tx: postgres.TransactionSql) => Effect.Effect<void, StaleConversation, OutboxWriter>
}

/**
 * A batch's turns, written concurrently — except the turns of one number (its cloud and bridge
 * conversations may finish together), which run one after another: two turns reading and merging
 * the same lead row in one transaction would otherwise each overwrite what the other merged.
 */
export const writeTurns = (tx: postgres.TransactionSql, turns: ReadonlyArray<TurnWrites>) => {
  const byCustomer = new Map<string, Array<TurnWrites>>()
  for (const turn of turns) {
    const ofOne = byCustomer.get(turn.customer)
    if (ofOne === undefined) byCustomer.set(turn.customer, [turn])
    else ofOne.push(turn)
  }
  return Effect.forEach(
    byCustomer.values(),
    (ofOne) => Effect.forEach(ofOne, (turn) => turn.writes(tx), { discard: true }),
    { concurrency: "unbounded", discard: true },
  ).pipe(Effect.as(turns.map(() => undefined)))
}

/**
 * Turns of different customers that finish together commit in one transaction (`makeGroupCommit`):
 * each handler still goes on — and the bus commits past its record — only once its own turn
 * committed, and a batch that fails (a stale conversation) is applied again turn by turn, so each
 * turn gets the outcome it would have had alone. Its writes are idempotent by `claimStatement`.
 *
 * The batch's turns write concurrently: postgres.js pipelines what they send on the transaction's
 * one connection, so a batch of n turns waits for about one turn's round trips (1–3), not n times
 * as many; the server still runs the statements one after another, and each turn's own statements
 * stay in order (`writeTurns`).
 */
class TurnCommits extends Context.Service<
  TurnCommits,
  (writes: TurnWrites) => Effect.Effect<void, StaleConversation, OutboxWriter>
>()("@parley/assistant/TurnCommits") {
  /** One group commit, shared by the handlers of the subscription it is built for. */
  static readonly layer = Layer.effect(
    TurnCommits,
    Effect.map(makeGroupCommit(writeTurns), (commits) => TurnCommits.of(commits.submit)),
  )
}

/** What a channel turn starts from, with whether its message was handled. */
type TurnStart = ChannelTurnStart<{ handled: boolean }>

/** The turns' reads, one statement for any number of messages. */
const readTurns = (sql: postgres.Sql) => (keys: ReadonlyArray<ChannelTurnKey>) =>
  findChannelTurns<{ handled: boolean }>(sql, keys, handledColumn(sql))

/**
 * The reads of turns that start together go as one statement (`BatchQueue`): the records a fetch
 * hands the subscription start their turns at once, and each would otherwise be a round trip of its
 * own. Idle, a read leaves at once.
 */
class TurnReads extends Context.Service<TurnReads, (key: ChannelTurnKey) => Effect.Effect<TurnStart>>()(
  "@parley/assistant/TurnReads",
) {
  /** One queue, shared by the handlers of the subscription it is built for. */
  static readonly layer = Layer.effect(
    TurnReads,
    Effect.gen(function* () {
      const { sql } = yield* Database
      const reads = new BatchQueue(readTurns(sql))
      yield* Effect.addFinalizer(() => Effect.promise(() => reads.close()))
      return TurnReads.of((key) => Effect.promise(() => reads.submit(key)))
    }),
  )
}

/** The subscription's shared turn reads; elsewhere (a turn handled alone) a statement of its own. */
const turnRead = Effect.map(Effect.all([Effect.serviceOption(TurnReads), Database]), ([shared, { sql }]) =>
  Option.getOrElse(
    shared,
    () => (key: ChannelTurnKey) =>
      Effect.promise(() => readTurns(sql)([key])).pipe(Effect.map(([start]) => start as TurnStart)),
  ),
)

/** The subscription's shared turn commits; elsewhere (a turn handled alone) a transaction of its own. */
const turnCommit = Effect.map(Effect.serviceOption(TurnCommits), (shared) =>
  Option.getOrElse(shared, () => (turn: TurnWrites) => withTransaction(turn.writes)),
)

/** Subscribes to `parley.channel.inbound.v1` for as long as the Scope lives. */
export const consumeChannelInbound = Effect.gen(function* () {
  const bus = yield* Bus
  const context = Context.merge(
    yield* Effect.context<Database | OutboxWriter | LanguageModel>(),
    yield* Layer.build(Layer.merge(TurnCommits.layer, TurnReads.layer)),
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

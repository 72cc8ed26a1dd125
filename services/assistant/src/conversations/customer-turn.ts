/**
 * What the inbox adds to a customer's message (widget or channel), called by the two turn paths:
 * - while a person holds the conversation, the assistant stays quiet: the message is stored and its
 *   lead captured (the number, name and request read from it, the same capture that runs after a
 *   model's turn), and nothing is booked or answered;
 * - otherwise the assistant answers, except that a customer asking for a person is told one will
 *   answer; either that, or the assistant handing off because it could not answer (it offers a
 *   callback), marks the conversation as waiting for a person;
 * - every stored message is announced to the live inbox.
 */

import type { OutboxWriter } from "@parley/bus"
import type { Database } from "@parley/db"
import { jsonb } from "@parley/db"
import { Effect } from "effect"
import type postgres from "postgres"
import { StaleConversation } from "../chat/conversation-store.ts"
import { engineContextOf } from "../chat/deterministic-turn.ts"
import { type TurnInput, turnContextOf } from "../chat/turn.ts"
import { captureFacts } from "../engine/dialogue.ts"
import { readMessage } from "../engine/read-message.ts"
import type { ConversationState } from "../engine/state.ts"
import { asksForPerson, handedOffReply } from "./asks-for-person.ts"
import { announceChange } from "./feed.ts"

/** The customer's facts folded into the state, without the dialogue (nothing booked, nothing replied). */
export const captureOnly = (input: TurnInput): Effect.Effect<ConversationState, never, Database | OutboxWriter> =>
  Effect.gen(function* () {
    const context = yield* turnContextOf(input)
    const engine = engineContextOf(context)
    return captureFacts(input.state, readMessage(input.message, input.state, engine), engine)
  })

/**
 * Stores a customer's message in a conversation a person holds: the state moves from the version
 * it was read at (StaleConversation when another write got there first), no reply is stored.
 */
export const storeHeldMessage = (
  tx: postgres.TransactionSql,
  message: {
    readonly id: string
    readonly readVersion: string
    readonly state: ConversationState
    readonly text: string
    readonly at: Date
  },
): Effect.Effect<void, StaleConversation> =>
  Effect.gen(function* () {
    const stored = yield* Effect.promise(
      () => tx`
        update assistant.conversations
        set state = ${jsonb(tx, message.state)}, version = version + 1, updated_at = ${message.at}
        where id = ${message.id} and version = ${message.readVersion}::bigint
        returning id`,
    )
    if (stored.length === 0) return yield* Effect.fail(new StaleConversation())
    yield* Effect.promise(
      () => tx`
        insert into assistant.conversation_messages (conversation_id, role, text, created_at)
        values (${message.id}, 'visitor', ${message.text}, ${message.at})`,
    )
  })

/** The reply the assistant gives, and whether the conversation now waits for a person. */
export const handOffOf = (
  message: string,
  before: ConversationState | undefined,
  turn: { readonly text: string; readonly state: ConversationState },
): { readonly text: string; readonly waiting: boolean } => {
  if (asksForPerson(message)) return { text: handedOffReply(turn.state.language), waiting: true }
  const offeredCallback = turn.state.awaiting === "callbackOffer" && before?.awaiting !== "callbackOffer"
  return { text: turn.text, waiting: offeredCallback }
}

/**
 * After a customer's message is stored while a person holds the conversation: the waiting mark
 * (set, never cleared here: a person's answer clears it), the channel's service window and the
 * provider's name for the customer, and the announcement to the live inbox — all in the message's
 * transaction. (A turn the assistant answers notes the same in `storeTurn`'s one statement.)
 */
export const noteCustomerMessage = (
  tx: postgres.TransactionSql,
  conversationId: string,
  note: {
    readonly waiting: boolean
    readonly receivedAt?: Date | undefined
    readonly customerName?: string | undefined
  },
): Effect.Effect<void> =>
  Effect.gen(function* () {
    const name = note.customerName?.trim()
    yield* Effect.promise(
      () => tx`
        update assistant.conversations
        set waiting = waiting or ${note.waiting},
            last_customer_at = coalesce(${note.receivedAt ?? null}, last_customer_at),
            customer_name = coalesce(${name === undefined || name === "" ? null : name}, customer_name)
        where id = ${conversationId}`,
    )
    yield* announceChange(tx, conversationId)
  })

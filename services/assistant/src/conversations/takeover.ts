/**
 * A person stepping in (docs/contract.md §17): taking a conversation over, answering in it, giving it
 * back. Each runs in one transaction that locks the conversation's row, so two members racing for
 * one conversation get one hold and one 409; each moves the conversation's version, so an assistant
 * turn computed before a takeover is stale and is computed again (and then stays quiet); each
 * announces the change to the live inbox.
 */
import { OutboxWriter } from "@parley/bus"
import { ChannelOutbound, type ConversationSummary, encodeBusValue, type Principal, Topics } from "@parley/contracts"
import { type Database, withTransaction } from "@parley/db"
import { newId } from "@parley/platform"
import { Clock, Effect } from "effect"
import type postgres from "postgres"
import { ConversationHeld, OutsideServiceWindow, type ResourceNotFound } from "../errors.ts"
import { announceChange } from "./feed.ts"
import { type Holder, holdStands, SERVICE_WINDOW_MS } from "./hold.ts"
import { type ConversationRow, findConversation, toSummary } from "./inbox-store.ts"

/** The person (or the API key, which acts as an administrator: §2.3) acting. */
export const holderOf = (principal: Principal): Holder =>
  principal.actor.type === "user"
    ? { id: principal.actor.userId, email: principal.actor.email ?? "" }
    : { id: principal.actor.keyId, email: "" }

const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

/** The conversation locked for this transaction, and whether `actor` may act in it. */
const lockFor = (tx: postgres.TransactionSql, principal: Principal, id: string, at: Date) =>
  Effect.gen(function* () {
    const row = yield* findConversation(tx, principal.orgId, id)
    yield* Effect.promise(() => tx`select 1 from assistant.conversations where id = ${row.internal_id} for update`)
    // Read again under the lock: another member's takeover may have committed in between.
    const locked = yield* findConversation(tx, principal.orgId, id)
    const held = holdStands(locked, at)
    const mine = held && locked.holder_id === holderOf(principal).id
    return { row: locked, held, mine, mayAct: !held || mine || principal.role === "admin" }
  })

const hold = (tx: postgres.TransactionSql, row: ConversationRow, holder: Holder, at: Date) =>
  Effect.promise(
    () => tx`
      update assistant.conversations
      set holder_id = ${holder.id}, holder_email = ${holder.email}, held_at = ${at}, waiting = false,
          updated_at = ${at}, version = version + 1
      where id = ${row.internal_id}`,
  )

const summaryAfter = (tx: postgres.TransactionSql, principal: Principal, id: string, at: Date) =>
  Effect.gen(function* () {
    const row = yield* findConversation(tx, principal.orgId, id)
    yield* announceChange(tx, row.internal_id)
    return toSummary(row, at)
  })

/** A change a person makes to who holds the conversation, answered with the conversation after it. */
const changeHold = (
  span: string,
  principal: Principal,
  id: string,
  change: (tx: postgres.TransactionSql, row: ConversationRow, at: Date) => Effect.Effect<unknown>,
): Effect.Effect<ConversationSummary, ResourceNotFound | ConversationHeld, Database> =>
  Effect.gen(function* () {
    const at = yield* now
    return yield* withTransaction((tx) =>
      Effect.gen(function* () {
        const { row, mayAct } = yield* lockFor(tx, principal, id, at)
        if (!mayAct) return yield* Effect.fail(new ConversationHeld())
        yield* change(tx, row, at)
        return yield* summaryAfter(tx, principal, id, at)
      }),
    )
  }).pipe(Effect.withSpan(span))

/** `POST /api/conversations/:id/takeover`: the caller holds it; a member cannot take it from another member. */
export const takeOver = (principal: Principal, id: string) =>
  changeHold("assistant.takeOverConversation", principal, id, (tx, row, at) => hold(tx, row, holderOf(principal), at))

/** `POST /api/conversations/:id/release`: back to the assistant (by its holder or an administrator). */
export const release = (principal: Principal, id: string) =>
  changeHold("assistant.releaseConversation", principal, id, (tx, row) =>
    Effect.promise(
      () => tx`
        update assistant.conversations
        set holder_id = null, holder_email = null, held_at = null, version = version + 1
        where id = ${row.internal_id}`,
    ),
  )

/**
 * `POST /api/conversations/:id/messages`: a person's reply. Sent through the conversation's channel
 * as a `channel.outbound` record, like the assistant's own replies (on the cloud channel only within
 * §9's 24 hours of the customer's last message, which the assistant knows from the inbound records'
 * `receivedAt`), or stored for the widget, which shows it on its next read. A conversation nobody
 * holds is taken over by the sender first; the hold's silence starts again.
 */
export const sendStaffMessage = (
  principal: Principal,
  id: string,
  text: string,
): Effect.Effect<{ id: string }, ResourceNotFound | ConversationHeld | OutsideServiceWindow, Database | OutboxWriter> =>
  Effect.gen(function* () {
    const at = yield* now
    const outbox = yield* OutboxWriter
    return yield* withTransaction((tx) =>
      Effect.gen(function* () {
        const { row, held, mayAct } = yield* lockFor(tx, principal, id, at)
        if (!mayAct) return yield* Effect.fail(new ConversationHeld())
        if (row.channel === "cloud" && outsideWindow(row, at)) return yield* Effect.fail(new OutsideServiceWindow())
        const author = holderOf(principal)
        if (held) {
          yield* Effect.promise(
            () => tx`
              update assistant.conversations set waiting = false, updated_at = ${at}, version = version + 1
              where id = ${row.internal_id}`,
          )
        } else {
          yield* hold(tx, row, author, at)
        }
        const messageId = newId("msg")
        yield* Effect.promise(
          () => tx`
            insert into assistant.conversation_messages
              (conversation_id, role, text, created_at, message_id, author_id, author_email)
            values (${row.internal_id}, 'staff', ${text}, ${at}, ${messageId}, ${author.id}, ${author.email})`,
        )
        if (row.channel !== null && row.phone !== null) {
          yield* outbox.append(tx, [
            {
              topic: Topics.channelOutbound,
              key: principal.orgId,
              value: encodeBusValue(ChannelOutbound, {
                orgId: principal.orgId,
                channel: row.channel,
                to: row.phone,
                text,
              } as ChannelOutbound),
            },
          ])
        }
        yield* announceChange(tx, row.internal_id)
        return { id: messageId }
      }),
    )
  }).pipe(Effect.withSpan("assistant.sendStaffMessage"))

const outsideWindow = (row: ConversationRow, at: Date): boolean =>
  row.last_customer_at === null || at.getTime() - row.last_customer_at.getTime() > SERVICE_WINDOW_MS

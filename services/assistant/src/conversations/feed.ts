import type { OrgId } from "@parley/contracts"
/**
 * The live side of the inbox: which conversation of which organization just changed. A change is a
 * Postgres `NOTIFY` sent in the transaction that made it (so it is heard only once committed, by
 * every assistant instance on the database); each instance LISTENs on one connection, started with
 * its first subscriber, and hands `cnv_…` ids to the subscribers of that organization only.
 */
import { Database } from "@parley/db"
import { Context, Effect, Layer } from "effect"
import type postgres from "postgres"

export const CONVERSATIONS_CHANNEL = "parley_assistant_conversations"

type Queries = postgres.Sql | postgres.TransactionSql

/** Announces, when the transaction commits, that a conversation (by internal id) changed. */
export const announceChange = (tx: Queries, conversationId: string): Effect.Effect<void> =>
  Effect.promise(
    () => tx`
      select pg_notify(${CONVERSATIONS_CHANNEL}, org_id || ' ' || public_id)
      from assistant.conversations where id = ${conversationId} and not preview`,
  ).pipe(Effect.asVoid)

export type ChangeListener = (conversationId: string) => void

export interface ConversationFeedShape {
  /** Calls `listener` with the `cnv_…` id of each change of the organization's conversations; returns the unsubscribe. */
  subscribe(orgId: OrgId, listener: ChangeListener): Promise<() => void>
  /** How many subscribers are listening (the metrics and the bench read it). */
  readonly size: number
  close(): Promise<void>
}

export class ConversationFeed extends Context.Service<ConversationFeed, ConversationFeedShape>()(
  "@parley/assistant/ConversationFeed",
) {
  /** The feed on the service's Database, listening for as long as the Layer's scope lives. */
  static readonly layer = Layer.effect(
    ConversationFeed,
    Effect.gen(function* () {
      const { sql } = yield* Database
      return yield* Effect.acquireRelease(
        Effect.sync(() => ConversationFeed.make(sql)),
        (made) => Effect.promise(() => made.close()),
      )
    }),
  )

  static readonly make = (sql: postgres.Sql): ConversationFeedShape => {
    const byOrg = new Map<string, Set<ChangeListener>>()
    let size = 0
    let listening: Promise<{ unlisten(): Promise<void> }> | undefined
    const deliver = (payload: string) => {
      const space = payload.indexOf(" ")
      const listeners = byOrg.get(payload.slice(0, space))
      if (listeners === undefined) return
      const id = payload.slice(space + 1)
      for (const listener of listeners) listener(id)
    }
    return {
      subscribe: async (orgId, listener) => {
        if (listening === undefined) {
          const started = sql.listen(CONVERSATIONS_CHANNEL, deliver)
          listening = started
          // A LISTEN that could not start is tried again by the next subscriber (the browser reconnects).
          started.catch(() => {
            if (listening === started) listening = undefined
          })
        }
        await listening
        const listeners = byOrg.get(orgId) ?? new Set<ChangeListener>()
        byOrg.set(orgId, listeners)
        listeners.add(listener)
        size++
        return () => {
          if (!listeners.delete(listener)) return
          size--
          if (listeners.size === 0) byOrg.delete(orgId)
        }
      },
      get size() {
        return size
      },
      close: async () => {
        byOrg.clear()
        size = 0
        const started = listening
        listening = undefined
        if (started !== undefined) await (await started).unlisten().catch(() => undefined)
      },
    }
  }
}

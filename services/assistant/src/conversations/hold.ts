/**
 * Who holds a conversation (docs/contract.md §17). A person who takes a conversation over holds it until
 * they release it, or until it has been silent for 24 hours: no message either way and no takeover
 * (`updated_at`, which every stored message moves). The rule is read where it matters — the listing,
 * the assistant's turn, a person's action — rather than by a sweeper, so no timer runs and the answer
 * is the same on every instance; the turn that finds a lapsed hold clears it, so the customer's
 * message that ends the silence is answered by the assistant and does not renew the hold.
 */
import { Effect } from "effect"
import type postgres from "postgres"

type Queries = postgres.Sql | postgres.TransactionSql

/** Silence after which a held conversation returns to the assistant by itself. */
export const HOLD_LAPSES_AFTER_MS = 24 * 60 * 60 * 1000

/** §9's customer-service window on the cloud channel: free-form text within 24 h of the customer's last message. */
export const SERVICE_WINDOW_MS = 24 * 60 * 60 * 1000

/** The moment before which a conversation's last activity no longer keeps its hold. */
export const holdCutoff = (now: Date): Date => new Date(now.getTime() - HOLD_LAPSES_AFTER_MS)

export interface Holder {
  readonly id: string
  readonly email: string
}

/** A conversation's hold as stored: who holds it, and its last activity. */
export interface HoldRow {
  readonly holder_id: string | null
  readonly updated_at: Date
}

/** Whether a stored hold still stands at `now`. */
export const holdStands = (row: HoldRow, now: Date): boolean =>
  row.holder_id !== null && row.updated_at.getTime() > holdCutoff(now).getTime()

/**
 * Whether a person holds the conversation at `now`, from its hold as read with it (no query while
 * nobody holds it); a hold that lapsed is cleared here, before the assistant answers the message
 * that ends the silence.
 */
export const personHolds = (
  sql: Queries,
  conversation: { readonly id: string; readonly hold: HoldRow },
  now: Date,
): Effect.Effect<boolean> =>
  Effect.promise(async () => {
    const conversationId = conversation.id
    if (conversation.hold.holder_id === null) return false
    if (holdStands(conversation.hold, now)) return true
    await sql`
      update assistant.conversations set holder_id = null, holder_email = null, held_at = null
      where id = ${conversationId} and holder_id is not null and updated_at <= ${holdCutoff(now)}`
    return false
  })

/**
 * Gives every conversation `holderId` holds in the organization back to the assistant, as a release
 * would (docs/contract.md §17): for a member who left the organization, whose holds would otherwise
 * lock the conversation for others and keep the assistant silent for 24 hours. Moves each version (a
 * turn computed under the hold is stale) and answers the released conversations' internal ids; a
 * second call finds none, so a redelivered removal changes nothing.
 */
export const releaseHoldsOf = (sql: Queries, orgId: string, holderId: string): Effect.Effect<ReadonlyArray<string>> =>
  Effect.promise(
    () => sql<Array<{ id: string }>>`
      update assistant.conversations
      set holder_id = null, holder_email = null, held_at = null, version = version + 1
      where org_id = ${orgId} and holder_id = ${holderId}
      returning id`,
  ).pipe(Effect.map((rows) => rows.map((row) => row.id)))

import type { ChannelInbound } from "@parley/contracts"
import { Effect } from "effect"
import type postgres from "postgres"

/**
 * The statement that marks a provider's message handled in the transaction that handles it: a row
 * when this delivery is the first, none when another delivery of the same record got there first (a
 * redelivered `ChannelInbound` then does nothing). `storeTurn` runs it with the turn (`claim`).
 */
export const claimStatement = (tx: postgres.TransactionSql, inbound: ChannelInbound) => tx`
  insert into assistant.inbound_handled (org_id, channel, message_id)
  values (${inbound.orgId}, ${inbound.channel}, ${inbound.messageId})
  on conflict do nothing returning 1`

/** Runs `claimStatement` on its own: whether this delivery is the first. */
export const claimInbound = (tx: postgres.TransactionSql, inbound: ChannelInbound): Effect.Effect<boolean> =>
  Effect.promise(() => claimStatement(tx, inbound)).pipe(Effect.map((claimed) => claimed.length > 0))

/**
 * Whether a provider's message was handled already, as a column (`handled`) of the statement that
 * reads what its turn starts from (`findChannelTurns`, whose source `o` has the message's `org_id`,
 * `channel` and `message_id`): a redelivered record is known before its turn runs (a turn can book).
 */
export const handledColumn = (sql: postgres.Sql) => sql`
  exists (
    select 1 from assistant.inbound_handled h
    where h.org_id = o.org_id and h.channel = o.channel and h.message_id = o.message_id
  ) as handled`

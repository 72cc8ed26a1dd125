import type { ChannelInbound } from "@parley/contracts"
import { Effect } from "effect"
import type postgres from "postgres"

/**
 * Marks a provider's message handled in the transaction that handles it; false when another delivery
 * of the same record got there first (a redelivered `ChannelInbound` then does nothing).
 */
export const claimInbound = (tx: postgres.TransactionSql, inbound: ChannelInbound): Effect.Effect<boolean> =>
  Effect.promise(
    () => tx`
      insert into assistant.inbound_handled (org_id, channel, message_id)
      values (${inbound.orgId}, ${inbound.channel}, ${inbound.messageId})
      on conflict do nothing returning 1`,
  ).pipe(Effect.map((claimed) => claimed.length > 0))

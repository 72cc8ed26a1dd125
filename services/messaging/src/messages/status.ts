import { MessageStatusValue, type OrgId } from "@parley/contracts"
import { Effect, Schema } from "effect"
import type postgres from "postgres"

/** The statuses that are `message.status` events (docs/contract.md §7); the provider's others fire nothing. */
export const isReportedStatus = Schema.is(MessageStatusValue)

/**
 * Records a status the provider reported for a message; true when it is new and `message.status`
 * must fire. The (message, status) primary key makes a redelivered status a no-op. The stored
 * message only moves forward (a late `delivered` never overwrites `read`), while every distinct
 * report still fires its event: receivers see what the provider said.
 */
export const recordStatus = (
  tx: postgres.TransactionSql,
  orgId: OrgId,
  report: { readonly messageId: string; readonly status: MessageStatusValue; readonly recipient: string },
): Effect.Effect<boolean> =>
  Effect.promise(async () => {
    const inserted = await tx`
      insert into messaging.message_statuses (org_id, provider_message_id, status, recipient)
      values (${orgId}, ${report.messageId}, ${report.status}, ${report.recipient})
      on conflict do nothing
      returning 1`
    if (inserted.length === 0) return false
    await tx`
      update messaging.messages set status = ${report.status}, updated_at = now()
      where org_id = ${orgId} and direction = 'outbound' and provider_message_id = ${report.messageId}
        and ${rank(report.status)} > case status
          when 'pending' then 0 when 'sent' then 1 when 'delivered' then 2 when 'read' then 3 else 4 end`
    return true
  })

const rank = (status: string): number =>
  status === "sent" ? 1 : status === "delivered" ? 2 : status === "read" ? 3 : status === "failed" ? 4 : 0

import { MessageStatusValue, type OrgId } from "@parley/contracts"
import { Effect, Schema } from "effect"
import type postgres from "postgres"

/** The statuses that are `message.status` events (docs/contract.md §7); the provider's others fire nothing. */
export const isReportedStatus = Schema.is(MessageStatusValue)

/**
 * Whether the organization sent the reported message through Parley on that channel (docs/contract.md
 * §7: `message.status` fires only for such a message). A bridge message's id is Parley's own, stored
 * before the bridge hears of it, so a bridge status either names one or is no message of ours. A
 * cloud message's id is the provider's, stored only once its answer is (`send-writes.ts`, the
 * campaign ledger), and the provider's status can overtake that answer; so a cloud status also counts
 * when the sandbox provider holds the message for the organization (its own record of what Parley
 * sent) or when a send of the organization's to that recipient is still waiting for the provider's
 * answer — a status for any other id (a message the number sent outside Parley, an id made up) fires
 * nothing.
 */
const sentThroughParley = (
  tx: postgres.TransactionSql,
  orgId: OrgId,
  channel: "cloud" | "bridge",
  report: { readonly messageId: string; readonly recipient: string },
) =>
  channel === "bridge"
    ? tx`exists (select 1 from messaging.messages
                 where org_id = ${orgId} and provider_message_id = ${report.messageId}
                   and direction = 'outbound' and channel = 'bridge')`
    : tx`(exists (select 1 from messaging.messages
                  where org_id = ${orgId} and provider_message_id = ${report.messageId}
                    and direction = 'outbound' and channel = 'cloud')
          or exists (select 1 from messaging.sandbox_outbox
                     where message_id = ${report.messageId} and org_id = ${orgId})
          or exists (select 1 from messaging.messages
                     where org_id = ${orgId} and phone = ${report.recipient} and direction = 'outbound'
                       and channel = 'cloud' and status = 'pending' and provider_message_id is null)
          or exists (select 1 from messaging.campaign_recipients r
                     join messaging.campaigns c on c.id = r.campaign_id
                     where c.org_id = ${orgId} and c.status = 'running' and r.state = 'sending'
                       and r.phone = ${report.recipient}))`

/**
 * What became of a reported status: `new` (recorded: `message.status` must fire), `seen` (recorded
 * before: a redelivery, fires nothing) or `unknown` (no message the organization sent through
 * Parley on that channel, `sentThroughParley`: recorded nowhere, fires nothing).
 */
export type StatusOutcome = "new" | "seen" | "unknown"

/**
 * Records a status the provider reported for a message the organization sent through Parley on
 * that channel. The (message, status) primary key makes a redelivered status a no-op. The stored
 * message only moves forward (a late `delivered` never overwrites `read`), while every distinct
 * report still fires its event: receivers see what the provider said.
 */
export const recordStatus = (
  tx: postgres.TransactionSql,
  orgId: OrgId,
  channel: "cloud" | "bridge",
  report: { readonly messageId: string; readonly status: MessageStatusValue; readonly recipient: string },
): Effect.Effect<StatusOutcome> =>
  Effect.promise(async () => {
    const [outcome] = await tx<Array<{ known: boolean; inserted: number }>>`
      with known as (select ${sentThroughParley(tx, orgId, channel, report)} as known),
      inserted as (
        insert into messaging.message_statuses (org_id, provider_message_id, status, recipient)
        select ${orgId}, ${report.messageId}, ${report.status}, ${report.recipient}
        from known where known.known
        on conflict do nothing
        returning 1)
      select (select known from known) as known, (select count(*) from inserted)::int as inserted`
    if (outcome === undefined || !outcome.known) return "unknown"
    if (outcome.inserted === 0) return "seen"
    await tx`
      update messaging.messages set status = ${report.status}, updated_at = now()
      where org_id = ${orgId} and direction = 'outbound' and provider_message_id = ${report.messageId}
        and ${rank(report.status)} > case status
          when 'pending' then 0 when 'sent' then 1 when 'delivered' then 2 when 'read' then 3 else 4 end`
    return "new"
  })

const rank = (status: string): number =>
  status === "sent" ? 1 : status === "delivered" ? 2 : status === "read" ? 3 : status === "failed" ? 4 : 0

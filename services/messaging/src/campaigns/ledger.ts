import type { OrgId } from "@parley/contracts"
import { type Database, type GroupCommit, makeGroupCommit } from "@parley/db"
import { Effect, type Scope } from "effect"
import type postgres from "postgres"
import type { ProviderOutcome } from "../cloud/graph-client.ts"
import type { MessagingMetrics } from "../metrics.ts"

/** A recipient about to be sent to: `claimed → sending`, committed before the provider is called. */
export interface SendStarting {
  readonly kind: "starting"
  readonly campaignId: string
  readonly seq: number
}

/** What the provider answered for a recipient: `sending → sent | failed`, with the counters and a message record. */
export interface SendFinished {
  readonly kind: "finished"
  readonly campaignId: string
  readonly orgId: OrgId
  readonly seq: number
  readonly phone: string
  readonly messageId: string
  readonly outcome: ProviderOutcome<string>
  /** Whether the provider was called (a message record is kept); false for an opted-out recipient. */
  readonly called: boolean
}

/**
 * The provider refused for throughput (130429, 131056, HTTP 429): the message was certainly not
 * sent, so the recipient goes back, `sending → pending`, to be claimed again after `delayMs`.
 * Never counted, never a failure.
 */
export interface SendDeferred {
  readonly kind: "deferred"
  readonly campaignId: string
  readonly seq: number
  readonly delayMs: number
  readonly detail: string
}

export type LedgerEntry = SendStarting | SendFinished | SendDeferred

/**
 * Where a campaign worker writes each recipient's progress, by group commit: the marks and outcomes
 * of every send in flight go out together, one transaction per round trip, so writing each one as
 * it happens costs a handful of commits per batch rather than one per recipient. Every entry is
 * answered `true` when it applied: only rows still held by `token` change, so a worker whose claims
 * were taken back (it stalled past its lease) neither sends nor counts what it no longer holds.
 */
export type CampaignLedger = GroupCommit<LedgerEntry, boolean, never>

export const makeCampaignLedger = (
  token: string,
  metrics: MessagingMetrics["Service"],
): Effect.Effect<CampaignLedger, never, Database | Scope.Scope> =>
  makeGroupCommit((tx, entries: ReadonlyArray<LedgerEntry>) =>
    Effect.promise(async () => {
      const applied = new Set<string>()
      const keyOf = (campaignId: string, seq: number) => `${campaignId}\n${seq}`
      const starting = entries.filter((e): e is SendStarting => e.kind === "starting")
      const finished = entries.filter((e): e is SendFinished => e.kind === "finished")
      const deferred = entries.filter((e): e is SendDeferred => e.kind === "deferred")
      if (starting.length > 0) {
        const marked = await tx<Array<{ campaign_id: string; seq: number }>>`
          update messaging.campaign_recipients r set state = 'sending'
          from unnest(${starting.map((e) => e.campaignId)}::text[], ${starting.map((e) => e.seq)}::int[])
               as s(campaign_id, seq)
          where r.campaign_id = s.campaign_id and r.seq = s.seq and r.state = 'claimed' and r.claim_token = ${token}
          returning r.campaign_id, r.seq`
        for (const row of marked) applied.add(`starting\n${keyOf(row.campaign_id, row.seq)}`)
      }
      if (finished.length > 0) await applyOutcomes(tx, token, finished, applied, metrics)
      if (deferred.length > 0) {
        const put = await tx<Array<{ campaign_id: string; seq: number }>>`
          update messaging.campaign_recipients r
          set state = 'pending', claim_token = null, throttled = r.throttled + 1, error = d.detail,
              retry_at = now() + make_interval(secs => d.delay_ms / 1000.0)
          from unnest(${deferred.map((e) => e.campaignId)}::text[], ${deferred.map((e) => e.seq)}::int[],
                      ${deferred.map((e) => e.delayMs)}::int[], ${deferred.map((e) => e.detail)}::text[])
               as d(campaign_id, seq, delay_ms, detail)
          where r.campaign_id = d.campaign_id and r.seq = d.seq and r.state = 'sending' and r.claim_token = ${token}
          returning r.campaign_id, r.seq`
        for (const row of put) applied.add(`deferred\n${keyOf(row.campaign_id, row.seq)}`)
        metrics.campaignRecipients.inc({ outcome: "throttled" }, put.length)
      }
      return entries.map((e) => applied.has(`${e.kind}\n${keyOf(e.campaignId, e.seq)}`))
    }),
  )

const applyOutcomes = async (
  tx: postgres.TransactionSql,
  token: string,
  finished: ReadonlyArray<SendFinished>,
  applied: Set<string>,
  metrics: MessagingMetrics["Service"],
) => {
  const rows = finished.map((e) => ({
    ...e,
    state: e.outcome._tag === "Accepted" ? "sent" : "failed",
    providerId: e.outcome._tag === "Accepted" ? e.outcome.value : null,
    error: e.outcome._tag === "Accepted" ? null : e.outcome.detail,
  }))
  const marked = await tx<Array<{ campaign_id: string; seq: number; state: string }>>`
    update messaging.campaign_recipients r
    set state = o.state, provider_message_id = o.provider_id, error = o.error, retry_at = null
    from unnest(${rows.map((r) => r.campaignId)}::text[], ${rows.map((r) => r.seq)}::int[],
                ${rows.map((r) => r.state)}::text[], ${rows.map((r) => r.providerId)}::text[],
                ${rows.map((r) => r.error)}::text[]) as o(campaign_id, seq, state, provider_id, error)
    where r.campaign_id = o.campaign_id and r.seq = o.seq and r.state = 'sending' and r.claim_token = ${token}
    returning r.campaign_id, r.seq, r.state`
  if (marked.length === 0) return
  const kept = new Set(marked.map((m) => `${m.campaign_id}\n${m.seq}`))
  for (const key of kept) applied.add(`finished\n${key}`)
  const counts = new Map<string, { sent: number; failed: number }>()
  for (const m of marked) {
    const count = counts.get(m.campaign_id) ?? { sent: 0, failed: 0 }
    if (m.state === "sent") count.sent++
    else count.failed++
    counts.set(m.campaign_id, count)
  }
  const ids = [...counts.keys()]
  await tx`
    update messaging.campaigns c set sent = c.sent + n.sent, failed = c.failed + n.failed
    from unnest(${ids}::text[], ${ids.map((id) => counts.get(id)?.sent ?? 0)}::int[],
                ${ids.map((id) => counts.get(id)?.failed ?? 0)}::int[]) as n(id, sent, failed)
    where c.id = n.id`
  const recorded = rows.filter((r) => r.called && kept.has(`${r.campaignId}\n${r.seq}`))
  await tx`
    insert into messaging.messages
      (id, org_id, channel, direction, phone, type, text, provider_message_id, status, error, campaign_id)
    select m.id, m.org_id, 'cloud', 'outbound', m.phone, 'template', '', m.provider_id, m.state, m.error, m.campaign_id
    from unnest(${recorded.map((r) => r.messageId)}::text[], ${recorded.map((r) => r.orgId)}::text[],
                ${recorded.map((r) => r.phone)}::text[], ${recorded.map((r) => r.providerId)}::text[],
                ${recorded.map((r) => r.state)}::text[], ${recorded.map((r) => r.error)}::text[],
                ${recorded.map((r) => r.campaignId)}::text[])
         as m(id, org_id, phone, provider_id, state, error, campaign_id)`
  let sent = 0
  for (const count of counts.values()) sent += count.sent
  metrics.campaignRecipients.inc({ outcome: "sent" }, sent)
  metrics.campaignRecipients.inc({ outcome: "failed" }, marked.length - sent)
}

import { OutboxWriter } from "@parley/bus"
import { Database, withTransaction } from "@parley/db"
import { newId } from "@parley/platform"
import { Effect, Option } from "effect"
import { findChannel, type StoredChannel } from "../channels/repository.ts"
import type { ProviderOutcome } from "../cloud/graph-client.ts"
import { campaignCompleted } from "../events.ts"
import { deliver } from "../messages/send.ts"
import { MessagingResources } from "../resources.ts"
import { makePacer } from "./pacer.ts"
import { CampaignWakeup } from "./wakeup.ts"

export interface CampaignWorkerOptions {
  /** Provider calls per second, across every campaign of this process. */
  readonly ratePerSecond: number
  /** Recipients claimed and in flight at once per campaign batch. */
  readonly concurrency?: number
  /** Attempts per recipient while the provider answers rate-limited or unavailable. */
  readonly maxAttempts?: number
  /** First backoff after a rate-limited answer; doubles per attempt, capped at 30 s. */
  readonly retryBaseMs?: number
  /**
   * A recipient still `sending` after this long was abandoned by a crashed worker. Well above the
   * longest a live worker can hold one (6 attempts × 15 s timeout + 31 s of backoff), so a slow
   * send in progress is never taken for a crashed one.
   */
  readonly staleSendingMs?: number
  /**
   * The longest the worker sleeps when it has nothing to send (default 30 s): new campaigns wake it
   * (`CampaignWakeup`), so this only paces the sweep of abandoned recipients and another instance
   * picking up a crashed one's campaign.
   */
  readonly pollMs?: number
}

interface RunningCampaign {
  id: string
  org_id: string
  name: string
  template_name: string
  template_language: string
}

interface ClaimedRecipient {
  seq: number
  phone: string
}

interface Finished {
  readonly recipient: ClaimedRecipient
  readonly messageId: string
  readonly outcome: ProviderOutcome<string>
}

const UNKNOWN_OUTCOME = "outcome unknown: the worker stopped while sending; not resent to avoid a duplicate"

/**
 * Sends running campaigns, durably and at most once per recipient:
 *
 * 1. claim a batch: `pending → sending` (with `claimed_at`), committed BEFORE any provider call;
 * 2. call the provider, retrying rate-limit and availability answers with exponential backoff;
 * 3. commit the batch's `sending → sent | failed` together with the campaign's counters and the
 *    message records, in one transaction.
 *
 * Claim-to-commit runs uninterruptibly, so a graceful stop finishes the batch in hand and a restart
 * resumes from the first `pending` recipient: none skipped, none sent twice. Only a hard crash
 * between 1 and 3 leaves rows in `sending`; their outcome is unknowable (the provider has no
 * idempotency key), so after `staleSendingMs` they are counted failed rather than risk a second
 * message. `FOR UPDATE SKIP LOCKED` lets several instances share one campaign.
 */
export const runCampaignWorker = (options: CampaignWorkerOptions) =>
  Effect.gen(function* () {
    const { sql } = yield* Database
    const wakeup = yield* CampaignWakeup
    const { metrics } = yield* MessagingResources
    const pace = makePacer(options.ratePerSecond)
    const concurrency = options.concurrency ?? Math.max(1, Math.min(64, Math.ceil(options.ratePerSecond / 4)))
    const maxAttempts = options.maxAttempts ?? 6
    const retryBaseMs = options.retryBaseMs ?? 1000
    const staleMs = options.staleSendingMs ?? 600_000
    const pollMs = options.pollMs ?? 30_000

    const sendOne = (channel: StoredChannel, campaign: RunningCampaign, recipient: ClaimedRecipient) =>
      Effect.gen(function* () {
        const messageId = newId("msg")
        let outcome: ProviderOutcome<string> = { _tag: "Unavailable", detail: "not attempted" }
        for (let attempt = 1; attempt <= maxAttempts; attempt++) {
          yield* pace
          outcome = yield* deliver(channel, messageId, {
            to: recipient.phone,
            content: { type: "template", name: campaign.template_name, language: campaign.template_language },
          })
          if (outcome._tag === "Accepted" || outcome._tag === "Rejected") break
          if (attempt < maxAttempts) yield* Effect.sleep(Math.min(30_000, retryBaseMs * 2 ** (attempt - 1)))
        }
        return { recipient, messageId, outcome } satisfies Finished
      })

    /**
     * Commits a batch's outcomes in ONE transaction: recipients `sending → sent | failed` (only rows
     * still `sending`, so a row already given up on is never counted twice), the campaign's counters,
     * and a message record per recipient for status tracking. One commit per batch instead of per
     * recipient is what lets a campaign approach the provider's per-number rate.
     */
    const recordOutcomes = (campaign: RunningCampaign, finished: ReadonlyArray<Finished>) => {
      const rows = finished.map(({ recipient, messageId, outcome }) => ({
        seq: recipient.seq,
        phone: recipient.phone,
        messageId,
        state: outcome._tag === "Accepted" ? "sent" : "failed",
        providerId: outcome._tag === "Accepted" ? outcome.value : null,
        error: outcome._tag === "Accepted" ? null : outcome.detail,
      }))
      return Effect.promise(() =>
        sql.begin(async (tx) => {
          const marked = await tx<Array<{ seq: number; state: string }>>`
            update messaging.campaign_recipients r
            set state = o.state, provider_message_id = o.provider_id, error = o.error
            from unnest(${rows.map((r) => r.seq)}::int[], ${rows.map((r) => r.state)}::text[],
                        ${rows.map((r) => r.providerId)}::text[], ${rows.map((r) => r.error)}::text[])
                 as o(seq, state, provider_id, error)
            where r.campaign_id = ${campaign.id} and r.seq = o.seq and r.state = 'sending'
            returning r.seq, r.state`
          if (marked.length === 0) return
          const sent = marked.filter((m) => m.state === "sent").length
          const failed = marked.length - sent
          await tx`
            update messaging.campaigns set sent = sent + ${sent}, failed = failed + ${failed}
            where id = ${campaign.id}`
          const kept = new Set(marked.map((m) => m.seq))
          const recorded = rows.filter((r) => kept.has(r.seq))
          await tx`
            insert into messaging.messages
              (id, org_id, channel, direction, phone, type, text, provider_message_id, status, error, campaign_id)
            select m.id, ${campaign.org_id}, 'cloud', 'outbound', m.phone, 'template', '', m.provider_id, m.state,
                   m.error, ${campaign.id}
            from unnest(${recorded.map((r) => r.messageId)}::text[], ${recorded.map((r) => r.phone)}::text[],
                        ${recorded.map((r) => r.providerId)}::text[], ${recorded.map((r) => r.state)}::text[],
                        ${recorded.map((r) => r.error)}::text[]) as m(id, phone, provider_id, state, error)`
          metrics.campaignRecipients.inc({ outcome: "sent" }, sent)
          metrics.campaignRecipients.inc({ outcome: "failed" }, failed)
        }),
      )
    }

    const claim = (campaign: RunningCampaign) =>
      Effect.promise(
        () => sql<Array<ClaimedRecipient>>`
          update messaging.campaign_recipients set state = 'sending', claimed_at = now()
          where campaign_id = ${campaign.id} and seq in (
            select seq from messaging.campaign_recipients
            where campaign_id = ${campaign.id} and state = 'pending'
            order by seq limit ${concurrency}
            for update skip locked)
          returning seq, phone`,
      )

    const failAll = (campaign: RunningCampaign, batch: ReadonlyArray<ClaimedRecipient>, detail: string) =>
      recordOutcomes(
        campaign,
        batch.map((recipient) => ({
          recipient,
          messageId: newId("msg"),
          outcome: { _tag: "Rejected", status: 409, detail } as const,
        })),
      )

    /** Sends one batch; answers how many recipients it claimed. */
    const sendBatch = (campaign: RunningCampaign) =>
      Effect.gen(function* () {
        const channel = yield* findChannel(campaign.org_id, "cloud")
        const batch = yield* claim(campaign)
        if (batch.length === 0) return 0
        if (Option.isNone(channel)) yield* failAll(campaign, batch, "no cloud channel is configured")
        else {
          const finished = yield* Effect.forEach(batch, (r) => sendOne(channel.value, campaign, r), { concurrency })
          yield* recordOutcomes(campaign, finished)
        }
        return batch.length
      }).pipe(Effect.uninterruptible)

    // The final counts are recounted from the recipients, the source of truth, so the event's
    // `sent + failed = totalRecipients` holds by construction whatever the running counters say.
    const complete = (campaign: RunningCampaign) =>
      withTransaction((tx) =>
        Effect.gen(function* () {
          const outbox = yield* OutboxWriter
          // Two probes, each on one partial index, so this stays cheap however far the campaign is:
          // a `state in (…)` filter, or a plain EXISTS on pending (the planner drops its ORDER BY and
          // seq-scans past the sent rows), costs a scan of the campaign. The recount below runs once,
          // when nothing is left.
          const [open] = yield* Effect.promise(
            () => tx<Array<{ open: boolean }>>`
              select (select seq from messaging.campaign_recipients
                      where campaign_id = ${campaign.id} and state = 'pending' order by seq limit 1) is not null
                  or exists (select 1 from messaging.campaign_recipients
                             where campaign_id = ${campaign.id} and state = 'sending') as open`,
          )
          if (open?.open !== false) return
          const [done] = yield* Effect.promise(
            () => tx<Array<{ total_recipients: number; sent: number; failed: number; completed_at: Date }>>`
              update messaging.campaigns c
              set status = 'completed', completed_at = now(), sent = t.sent, failed = t.failed
              from (select count(*) filter (where state = 'sent')::int as sent,
                           count(*) filter (where state = 'failed')::int as failed
                    from messaging.campaign_recipients where campaign_id = ${campaign.id}) t
              where c.id = ${campaign.id} and c.status = 'running'
              returning c.total_recipients, c.sent, c.failed, c.completed_at`,
          )
          if (done === undefined) return
          const data = {
            campaignId: campaign.id,
            name: campaign.name,
            totalRecipients: done.total_recipients,
            sent: done.sent,
            failed: done.failed,
          }
          yield* outbox.append(tx, [campaignCompleted(campaign.org_id, data, done.completed_at)])
          yield* Effect.logInfo("campaign completed").pipe(Effect.annotateLogs(data))
        }),
      )

    const failStale = Effect.promise(
      () => sql`
        with stale as (
          update messaging.campaign_recipients set state = 'failed', error = ${UNKNOWN_OUTCOME}
          where state = 'sending' and claimed_at < now() - make_interval(secs => ${staleMs / 1000})
          returning campaign_id)
        update messaging.campaigns c set failed = c.failed + s.n
        from (select campaign_id, count(*)::int as n from stale group by campaign_id) s
        where c.id = s.campaign_id`,
    )

    const round = Effect.gen(function* () {
      yield* failStale
      const running = yield* Effect.promise(
        () => sql<Array<RunningCampaign>>`
          select id, org_id, name, template_name, template_language from messaging.campaigns
          where status = 'running' order by created_at, id`,
      )
      let worked = false
      for (const campaign of running) {
        const claimed = yield* sendBatch(campaign)
        if (claimed > 0) worked = true
        // A full batch means more may be pending: completion is only worth checking after a short one.
        if (claimed < concurrency) yield* complete(campaign)
      }
      return worked
    })

    while (true) {
      const worked = yield* round.pipe(
        Effect.catchCause((cause) => Effect.logError("campaign worker round failed", cause).pipe(Effect.as(false))),
      )
      if (!worked) yield* Effect.promise(() => wakeup.wait(pollMs))
    }
  })

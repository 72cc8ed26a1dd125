import { OutboxWriter } from "@parley/bus"
import type { OrgId } from "@parley/contracts"
import { Database, withTransaction } from "@parley/db"
import { newId } from "@parley/platform"
import { Effect, Option, Schedule } from "effect"
import type postgres from "postgres"
import { campaignCompleted } from "../bus/events.ts"
import { findChannel, type StoredChannel } from "../channels/repository.ts"
import type { ProviderOutcome } from "../cloud/graph-client.ts"
import { deliver } from "../messages/send.ts"
import { MessagingMetrics } from "../metrics.ts"
import { makeCampaignLedger } from "./ledger.ts"
import { makeNumberPacer } from "./pacer.ts"
import { CampaignWakeup } from "./wakeup.ts"

export interface CampaignWorkerOptions {
  /** Provider calls per second per sending number, across every instance (PARLEY_CLOUD_SEND_RATE). */
  readonly ratePerSecond: number
  /** Recipients claimed and in flight at once per campaign batch. */
  readonly concurrency?: number
  /** Attempts per recipient while the provider answers unavailable (5xx, timeout, connection error). */
  readonly maxAttempts?: number
  /**
   * First backoff after an unavailable answer, and the first pause of a recipient the provider
   * refused for throughput; doubles per attempt, capped at 30 s (60 s for throughput).
   */
  readonly retryBaseMs?: number
  /**
   * How long a worker's claims stay its own without renewal. A live worker renews them every third
   * of it; a crashed one's come back after it (`claimed` → pending, `sending` → failed), so a
   * campaign a hard kill interrupted completes this long after, not minutes.
   */
  readonly claimLeaseMs?: number
  /** The pause between rounds that found nothing to send while campaigns are running (default 1 s). */
  readonly pollMs?: number
  /**
   * The pause when no campaign is running at all (default 30 s): a new campaign wakes the worker
   * (`CampaignWakeup`, over LISTEN/NOTIFY for every instance), so this only paces the sweep of
   * expired claims when nothing is running. Polling every second there was, idle, the largest share
   * of what `npm start` still did.
   */
  readonly idlePollMs?: number
}

interface RunningCampaign {
  id: string
  org_id: OrgId
  name: string
  template_name: string
  template_language: string
}

export interface ClaimedRecipient {
  seq: number
  phone: string
  variables: ReadonlyArray<string> | null
  throttled: number
  opted_out: boolean
}

/** The provider refused for throughput: the recipient goes back to pending, not counted. */
interface Throttled {
  readonly _tag: "Throttled"
  readonly detail: string
}

/**
 * Claims up to `limit` pending recipients of a campaign for `token` (`pending → claimed`), with
 * whether each has opted out since the campaign was created. The rows are picked and locked once, in
 * a materialized common table expression: as `seq in (select … limit n for update skip locked)` the
 * planner could run the subquery again for each row it joined (a nested-loop semi-join, as a generic
 * plan chose), each run skipping the rows the statement had just claimed and locking the next n — one
 * claim took a whole 600-recipient campaign, and a customer's STOP arriving while it ran was read
 * long before their send, which then went out (a tester's walk; docs/contract.md §9).
 */
export const claimRecipients = (
  sql: postgres.Sql | postgres.TransactionSql,
  campaign: { readonly id: string; readonly org_id: string },
  limit: number,
  token: string,
) =>
  sql<Array<ClaimedRecipient>>`
    with picked as materialized (
      select seq from messaging.campaign_recipients
      where campaign_id = ${campaign.id} and state = 'pending' and (retry_at is null or retry_at <= now())
      order by seq limit ${limit}
      for update skip locked),
    claimed as (
      update messaging.campaign_recipients r
      set state = 'claimed', claimed_at = now(), claim_token = ${token}
      from picked
      where r.campaign_id = ${campaign.id} and r.seq = picked.seq
      returning r.seq, r.phone, r.variables, r.throttled)
    select c.seq, c.phone, c.variables, c.throttled,
           exists (select 1 from messaging.opt_outs o where o.org_id = ${campaign.org_id} and o.phone = c.phone)
             as opted_out
    from claimed c`

/** The sending number a channel's sends are paced by. */
const numberOf = (channel: StoredChannel): string => channel.phone_number_id ?? channel.id

/** A recipient who opted out after the campaign was created: never sent, counted failed. */
const OPTED_OUT = { _tag: "Rejected", status: 409, detail: "opted_out" } as const

const UNKNOWN_OUTCOME = "outcome unknown: the worker stopped while sending; not resent to avoid a duplicate"

/**
 * Sends running campaigns, durably and at most once per recipient, counting each exactly:
 *
 * 1. claim a batch: `pending → claimed`, with this worker's token and a lease it keeps renewing;
 * 2. per recipient, just before its first provider call: `claimed → sending`, committed;
 * 3. as soon as the provider answered (rate-limit and availability answers retried with backoff):
 *    `sending → sent | failed`, the campaign's counters and a message record, committed.
 *
 * Steps 2 and 3 of every send in flight go through one group commit (`ledger.ts`), a few
 * transactions per batch. A graceful stop finishes the batch in hand. After a hard kill the lease
 * runs out and the claims come back: a `claimed` recipient was never called and goes back to
 * `pending`; a `sending` one may have been sent (the provider has no idempotency key) and is counted
 * failed ("outcome unknown") rather than risk a second message; one whose answer was recorded keeps
 * it. `FOR UPDATE SKIP LOCKED` lets several instances share one campaign.
 */
export const runCampaignWorker = (options: CampaignWorkerOptions) =>
  Effect.gen(function* () {
    const { sql } = yield* Database
    const wakeup = yield* CampaignWakeup
    const metrics = yield* MessagingMetrics
    const pacer = makeNumberPacer(sql, options.ratePerSecond)
    const concurrency = options.concurrency ?? Math.max(1, Math.min(64, Math.ceil(options.ratePerSecond / 4)))
    const maxAttempts = options.maxAttempts ?? 6
    const retryBaseMs = options.retryBaseMs ?? 1000
    const leaseMs = options.claimLeaseMs ?? 15_000
    const pollMs = options.pollMs ?? 1000
    const idlePollMs = options.idlePollMs ?? 30_000
    // This worker's claims: a token of its own, renewed while it runs.
    const token = newId("cw")
    const ledger = yield* makeCampaignLedger(token, metrics)
    // Rows the ledger is moving right now are skipped (renewed next time, well inside the lease):
    // locking them here in another order than the ledger's transaction deadlocked the two.
    yield* Effect.promise(
      () => sql`
        update messaging.campaign_recipients r set claimed_at = now()
        from (select campaign_id, seq from messaging.campaign_recipients
              where claim_token = ${token} and state in ('claimed', 'sending')
              for update skip locked) held
        where r.campaign_id = held.campaign_id and r.seq = held.seq`,
    ).pipe(
      Effect.catchCause((cause) => Effect.logWarning("renewing campaign claims failed", cause)),
      Effect.repeat(Schedule.spaced(Math.max(100, Math.floor(leaseMs / 3)))),
      Effect.forkScoped,
    )

    /**
     * Marks the recipient durably "being sent", then, only if that applied (the claim is still this
     * worker's), runs `outcome` and records what it answered: a crash between the two counts the
     * recipient failed, never sends it again; a crash before leaves it to be sent after all.
     */
    const settle = <E, R>(
      campaign: RunningCampaign,
      recipient: ClaimedRecipient,
      messageId: string,
      outcome: Effect.Effect<ProviderOutcome<string> | Throttled, E, R>,
      called = true,
    ) =>
      Effect.gen(function* () {
        if (!(yield* ledger.submit({ kind: "starting", campaignId: campaign.id, seq: recipient.seq }))) return
        const answer = yield* outcome
        if (answer._tag === "Throttled") {
          yield* ledger.submit({
            kind: "deferred",
            campaignId: campaign.id,
            seq: recipient.seq,
            delayMs: Math.min(60_000, retryBaseMs * 2 ** recipient.throttled),
            detail: answer.detail,
          })
          return
        }
        yield* ledger.submit({
          kind: "finished",
          campaignId: campaign.id,
          orgId: campaign.org_id,
          seq: recipient.seq,
          phone: recipient.phone,
          messageId,
          outcome: answer,
          called,
        })
      })

    const sendOne = (channel: StoredChannel, campaign: RunningCampaign, recipient: ClaimedRecipient, slot: number) =>
      Effect.gen(function* () {
        const messageId = newId("msg")
        if (recipient.opted_out) {
          // Opted out after the campaign was created: not sent, counted failed (docs/contract.md §9).
          yield* settle(campaign, recipient, messageId, Effect.succeed(OPTED_OUT), false)
          return
        }
        const paceNumber = pacer.pace(numberOf(channel))
        // The slot, and a gap after this process's previous call to the number, before the send is
        // marked: the mark-to-call window (a crash there counts the recipient failed) stays short.
        yield* pacer.release(numberOf(channel), slot)
        // Durably "being sent" before the provider hears of it (see `settle`).
        yield* settle(
          campaign,
          recipient,
          messageId,
          Effect.gen(function* () {
            let outcome: ProviderOutcome<string> = { _tag: "Unavailable", detail: "not attempted" }
            for (let attempt = 1; attempt <= maxAttempts; attempt++) {
              if (attempt > 1) yield* Effect.andThen(paceNumber, pacer.release(numberOf(channel), 0))
              outcome = yield* deliver(channel, messageId, {
                to: recipient.phone,
                content: {
                  type: "template",
                  name: campaign.template_name,
                  language: campaign.template_language,
                  variables: recipient.variables ?? [],
                },
              })
              // Certainly not sent: back to pending, to be tried again after a pause, never a failure.
              if (outcome._tag === "RateLimited") return { _tag: "Throttled", detail: outcome.detail } as const
              if (outcome._tag === "Accepted" || outcome._tag === "Rejected") break
              if (attempt < maxAttempts) yield* Effect.sleep(Math.min(30_000, retryBaseMs * 2 ** (attempt - 1)))
            }
            return outcome
          }),
        )
      })

    const claim = (campaign: RunningCampaign) =>
      Effect.promise(() => claimRecipients(sql, campaign, concurrency, token))

    /** No channel to send through: each claimed recipient is refused without a provider call. */
    const failAll = (campaign: RunningCampaign, batch: ReadonlyArray<ClaimedRecipient>, detail: string) =>
      Effect.forEach(
        batch,
        (recipient) =>
          settle(
            campaign,
            recipient,
            newId("msg"),
            Effect.succeed(recipient.opted_out ? OPTED_OUT : ({ _tag: "Rejected", status: 409, detail } as const)),
            !recipient.opted_out,
          ),
        { concurrency: "unbounded", discard: true },
      )

    /** Sends one batch; answers how many recipients it claimed. */
    const sendBatch = (campaign: RunningCampaign) =>
      Effect.gen(function* () {
        const channel = yield* findChannel(campaign.org_id, "cloud")
        const batch = yield* claim(campaign)
        if (batch.length === 0) return 0
        if (Option.isNone(channel)) yield* failAll(campaign, batch, "no cloud channel is configured")
        else {
          // The batch's send slots in one reservation (opted-out recipients take none).
          const sending = batch.filter((r) => !r.opted_out).length
          const slots = yield* pacer.reserve(numberOf(channel.value), sending)
          let next = 0
          yield* Effect.forEach(
            batch,
            (r) => sendOne(channel.value, campaign, r, r.opted_out ? 0 : (slots[next++] ?? 0)),
            { concurrency, discard: true },
          )
        }
        return batch.length
      }).pipe(Effect.uninterruptible)

    // The final counts are recounted from the recipients, the source of truth, so the event's
    // `sent + failed = totalRecipients` holds by construction whatever the running counters say.
    const complete = (campaign: RunningCampaign) =>
      withTransaction((tx) =>
        Effect.gen(function* () {
          const outbox = yield* OutboxWriter
          // Anything left: a recipient pending (also one waiting out a throughput pause), claimed by a
          // worker that has not called the provider yet, or being sent. One probe on the partial
          // index of exactly those states, so it stays cheap however far the campaign is. Every
          // state change moves a recipient toward sent or failed (or, on reclaim, from claimed back
          // to pending), so "none left" seen in one snapshot stays true.
          const [open] = yield* Effect.promise(
            () => tx<Array<{ open: boolean }>>`
              select exists (select 1 from messaging.campaign_recipients
                             where campaign_id = ${campaign.id} and state in ('pending', 'claimed', 'sending')) as open`,
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

    /**
     * Claims whose lease ran out (their worker died or stalled): never-called recipients go back to
     * `pending`, and those whose provider call had begun are counted failed, never sent again.
     */
    const reclaimExpired = Effect.promise(
      () => sql`
        with expired as (
          update messaging.campaign_recipients
          set state = case when state = 'sending' then 'failed' else 'pending' end,
              error = case when state = 'sending' then ${UNKNOWN_OUTCOME} else null end,
              claim_token = null
          where state in ('claimed', 'sending') and claimed_at < now() - make_interval(secs => ${leaseMs / 1000})
          returning campaign_id, state)
        update messaging.campaigns c set failed = c.failed + e.n
        from (select campaign_id, count(*)::int as n from expired where state = 'failed' group by campaign_id) e
        where c.id = e.campaign_id`,
    )

    const round = Effect.gen(function* () {
      yield* reclaimExpired
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
      return { worked, running: running.length > 0 }
    })

    while (true) {
      const { worked, running } = yield* round.pipe(
        Effect.catchCause((cause) =>
          Effect.logError("campaign worker round failed", cause).pipe(Effect.as({ worked: false, running: true })),
        ),
      )
      if (!worked) yield* Effect.promise(() => wakeup.wait(running ? pollMs : idlePollMs))
    }
  }).pipe(Effect.scoped)

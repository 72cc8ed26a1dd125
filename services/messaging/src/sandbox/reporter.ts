import { Database, type Wakeup } from "@parley/db"
import { Effect } from "effect"
import type postgres from "postgres"
import type { MessagingMetrics } from "../metrics.ts"
import { statusPayload } from "./payloads.ts"
import { STATUS_STEPS } from "./provider.ts"

/** Most reports per pass; the rest follow at once. */
const BATCH = 200
/** Reports of a pass in the ingress at once (it group-commits what arrives together). */
const REPORTS_AT_ONCE = 64
/** With nothing due, look again this often anyway: another instance may have accepted a message. */
const IDLE_CHECK_MS = 5_000

interface DueRow {
  message_id: string
  phone_number_id: string
  business_account_id: string | null
  display_phone_number: string | null
  recipient: string
  status: keyof typeof STATUS_STEPS
}

/**
 * Milliseconds until the next report falls due (≤ 0: due now), or undefined when none is waiting.
 * Nothing waiting must read as undefined, not 0: `greatest(0, NULL)` is 0, and the reporter of an
 * idle sandbox once looked again every 10 ms — two statements each time, 200 a second, forever.
 */
export const msUntilNextReport = async (sql: postgres.Sql): Promise<number | undefined> => {
  const [next] = await sql<Array<{ wait_ms: number | null }>>`
    select (extract(epoch from (min(next_status_at) - now())) * 1000)::float8 as wait_ms
    from messaging.sandbox_outbox where next_status_at is not null`
  return next?.wait_ms ?? undefined
}

/**
 * The sandbox provider's status reports (docs/contract.md §16): each message it accepted is reported
 * `sent`, `delivered`, then `read`, as the provider's webhook payload, through the same ingress as
 * a real provider's. Durable: what is due is in `messaging.sandbox_outbox` (`next_status_at`), so a
 * restart resumes the reports where they were. At least once: a report is submitted, then the row
 * moves on; a crash in between reports it again, and the ingress's deduplication (one row per
 * message and status) fires nothing twice. Instances may report the same row concurrently with the
 * same result.
 *
 * `report` takes a payload into the ingress (`acceptProviderPayload`).
 */
export const runSandboxReporter = (
  wakeup: Wakeup,
  report: (payload: unknown) => Effect.Effect<unknown, unknown, MessagingMetrics>,
) =>
  Effect.gen(function* () {
    const { sql } = yield* Database
    while (true) {
      const due = yield* Effect.promise(
        () => sql<Array<DueRow>>`
          select o.message_id, o.phone_number_id, c.business_account_id, c.display_phone_number, o.recipient, o.status
          from messaging.sandbox_outbox o
          left join messaging.channels c on c.kind = 'cloud' and c.sandbox and c.phone_number_id = o.phone_number_id
          where o.next_status_at <= now()
          order by o.next_status_at limit ${BATCH}`,
      )
      if (due.length === 0) {
        const waitMs = Math.min((yield* Effect.promise(() => msUntilNextReport(sql))) ?? IDLE_CHECK_MS, IDLE_CHECK_MS)
        yield* Effect.promise((signal) => wakeup.wait(Math.max(10, waitMs), signal))
        continue
      }
      // A number since disconnected: nobody to report to; those messages' reports end here.
      const gone = due.filter((row) => row.business_account_id === null).map((row) => row.message_id)
      if (gone.length > 0) {
        yield* Effect.promise(
          () => sql`update messaging.sandbox_outbox set next_status_at = null where message_id = any(${gone}::text[])`,
        )
      }
      // The batch's reports go into the ingress together (it group-commits them), each message's own
      // reports still one after another (they fall due apart). One at a time, a 3,000-recipient
      // campaign's 9,000 reports kept every organization's statuses waiting ~50 s behind it (a
      // tester's walk); together a batch costs a few ingress transactions.
      const live = due.filter((row) => row.business_account_id !== null)
      const accepted = yield* Effect.forEach(
        live,
        (row) =>
          report(
            statusPayload({
              businessAccountId: row.business_account_id as string,
              phoneNumberId: row.phone_number_id,
              displayPhoneNumber: row.display_phone_number ?? "",
              messageId: row.message_id,
              status: STATUS_STEPS[row.status].next,
              recipient: row.recipient,
              at: new Date(),
            }),
          ).pipe(
            Effect.as(true),
            Effect.catchCause((cause) =>
              Effect.logWarning("sandbox: a status report was not accepted; it is tried again").pipe(
                Effect.annotateLogs({ cause: String(cause) }),
                Effect.as(false),
              ),
            ),
          ),
        { concurrency: REPORTS_AT_ONCE },
      )
      const moved = live.filter((_, i) => accepted[i])
      if (moved.length > 0) {
        // Each row moves on to its next status, and is due again when that one is (never after `read`).
        const nexts = moved.map((row) => STATUS_STEPS[row.status].next)
        yield* Effect.promise(
          () => sql`
            update messaging.sandbox_outbox o
            set status = m.next,
                next_status_at = case when m.after_ms < 0 then null
                                      else now() + m.after_ms * interval '1 millisecond' end
            from unnest(${moved.map((row) => row.message_id)}::text[], ${moved.map((row) => row.status)}::text[],
                        ${nexts}::text[],
                        ${nexts.map((next) => (next === "read" ? -1 : STATUS_STEPS[next].afterMs))}::int[])
                 as m(message_id, from_status, next, after_ms)
            where o.message_id = m.message_id and o.status = m.from_status`,
        )
      }
      // Reports the ingress did not take are tried again, after a pause rather than at once.
      if (moved.length < live.length) yield* Effect.sleep(1000)
    }
  })

import { Database, type Wakeup } from "@parley/db"
import { Effect } from "effect"
import type postgres from "postgres"
import type { MessagingMetrics } from "../metrics.ts"
import { statusPayload } from "./payloads.ts"
import { STATUS_STEPS } from "./provider.ts"

/** Most reports per pass; the rest follow at once. */
const BATCH = 200
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
      for (const row of due) {
        if (row.business_account_id === null) {
          // A number since disconnected: nobody to report to; this message's reports end here.
          yield* Effect.promise(
            () => sql`update messaging.sandbox_outbox set next_status_at = null where message_id = ${row.message_id}`,
          )
          continue
        }
        const step = STATUS_STEPS[row.status]
        const accepted = yield* report(
          statusPayload({
            businessAccountId: row.business_account_id,
            phoneNumberId: row.phone_number_id,
            displayPhoneNumber: row.display_phone_number ?? "",
            messageId: row.message_id,
            status: step.next,
            recipient: row.recipient,
            at: new Date(),
          }),
        ).pipe(
          Effect.as(true),
          Effect.catchCause((cause) =>
            Effect.logWarning("sandbox: a status report was not accepted; it is tried again").pipe(
              Effect.annotateLogs({ cause: String(cause) }),
              Effect.andThen(Effect.sleep(1000)),
              Effect.as(false),
            ),
          ),
        )
        if (!accepted) continue
        const following = step.next === "read" ? undefined : STATUS_STEPS[step.next]
        yield* Effect.promise(
          () => sql`
            update messaging.sandbox_outbox
            set status = ${step.next},
                next_status_at = ${
                  following === undefined ? null : sql`now() + ${following.afterMs} * interval '1 millisecond'`
                }
            where message_id = ${row.message_id} and status = ${row.status}`,
        )
      }
    }
  })

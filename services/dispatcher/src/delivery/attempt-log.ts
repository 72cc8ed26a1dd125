import type { OutgoingRecord } from "@parley/bus"
import { BatchQueue } from "@parley/platform"
import type postgres from "postgres"
import type { AttemptOutcome } from "./attempt.ts"

interface LogRow {
  readonly delivery_id: string
  readonly attempt: number
  readonly outcome: string | null
  readonly records: string | null
}

interface AttemptKey {
  readonly deliveryId: string
  readonly attempt: number
}

/** An attempt and what came of it, as the log keeps it. */
export interface LoggedOutcome extends AttemptKey {
  readonly outcome: AttemptOutcome
}

/** How long an attempt is remembered: far longer than any record stays uncommitted. */
export const AttemptLogRetentionMs = 24 * 60 * 60 * 1000

/** A logged attempt: its outcome, or (rows of an earlier version) the records it led to. */
export type LoggedAttempt =
  | { readonly outcome: AttemptOutcome; readonly records?: undefined }
  | { readonly outcome?: undefined; readonly records: ReadonlyArray<OutgoingRecord> }

/**
 * Attempts made and what came of them, so that redelivery of a bus record after a crash does not
 * POST the same attempt again: at-least-once stays, but the window for a duplicate shrinks to the
 * instant between the receiver's answer and this row.
 */
export class AttemptLog {
  readonly #sql: postgres.Sql
  readonly #schema: string

  readonly #finds: BatchQueue<AttemptKey, LogRow | undefined>
  readonly #outcomes: BatchQueue<LoggedOutcome, undefined>

  constructor(sql: postgres.Sql, schema: string) {
    this.#sql = sql
    this.#schema = schema
    // Looked up and written in batches: one query serves every attempt that finished meanwhile.
    this.#finds = new BatchQueue(async (keys) => {
      const rows = await sql<Array<LogRow>>`
        select l.delivery_id, l.attempt, l.outcome, l.records
        from ${sql(schema)}.attempt_log l
        join unnest(${keys.map((k) => k.deliveryId)}::text[], ${keys.map((k) => k.attempt)}::int[]) as k(delivery_id, attempt)
          using (delivery_id, attempt)`
      const found = new Map(rows.map((row) => [`${row.delivery_id}/${row.attempt}`, row]))
      return keys.map((k) => found.get(`${k.deliveryId}/${k.attempt}`))
    })
    this.#outcomes = new BatchQueue(async (entries) => {
      await this.insertStatement(sql, entries)
      return entries.map(() => undefined)
    })
  }

  async find(deliveryId: string, attempt: number): Promise<LoggedAttempt | undefined> {
    const row = await this.#finds.submit({ deliveryId, attempt })
    if (row === undefined) return undefined
    if (row.outcome !== null) return { outcome: JSON.parse(row.outcome) as AttemptOutcome }
    return { records: JSON.parse(row.records ?? "[]") as ReadonlyArray<OutgoingRecord> }
  }

  async record(deliveryId: string, attempt: number, outcome: AttemptOutcome): Promise<void> {
    await this.#outcomes.submit({ deliveryId, attempt, outcome })
  }

  /**
   * The statement that logs `entries` on `sql` (the pool, or a transaction the caller runs), not yet
   * sent. The batch travels as one JSON text (array literals would escape every quote in it again).
   */
  insertStatement(sql: postgres.Sql | postgres.TransactionSql, entries: ReadonlyArray<LoggedOutcome>) {
    return sql`
      insert into ${sql(this.#schema)}.attempt_log (delivery_id, attempt, outcome)
      select e."deliveryId", e.attempt, e.outcome::text
      from jsonb_to_recordset(${JSON.stringify(entries)}::text::jsonb) as e("deliveryId" text, attempt int, outcome jsonb)
      on conflict (delivery_id, attempt) do nothing`
  }

  async deleteExpired(now = Date.now()): Promise<number> {
    const result = await this.#sql`
      delete from ${this.#sql(this.#schema)}.attempt_log where attempted_at < ${new Date(now - AttemptLogRetentionMs)}`
    return result.count
  }
}

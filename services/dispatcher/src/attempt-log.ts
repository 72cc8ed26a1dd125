import type { OutgoingRecord } from "@parley/bus"
import type postgres from "postgres"
import { GroupCommit } from "./group-commit.ts"

interface AttemptKey {
  readonly deliveryId: string
  readonly attempt: number
}

/** How long an attempt is remembered: far longer than any record stays uncommitted. */
export const AttemptLogRetentionMs = 24 * 60 * 60 * 1000

/**
 * Attempts made and the records they produced, so that redelivery of a bus record after a crash
 * does not POST the same attempt again: at-least-once stays, but the window for a duplicate shrinks
 * to the instant between the receiver's answer and this row.
 */
export class AttemptLog {
  readonly #sql: postgres.Sql
  readonly #schema: string

  readonly #finds: GroupCommit<AttemptKey, string | undefined>
  readonly #records: GroupCommit<AttemptKey & { readonly records: string }, undefined>

  constructor(sql: postgres.Sql, schema: string) {
    this.#sql = sql
    this.#schema = schema
    // Looked up and written in batches: one query serves every attempt that finished meanwhile.
    this.#finds = new GroupCommit(async (keys) => {
      const rows = await sql<Array<{ delivery_id: string; attempt: number; records: string }>>`
        select l.delivery_id, l.attempt, l.records
        from ${sql(schema)}.attempt_log l
        join unnest(${keys.map((k) => k.deliveryId)}::text[], ${keys.map((k) => k.attempt)}::int[]) as k(delivery_id, attempt)
          using (delivery_id, attempt)`
      const found = new Map(rows.map((row) => [`${row.delivery_id}/${row.attempt}`, row.records]))
      return keys.map((k) => found.get(`${k.deliveryId}/${k.attempt}`))
    })
    // The batch travels as one JSON text: the records are JSON themselves, and array literals would
    // escape every quote in them again (a copy of each string per escape, per attempt).
    this.#records = new GroupCommit(async (entries) => {
      await sql`
        insert into ${sql(schema)}.attempt_log (delivery_id, attempt, records)
        select e."deliveryId", e.attempt, e.records
        from jsonb_to_recordset(${JSON.stringify(entries)}::text::jsonb) as e("deliveryId" text, attempt int, records text)
        on conflict (delivery_id, attempt) do nothing`
      return entries.map(() => undefined)
    })
  }

  async find(deliveryId: string, attempt: number): Promise<ReadonlyArray<OutgoingRecord> | undefined> {
    const records = await this.#finds.submit({ deliveryId, attempt })
    return records === undefined ? undefined : (JSON.parse(records) as ReadonlyArray<OutgoingRecord>)
  }

  async record(deliveryId: string, attempt: number, records: ReadonlyArray<OutgoingRecord>): Promise<void> {
    await this.#records.submit({ deliveryId, attempt, records: JSON.stringify(records) })
  }

  async deleteExpired(now = Date.now()): Promise<number> {
    const result = await this.#sql`
      delete from ${this.#sql(this.#schema)}.attempt_log where attempted_at < ${new Date(now - AttemptLogRetentionMs)}`
    return result.count
  }
}

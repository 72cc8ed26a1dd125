import type { OutgoingRecord } from "@parley/bus"
import type postgres from "postgres"

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

  constructor(sql: postgres.Sql, schema: string) {
    this.#sql = sql
    this.#schema = schema
  }

  async find(deliveryId: string, attempt: number): Promise<ReadonlyArray<OutgoingRecord> | undefined> {
    const [row] = await this.#sql<Array<{ records: string }>>`
      select records from ${this.#sql(this.#schema)}.attempt_log where delivery_id = ${deliveryId} and attempt = ${attempt}`
    return row === undefined ? undefined : (JSON.parse(row.records) as ReadonlyArray<OutgoingRecord>)
  }

  async record(deliveryId: string, attempt: number, records: ReadonlyArray<OutgoingRecord>): Promise<void> {
    await this.#sql`
      insert into ${this.#sql(this.#schema)}.attempt_log (delivery_id, attempt, records)
      values (${deliveryId}, ${attempt}, ${JSON.stringify(records)})
      on conflict (delivery_id, attempt) do nothing`
  }

  async deleteExpired(now = Date.now()): Promise<number> {
    const result = await this.#sql`
      delete from ${this.#sql(this.#schema)}.attempt_log where attempted_at < ${new Date(now - AttemptLogRetentionMs)}`
    return result.count
  }
}

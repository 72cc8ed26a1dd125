import { DeliveryRecord, decodeBusValue, encodeBusValue } from "@parley/contracts"
import { BatchQueue } from "@parley/platform"
import { Effect } from "effect"
import type postgres from "postgres"
import type { AttemptClass } from "./webhook-shares.ts"

/**
 * How much longer than one attempt's timeout a claim holds a parked delivery: time to log and
 * publish its outcome. Short, because it is also how long a crashed process's claims keep their
 * deliveries from everyone else; a claim that outlives it by a slow publish is claimed again, and the
 * attempt log then republishes instead of POSTing twice.
 */
export const ClaimMarginMs = 5_000

interface ParkedKey {
  readonly deliveryId: string
  readonly attempt: number
}

/** A webhook with parked deliveries nobody holds a claim on, by class. */
export interface ParkedWork {
  readonly webhookId: string
  readonly attemptClass: AttemptClass
}

const decodeDelivery = decodeBusValue(DeliveryRecord)

/**
 * Keys to join parked rows with, as `k`: arrays, not a JSON recordset, because the planner takes a
 * set-returning function for 100 rows and then scans the whole queue (it is longest exactly when a
 * receiver is slow) instead of finding each row by its primary key.
 */
const parkedKeys = (sql: postgres.Sql, keys: ReadonlyArray<ParkedKey>) =>
  sql`unnest(${keys.map((k) => k.deliveryId)}::text[], ${keys.map((k) => k.attempt)}::int[]) as k(delivery_id, attempt)`

const attemptsOf = (attemptClass: AttemptClass): readonly [number, number] =>
  attemptClass === "first" ? [1, 1] : [2, 3]

/**
 * The durable per-webhook queue of deliveries whose webhook's share was full (docs/design.md §3.3):
 * `dispatcher.parked_deliveries`. Parking takes a delivery out of its bus partition's window, so
 * the partition commits past it; a claim takes it back when the webhook has a free place. Claims
 * are leases, so a process that dies holding some only delays them; the attempt log makes sure a
 * claimed delivery whose attempt was already made is not POSTed again.
 */
export class ParkedDeliveries {
  readonly #sql: postgres.Sql
  readonly #schema: string
  readonly #leaseMs: number
  readonly #parks: BatchQueue<DeliveryRecord, undefined>
  readonly #removals: BatchQueue<ParkedKey, undefined>

  /** `attemptTimeoutMs`: the longest one attempt takes; a claim lasts that plus `ClaimMarginMs`. */
  constructor(sql: postgres.Sql, schema: string, attemptTimeoutMs: number) {
    this.#sql = sql
    this.#schema = schema
    this.#leaseMs = attemptTimeoutMs + ClaimMarginMs
    // Parked and removed in batches (one round trip for everything that arrived meanwhile), as JSON
    // text: array literals would escape every quote of every record again.
    this.#parks = new BatchQueue(async (deliveries) => {
      const rows = deliveries.map((delivery) => ({
        deliveryId: delivery.deliveryId,
        attempt: delivery.attempt,
        webhookId: delivery.webhookId,
        dueAt: delivery.notBefore,
        record: encodeBusValue(DeliveryRecord, delivery),
      }))
      await sql`
        insert into ${sql(schema)}.parked_deliveries (delivery_id, attempt, webhook_id, due_at, record)
        select r."deliveryId", r.attempt, r."webhookId", r."dueAt", r.record
        from jsonb_to_recordset(${JSON.stringify(rows)}::text::jsonb)
          as r("deliveryId" text, attempt int, "webhookId" text, "dueAt" timestamptz, record text)
        on conflict (delivery_id, attempt) do nothing`
      return deliveries.map(() => undefined)
    })
    this.#removals = new BatchQueue(async (keys) => {
      await sql`
        delete from ${sql(schema)}.parked_deliveries p
        using ${parkedKeys(sql, keys)}
        where p.delivery_id = k.delivery_id and p.attempt = k.attempt`
      return keys.map(() => undefined)
    })
  }

  /** Durable once this resolves: the bus record it came from may be committed. */
  park(delivery: DeliveryRecord): Promise<void> {
    return this.#parks.submit(delivery)
  }

  /**
   * Claims up to `limit` of a webhook's parked deliveries of one class, in the order they run
   * (third attempts, then second, each by due time; first attempts by due time), skipping rows
   * another process holds. Everything parked is due already (a delivery is parked only when it
   * could have started), so `due_at` orders and never holds back: no clock of another process or
   * of the database decides when a row may go. The pick is `materialized`: run once, it locks at
   * most `limit` rows; inlined, a nested-loop plan could run it again per joined row, each run
   * skipping the rows just claimed and taking the next ones (as a campaign's claim once did).
   */
  async claim(webhookId: string, attemptClass: AttemptClass, limit: number): Promise<Array<DeliveryRecord>> {
    const sql = this.#sql
    const table = sql(this.#schema)
    const [low, high] = attemptsOf(attemptClass)
    const rows = await sql<Array<{ record: string }>>`
      with chosen as materialized (
        select delivery_id, attempt from ${table}.parked_deliveries
        where webhook_id = ${webhookId} and attempt between ${low} and ${high}
          and (claimed_until is null or claimed_until < now())
        order by attempt desc, due_at, parked_seq
        limit ${limit}
        for update skip locked
      ), claimed as (
        update ${table}.parked_deliveries p
        set claimed_until = now() + ${`${this.#leaseMs} milliseconds`}::interval
        from chosen c
        where p.delivery_id = c.delivery_id and p.attempt = c.attempt
        returning p.record, p.attempt, p.due_at, p.parked_seq
      )
      select record from claimed order by attempt desc, due_at, parked_seq`
    // Decoding is synchronous; a bad row fails the claim with its `BusValueError`, as before.
    return rows.map((row) => Effect.runSync(decodeDelivery(row.record)))
  }

  /** The delivery's attempt was made (or is no longer wanted): it leaves the queue. */
  remove(deliveryId: string, attempt: number): Promise<void> {
    return this.#removals.submit({ deliveryId, attempt })
  }

  /** Gives claims back at once (a graceful stop), instead of letting their leases run out. */
  async unclaim(keys: ReadonlyArray<ParkedKey>): Promise<void> {
    if (keys.length === 0) return
    await this.#sql`
      update ${this.#sql(this.#schema)}.parked_deliveries p set claimed_until = null
      from ${parkedKeys(this.#sql, keys)}
      where p.delivery_id = k.delivery_id and p.attempt = k.attempt`
  }

  /**
   * Webhooks and classes that have unclaimed parked deliveries (parked by any process), and whether
   * any are parked at all (claimed ones included: a crashed process's claims run out soon).
   */
  async waiting(): Promise<{ readonly work: Array<ParkedWork>; readonly any: boolean }> {
    const rows = await this.#sql<Array<{ webhook_id: string; first: boolean; retry: boolean }>>`
      select webhook_id,
        coalesce(bool_or(attempt = 1 and free), false) as first,
        coalesce(bool_or(attempt > 1 and free), false) as retry
      from (
        select webhook_id, attempt, claimed_until is null or claimed_until < now() as free
        from ${this.#sql(this.#schema)}.parked_deliveries
      ) p
      group by webhook_id`
    const work = rows.flatMap((row) => [
      ...(row.first ? [{ webhookId: row.webhook_id, attemptClass: "first" as const }] : []),
      ...(row.retry ? [{ webhookId: row.webhook_id, attemptClass: "retry" as const }] : []),
    ])
    return { work, any: rows.length > 0 }
  }

  async count(): Promise<number> {
    const [row] = await this.#sql<Array<{ count: number }>>`
      select count(*)::int as count from ${this.#sql(this.#schema)}.parked_deliveries`
    return row?.count ?? 0
  }
}

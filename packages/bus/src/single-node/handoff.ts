import type postgres from "postgres"
import { type PartitionRef, partitionId } from "./group.ts"

/** Records one append committed to one partition, as the appender holds them: offsets from `first`. */
export interface AppendedBatch {
  readonly topic: string
  readonly partition: number
  readonly first: bigint
  readonly keys: ReadonlyArray<string>
  readonly values: ReadonlyArray<string>
  readonly headers: ReadonlyArray<Record<string, string>>
  /** The appending transaction's now(): every record's `created_at`. */
  readonly timestamp: Date
}

/**
 * A partition worker's answer to an offered batch: it takes it (or a prefix of it) or ignores it;
 * answers how many records it took.
 */
export type BatchTaker = (batch: AppendedBatch) => number

/**
 * How long a NOTIFY waits for this process's appends to its partition that were in flight when it
 * arrived. They normally settle within a round trip; this bounds the wait when one never reports
 * (its transaction's COMMIT failed after the append statement succeeded).
 */
const AppendGraceMs = 250

/** An append of this process whose statement is out: its offer has not been made yet. */
interface LocalAppend {
  readonly since: number
  readonly onSettled: Array<() => void>
}

interface PartitionEntry {
  readonly takers: Set<BatchTaker>
  readonly appending: Set<LocalAppend>
}

/**
 * The partition workers running in this process, per log (one database's `parley_bus`) and
 * partition: an appender offers them the records it has just committed, so a consumer in the same
 * process needs no fetch (issue #28). Offering is an optimisation only — every append also NOTIFYs,
 * and a worker that ignores an offer fetches the records as it always did. Several buses share the
 * process's registry (npm start builds one per service, all on one database); the log's identity
 * keeps buses on different databases (tests) apart.
 *
 * An append's NOTIFY often reaches this process before the append's own answer does (the server
 * signals listeners as it commits, before it answers the appender). Acted on at once, it would
 * fetch the very records the offer brings a moment later; so a NOTIFY first waits for the appends
 * to its partition that this process had in flight when it arrived (`afterLocalAppends`).
 */
export class LocalHandoff {
  private readonly entries = new Map<string, PartitionEntry>()

  /** This registry as seen by the buses of one log. */
  forLog(log: string): LogHandoff {
    const keyOf = (partition: PartitionRef) => `${log}\u0000${partitionId(partition)}`
    const entryOf = (key: string): PartitionEntry => {
      let entry = this.entries.get(key)
      if (entry === undefined) {
        entry = { takers: new Set(), appending: new Set() }
        this.entries.set(key, entry)
      }
      return entry
    }
    const forgetIfEmpty = (key: string, entry: PartitionEntry) => {
      if (entry.takers.size === 0 && entry.appending.size === 0 && this.entries.get(key) === entry) {
        this.entries.delete(key)
      }
    }
    return {
      register: (partition, taker) => {
        const key = keyOf(partition)
        const entry = entryOf(key)
        entry.takers.add(taker)
        return () => {
          entry.takers.delete(taker)
          forgetIfEmpty(key, entry)
        }
      },
      offer: (batch) => {
        const takers = this.entries.get(keyOf(batch))?.takers
        if (takers === undefined) return
        for (const taker of [...takers]) {
          try {
            taker(batch)
          } catch {
            // A worker that fails to take a batch fetches it after the NOTIFY: the offer is only a
            // shortcut, and the append it follows has committed whatever happens here.
          }
        }
      },
      appending: (partitions) => {
        const append: LocalAppend = { since: Date.now(), onSettled: [] }
        const held = [...new Set([...partitions].map(keyOf))].map((key) => {
          const entry = entryOf(key)
          entry.appending.add(append)
          return [key, entry] as const
        })
        let settled = false
        return () => {
          if (settled) return
          settled = true
          for (const [key, entry] of held) {
            entry.appending.delete(append)
            forgetIfEmpty(key, entry)
          }
          for (const callback of append.onSettled) callback()
        }
      },
      afterLocalAppends: (partition, then) => {
        const key = keyOf(partition)
        const entry = this.entries.get(key)
        const now = Date.now()
        const inFlight: Array<LocalAppend> = []
        for (const append of entry?.appending ?? []) {
          // One that never reported (see AppendGraceMs) is forgotten, not waited for again.
          if (now - append.since < AppendGraceMs) inFlight.push(append)
          else entry?.appending.delete(append)
        }
        if (entry !== undefined) forgetIfEmpty(key, entry)
        if (inFlight.length === 0) return then()
        let left = inFlight.length
        let done = false
        const run = () => {
          if (done) return
          done = true
          clearTimeout(timer)
          then()
        }
        const timer = setTimeout(run, AppendGraceMs)
        timer.unref()
        for (const append of inFlight) {
          append.onSettled.push(() => {
            left--
            if (left === 0) run()
          })
        }
      },
    }
  }
}

export interface LogHandoff {
  /** Offers the batch to the log's workers of its partition (every group's); returns the unregister. */
  readonly register: (partition: PartitionRef, taker: BatchTaker) => () => void
  /** Call only once the batch has committed. */
  readonly offer: (batch: AppendedBatch) => void
  /**
   * Marks an append to `partitions` as in flight in this process; returns the call that settles it,
   * made once its offer has been made (or it failed, or will offer nothing).
   */
  readonly appending: (partitions: Iterable<PartitionRef>) => () => void
  /**
   * Runs `then` once the appends to `partition` in flight in this process now have settled — at
   * once when there are none, after `AppendGraceMs` at most.
   */
  readonly afterLocalAppends: (partition: PartitionRef, then: () => void) => void
}

/** The process's registry: every bus in the process uses it unless given another (tests' "processes"). */
export const processHandoff = new LocalHandoff()

/**
 * What makes `sql`'s `parley_bus` one log among every other: the cluster (its system identifier,
 * else — where a role may not read it — the server's address, port and start time) and the
 * database (oid and name). Two buses with the same identity read and write the same tables; a
 * false "different" only costs the shortcut, never a record.
 */
export const logIdentity = async (sql: postgres.Sql): Promise<string> => {
  const [database] = await sql<Array<{ id: string }>>`
    select d.oid::text || '/' || d.datname as id from pg_database d where d.datname = current_database()`
  const cluster = await sql<Array<{ id: string }>>`select system_identifier::text as id from pg_control_system()`
    .then(([row]) => row?.id)
    .catch(() => undefined)
  if (cluster !== undefined) return `${cluster}/${database?.id}`
  const [server] = await sql<Array<{ id: string }>>`
    select coalesce(host(inet_server_addr()), 'socket') || ':' || coalesce(inet_server_port(), 0)::text
           || '@' || pg_postmaster_start_time()::text as id`
  return `${server?.id}/${database?.id}`
}

/**
 * What a PostgreSQL server wrote, read from the server itself through a connection of the
 * benchmark's own (by the data dir's `postmaster.pid` and password file, as `startEmbeddedPostgres`
 * lays them out):
 *
 * - commits: `sum(xact_commit)` of `pg_stat_database`, every transaction that committed, read-only
 *   ones included (a SELECT outside a transaction block is one); reported by each backend with up to
 *   a second's delay, so a reading is taken once the server has been idle that long;
 * - writing transactions: the transaction ids handed out (`pg_snapshot_xmax(pg_current_snapshot())`,
 *   the next id to be assigned). PostgreSQL assigns an id only to a transaction (or subtransaction)
 *   that writes — a row, a sequence step, a NOTIFY — so the delta counts the writing ones, exactly,
 *   aborted ones included (there are none in a clean run);
 * - WAL bytes: `pg_current_wal_insert_lsn()`'s advance (the same as `pg_stat_wal.wal_bytes`, without
 *   its reporting delay).
 */
import { readFile } from "node:fs/promises"
import { join } from "node:path"
import postgres from "postgres"

export interface WriteCounters {
  readonly commits: number
  readonly xids: number
  readonly walBytes: number
}

export interface ServerStats {
  read(): Promise<WriteCounters>
  /** Rows inserted + updated + deleted so far, per table (`pg_stat_user_tables`, reported late too). */
  tableWrites(): Promise<Map<string, number>>
  /** Starts counting statements anew; false when the server has no `pg_stat_statements` loaded. */
  resetStatements(): Promise<boolean>
  /** Every statement run at least once per 100 messages since the reset, per message (BENCH_STATEMENTS). */
  statementsPerMessage(messages: number): Promise<string>
  close(): Promise<void>
}

export const openStats = async (dataDir: string): Promise<ServerStats> => {
  const lock = (await readFile(join(dataDir, "postgres", "postmaster.pid"), "utf8")).split("\n")
  const password = (await readFile(join(dataDir, "postgres-password"), "utf8")).trim()
  const sql = postgres({
    host: "127.0.0.1",
    port: Number(lock[3]),
    user: "postgres",
    password,
    database: "postgres",
    max: 1,
    onnotice: () => {},
  })
  return {
    read: async () => {
      const [row] = await sql<Array<{ commits: string; xids: string; wal: string }>>`
        select (select sum(xact_commit) from pg_stat_database)::text as commits,
               pg_snapshot_xmax(pg_current_snapshot())::text as xids,
               (pg_current_wal_insert_lsn() - '0/0'::pg_lsn)::text as wal`
      return { commits: Number(row?.commits), xids: Number(row?.xids), walBytes: Number(row?.wal) }
    },
    tableWrites: async () => {
      const rows = await sql<Array<{ name: string; writes: string }>>`
        select schemaname || '.' || relname as name, (n_tup_ins + n_tup_upd + n_tup_del)::text as writes
        from pg_stat_user_tables`
      return new Map(rows.map((row) => [row.name, Number(row.writes)]))
    },
    resetStatements: () =>
      sql`create extension if not exists pg_stat_statements`
        .then(() => sql`select pg_stat_statements_reset()`)
        .then(
          () => true,
          () => false,
        ),
    statementsPerMessage: async (messages) => {
      const rows = await sql<Array<{ calls: string; ms: number; query: string }>>`
        select s.calls::text as calls, round(s.total_exec_time)::int as ms,
               left(regexp_replace(query, '[[:space:]]+', ' ', 'g'), 150) as query
        from pg_stat_statements s where s.calls >= ${Math.ceil(messages / 100)} order by s.calls desc`
      return [
        "statements per message (calls, then total execution ms; nested ones inside functions too):",
        ...rows.map(
          (row) =>
            `${(Number(row.calls) / messages).toFixed(2).padStart(6)} ${String(row.ms).padStart(6)} ms  ${row.query}`,
        ),
      ].join("\n")
    },
    close: () => sql.end({ timeout: 1 }),
  }
}

/** Per message, between two readings. */
export const writesPerMessage = (before: WriteCounters, after: WriteCounters, messages: number) => ({
  commitsPerMessage: (after.commits - before.commits) / messages,
  writingTransactionsPerMessage: (after.xids - before.xids) / messages,
  walBytesPerMessage: (after.walBytes - before.walBytes) / messages,
})

/** The tables written most per message between two readings, as `table: rows` (BENCH_TABLE_WRITES). */
export const tableWritesPerMessage = (
  before: Map<string, number>,
  after: Map<string, number>,
  messages: number,
): string =>
  [...after]
    .map(([name, writes]) => [name, (writes - (before.get(name) ?? 0)) / messages] as const)
    .filter(([, perMessage]) => perMessage > 0.005)
    .sort((a, b) => b[1] - a[1])
    .map(([name, perMessage]) => `${name} ${perMessage.toFixed(2)}`)
    .join(", ")

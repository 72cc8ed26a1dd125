import { readFileSync } from "node:fs"
import type { FreshDatabase } from "@parley/db/testing"

/** CPU time (user + system) process `pid` has used, in ms; NaN when it is not on this machine. */
export const cpuMsOf = (pid: number): number => {
  try {
    // Fields 14 and 15 of /proc/<pid>/stat, counted after the parenthesised name: utime and stime, in 10 ms ticks.
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? []
    return (Number(fields[11]) + Number(fields[12])) * 10
  } catch {
    return Number.NaN
  }
}

/**
 * What the Postgres backends serving the benchmark's database spend between `start()` and the call
 * it returns: CPU (NaN when the server is on another machine) and committed transactions. On a
 * shared two-core host the dispatcher's queries cost as much there as in the dispatcher.
 */
export const postgresLoad = (db: FreshDatabase) => {
  const backends = async () => {
    const rows = await db.sql<Array<{ pid: number }>>`
      select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`
    return new Map(rows.map((row) => [row.pid, cpuMsOf(row.pid)]))
  }
  const transactions = async () => {
    // Backends report their counts when idle, at most once a second.
    await new Promise((resolve) => setTimeout(resolve, 1_100))
    const [row] = await db.sql<Array<{ n: bigint }>>`
      select xact_commit + xact_rollback as n from pg_stat_database where datname = current_database()`
    return Number(row?.n ?? Number.NaN)
  }
  return {
    start: async () => {
      const [cpuBefore, transactionsBefore] = [await backends(), await transactions()]
      return async (): Promise<{ cpuMs: number; transactions: number }> => {
        const transactionsAfter = await transactions()
        let cpuMs = 0
        for (const [pid, ms] of await backends()) cpuMs += ms - (cpuBefore.get(pid) ?? 0)
        return { cpuMs, transactions: transactionsAfter - transactionsBefore }
      }
    },
  }
}

import { Effect, Exit } from "effect"
import type postgres from "postgres"
import { Database } from "./Database.ts"

/** Thrown inside `sql.begin` to make it roll back; carries the Effect's own outcome out. */
class Rollback<A, E> {
  readonly exit: Exit.Exit<A, E>
  constructor(exit: Exit.Exit<A, E>) {
    this.exit = exit
  }
}

/** The statements registered with `atCommit`, per transaction of `withTransaction`. */
const lastStatements = new WeakMap<postgres.TransactionSql, Array<() => postgres.PendingQuery<postgres.Row[]>>>()

/**
 * Registers `statement` to be sent as the transaction's last, pipelined with its COMMIT: the server
 * runs it and commits without waiting for this process in between. For statements that take a lock
 * every other writer of the same rows waits for until COMMIT (the single-node bus's per-partition
 * offset counter): held across a round trip to a busy event loop, such a lock serialised every
 * appender of a partition behind the slowest. A statement that fails rolls the transaction back
 * and fails `withTransaction` (a defect). Answers false — and registers nothing — when `tx` is not
 * a `withTransaction` transaction; the caller then runs the statement itself.
 */
export const atCommit = (
  tx: postgres.TransactionSql,
  statement: () => postgres.PendingQuery<postgres.Row[]>,
): boolean => {
  const statements = lastStatements.get(tx)
  if (statements === undefined) return false
  statements.push(statement)
  return true
}

/**
 * Runs `f` inside one Postgres transaction with the caller's services. It commits when `f`
 * succeeds and rolls back when `f` fails, dies or is interrupted; `f`'s typed error comes back
 * unchanged. A failed COMMIT (or a failed `atCommit` statement) is a defect.
 */
export const withTransaction = <A, E, R>(
  f: (tx: postgres.TransactionSql) => Effect.Effect<A, E, R>,
): Effect.Effect<A, E, R | Database> =>
  Effect.gen(function* () {
    const { sql } = yield* Database
    const context = yield* Effect.context<R>()
    return yield* Effect.callback<A, E>((resume) => {
      const abort = new AbortController()
      let last: Array<postgres.PendingQuery<postgres.Row[]>> = []
      const done = sql
        .begin(async (tx) => {
          lastStatements.set(tx, [])
          const exit = await Effect.runPromiseExitWith(context)(f(tx), { signal: abort.signal })
          if (Exit.isFailure(exit)) throw new Rollback(exit)
          // Sent now, not awaited: postgres.js writes COMMIT right behind them on this connection.
          last = (lastStatements.get(tx) ?? []).map((statement) => statement().execute())
          for (const query of last) query.catch(() => {})
          return [exit] as const
        })
        // Answers arrive in order, so these have settled by the time COMMIT has. One that failed
        // left the transaction aborted, and the server answered the COMMIT with a rollback.
        .then(async (result) => {
          await Promise.all(last)
          return result
        })
        .then(
          ([exit]) => resume(exit as Exit.Exit<A, E>),
          (error: unknown) => resume(error instanceof Rollback ? error.exit : Effect.die(error)),
        )
      // On interruption, interrupt `f` and wait for the rollback so the connection is free again.
      return Effect.promise(() => {
        abort.abort()
        return done
      })
    })
  })

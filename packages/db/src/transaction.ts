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
export const atCommit = <T extends postgres.Row[]>(
  tx: postgres.TransactionSql,
  statement: () => postgres.PendingQuery<T>,
): boolean => {
  const statements = lastStatements.get(tx)
  if (statements === undefined) return false
  // Sent and awaited only for their outcome: the rows' type does not matter here.
  statements.push(statement as unknown as () => postgres.PendingQuery<postgres.Row[]>)
  return true
}

/** The callbacks registered with `afterCommit`, per transaction of `withTransaction`. */
const committedCallbacks = new WeakMap<postgres.TransactionSql, Array<() => void>>()

/**
 * Registers `callback` to run once the transaction has COMMITTED — never when it rolls back or its
 * COMMIT fails — before `withTransaction` returns. For work that may only see what is durable (the
 * single-node bus hands committed records to consumers in this process). A callback must not
 * throw; one that does is caught and logged, and the commit stands. Answers false — and registers
 * nothing — when `tx` is not a `withTransaction` transaction.
 */
export const afterCommit = (tx: postgres.TransactionSql, callback: () => void): boolean => {
  const callbacks = committedCallbacks.get(tx)
  if (callbacks === undefined) return false
  callbacks.push(callback)
  return true
}

/** Runs the after-commit callbacks; answers the first failure, if any, for the caller to log. */
const runAfterCommit = (callbacks: ReadonlyArray<() => void>): unknown => {
  let failure: unknown
  for (const callback of callbacks) {
    try {
      callback()
    } catch (error) {
      failure ??= error
    }
  }
  return failure
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
      const committed: Array<() => void> = []
      const done = sql
        .begin(async (tx) => {
          lastStatements.set(tx, [])
          committedCallbacks.set(tx, committed)
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
          ([exit]) => {
            // Committed: only now may anyone act on what the transaction wrote.
            const failure = runAfterCommit(committed)
            resume(
              failure === undefined
                ? (exit as Exit.Exit<A, E>)
                : Effect.logWarning("an after-commit callback failed; the commit stands", { cause: failure }).pipe(
                    Effect.andThen(exit as Exit.Exit<A, E>),
                  ),
            )
          },
          (error: unknown) => resume(error instanceof Rollback ? error.exit : Effect.die(error)),
        )
      // On interruption, interrupt `f` and wait for the rollback so the connection is free again.
      return Effect.promise(() => {
        abort.abort()
        return done
      })
    })
  })

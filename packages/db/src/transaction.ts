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

/**
 * Runs `f` inside one Postgres transaction with the caller's services. It commits when `f`
 * succeeds and rolls back when `f` fails, dies or is interrupted; `f`'s typed error comes back
 * unchanged. A failed COMMIT is a defect.
 */
export const withTransaction = <A, E, R>(
  f: (tx: postgres.TransactionSql) => Effect.Effect<A, E, R>,
): Effect.Effect<A, E, R | Database> =>
  Effect.gen(function* () {
    const { sql } = yield* Database
    const context = yield* Effect.context<R>()
    return yield* Effect.callback<A, E>((resume) => {
      const abort = new AbortController()
      const done = sql
        .begin(async (tx) => {
          const exit = await Effect.runPromiseExitWith(context)(f(tx), { signal: abort.signal })
          if (Exit.isFailure(exit)) throw new Rollback(exit)
          return [exit] as const
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

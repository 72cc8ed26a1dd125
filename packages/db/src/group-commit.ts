import {
  activeTraceContext,
  BatchQueue,
  isDependencyUnavailable,
  withHotSpan,
  withTraceContext,
} from "@parley/platform"
import { Cause, Effect, Exit, type Scope } from "effect"
import type postgres from "postgres"
import { Database } from "./Database.ts"
import { withTransaction } from "./transaction.ts"

export interface GroupCommitOptions {
  /** Most items in one transaction (default 100). */
  readonly maxBatch?: number
  /** Most batch transactions open at once (default 2: one commits while the next applies). */
  readonly maxConcurrent?: number
  /**
   * "statement" when `apply` runs exactly one statement: a statement is atomic on its own, so the
   * batch runs outside a transaction block — no BEGIN and COMMIT round trips around it, and its
   * commit is the statement's. Everything else holds as with a transaction (default "transaction").
   */
  readonly atomicity?: "transaction" | "statement"
  /** Told after every transaction the group commit ran: how many items, and whether it committed. */
  readonly onBatch?: (batch: { readonly size: number; readonly committed: boolean }) => void
}

/** Where callers hand in items; each `submit` succeeds once the transaction holding its item committed. */
export interface GroupCommit<I, A, E> {
  readonly submit: (item: I) => Effect.Effect<A, E>
}

/**
 * Group commit over `withTransaction` (the queue is `@parley/platform`'s `BatchQueue`): items
 * submitted concurrently are applied together in one transaction — one commit, one fsync — and each
 * caller is answered only after that transaction committed. Idle, an item leaves at once; while batches are in flight, items pile up and leave
 * together as soon as one finishes (no timer, no linger).
 *
 * `apply(tx, items)` answers one result per item, in order, using only `tx` (like any
 * `withTransaction` body). When a batch fails in any way — typed error, defect, failed COMMIT — its items are
 * retried one by one, each in its own transaction, so one bad item cannot sink the others; each
 * caller then gets its own item's outcome, the error it would have had alone. (Not when the
 * database is unreachable: every item gets that failure at once.) A batch whose COMMIT
 * failed may in fact have committed, so `apply` must be safe to run again for an item (idempotent,
 * e.g. by unique keys).
 *
 * Closing the Scope stops new submissions (they die) and waits until every item already submitted
 * has its answer. An interrupted caller's item is withdrawn if its batch has not started yet.
 */
export const makeGroupCommit = <I, A, E, R>(
  apply: (tx: postgres.TransactionSql, items: ReadonlyArray<I>) => Effect.Effect<ReadonlyArray<A>, E, R>,
  options: GroupCommitOptions = {},
): Effect.Effect<GroupCommit<I, A, E>, never, Database | R | Scope.Scope> =>
  Effect.gen(function* () {
    const context = yield* Effect.context<Database | R>()
    const maxBatch = Math.max(1, options.maxBatch ?? 100)
    const maxConcurrent = Math.max(1, options.maxConcurrent ?? 2)
    const { sql } = yield* Database
    const inTransaction = (options.atomicity ?? "transaction") === "transaction"
    const applied = (body: (tx: postgres.TransactionSql) => Effect.Effect<ReadonlyArray<A>, E, R>) =>
      // Outside a transaction block, the pool itself (the type says transaction: `apply` is written
      // for one, and its one statement is the whole transaction).
      inTransaction ? withTransaction(body) : body(sql as unknown as postgres.TransactionSql)
    const transact = (items: ReadonlyArray<I>) =>
      applied((tx) =>
        apply(tx, items).pipe(
          Effect.flatMap((results) =>
            results.length === items.length
              ? Effect.succeed(results)
              : Effect.die(new Error(`group commit: ${results.length} results for ${items.length} items`)),
          ),
        ),
      ).pipe(
        Effect.exit,
        Effect.tap((exit) =>
          Effect.sync(() => options.onBatch?.({ size: items.length, committed: Exit.isSuccess(exit) })),
        ),
        withHotSpan("db.groupCommit", { attributes: { items: items.length } }),
      )

    /** One outcome per item: the batch's, or — when the batch failed — each item's alone. */
    const runBatch = (items: ReadonlyArray<I>): Effect.Effect<ReadonlyArray<Exit.Exit<A, E>>, never, Database | R> =>
      Effect.gen(function* () {
        const exit = yield* transact(items)
        if (Exit.isSuccess(exit)) return exit.value.map((value) => Exit.succeed(value))
        // Alone, each item would meet the same unreachable database, one connect timeout after another.
        if (items.length === 1 || isDependencyUnavailable(Cause.squash(exit.cause))) {
          return items.map(() => Exit.failCause(exit.cause))
        }
        yield* Effect.logWarning("group commit: a batch failed; applying its items one by one").pipe(
          Effect.annotateLogs({ items: items.length, cause: Cause.pretty(exit.cause) }),
        )
        const outcomes: Array<Exit.Exit<A, E>> = []
        for (const item of items) {
          const alone = yield* transact([item])
          outcomes.push(Exit.isSuccess(alone) ? Exit.succeed(alone.value[0] as A) : Exit.failCause(alone.cause))
        }
        return outcomes
      })

    // The queue runs a batch in its submitters' trace (when tracing is on): the fiber continues it.
    const batches = new BatchQueue<I, Exit.Exit<A, E>>(
      (items) => Effect.runPromiseWith(context)(withTraceContext(runBatch(items), activeTraceContext())),
      { maxBatch, maxConcurrent },
    )
    yield* Effect.addFinalizer(() => Effect.promise(() => batches.close()))

    const submit = (item: I): Effect.Effect<A, E> =>
      Effect.callback<A, E>((resume) => {
        const withdraw = new AbortController()
        batches.submit(item, withdraw.signal).then(
          (exit) => resume(exit),
          // A defect of the batch (or a submission after the Scope closed) reaches every caller.
          (error: unknown) => {
            if (!withdraw.signal.aborted) resume(Effect.die(error))
          },
        )
        return Effect.sync(() => withdraw.abort())
      })

    return { submit } satisfies GroupCommit<I, A, E>
  })

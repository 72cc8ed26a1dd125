import { isDependencyUnavailable } from "@parley/platform"
import { Cause, Effect, Exit, type Scope } from "effect"
import type postgres from "postgres"
import type { Database } from "./Database.ts"
import { withTransaction } from "./transaction.ts"

export interface GroupCommitOptions {
  /** Most items in one transaction (default 100). */
  readonly maxBatch?: number
  /** Most batch transactions open at once (default 2: one commits while the next applies). */
  readonly maxConcurrent?: number
  /** Told after every transaction the group commit ran: how many items, and whether it committed. */
  readonly onBatch?: (batch: { readonly size: number; readonly committed: boolean }) => void
}

/** Where callers hand in items; each `submit` succeeds once the transaction holding its item committed. */
export interface GroupCommit<I, A, E> {
  readonly submit: (item: I) => Effect.Effect<A, E>
}

interface Waiter<I, A, E> {
  readonly item: I
  settled: boolean
  readonly resume: (exit: Exit.Exit<A, E>) => void
}

/**
 * Group commit over `withTransaction`: items submitted concurrently are applied together in one
 * transaction — one commit, one fsync — and each caller is answered only after that transaction
 * committed. Idle, an item leaves at once; while batches are in flight, items pile up and leave
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
    const pending: Array<Waiter<I, A, E>> = []
    let running = 0
    let closed = false
    let onDrained: (() => void) | undefined

    const settle = (waiter: Waiter<I, A, E>, exit: Exit.Exit<A, E>) => {
      if (waiter.settled) return
      waiter.settled = true
      waiter.resume(exit)
    }

    const transact = (items: ReadonlyArray<I>) =>
      withTransaction((tx) =>
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
        Effect.withSpan("db.groupCommit", { attributes: { items: items.length } }),
      )

    const runBatch = (batch: ReadonlyArray<Waiter<I, A, E>>) =>
      Effect.gen(function* () {
        const exit = yield* transact(batch.map((waiter) => waiter.item))
        if (Exit.isSuccess(exit)) {
          for (const [i, waiter] of batch.entries()) settle(waiter, Exit.succeed(exit.value[i] as A))
          return
        }
        // Alone, each item would meet the same unreachable database, one connect timeout after another.
        if (batch.length === 1 || isDependencyUnavailable(Cause.squash(exit.cause))) {
          for (const waiter of batch) settle(waiter, Exit.failCause(exit.cause))
          return
        }
        yield* Effect.logWarning("group commit: a batch failed; applying its items one by one").pipe(
          Effect.annotateLogs({ items: batch.length, cause: Cause.pretty(exit.cause) }),
        )
        for (const waiter of batch) {
          const alone = yield* transact([waiter.item])
          settle(waiter, Exit.isSuccess(alone) ? Exit.succeed(alone.value[0] as A) : Exit.failCause(alone.cause))
        }
      })

    const pump = () => {
      while (running < maxConcurrent && pending.length > 0) {
        const batch = pending.splice(0, maxBatch)
        running++
        Effect.runForkWith(context)(
          runBatch(batch).pipe(
            Effect.onExit((exit) =>
              Effect.sync(() => {
                // Whatever happened, no caller is left waiting: a defect here reaches those not yet answered.
                if (Exit.isFailure(exit)) for (const waiter of batch) settle(waiter, Exit.failCause(exit.cause))
                running--
                pump()
                drainedCheck()
              }),
            ),
          ),
        )
      }
    }

    const drainedCheck = () => {
      if (closed && running === 0 && pending.length === 0) onDrained?.()
    }

    yield* Effect.addFinalizer(() =>
      Effect.callback<void>((resume) => {
        closed = true
        onDrained = () => resume(Effect.void)
        drainedCheck()
      }),
    )

    const submit = (item: I): Effect.Effect<A, E> =>
      Effect.callback<A, E>((resume) => {
        if (closed) {
          resume(Effect.die(new Error("group commit: submitted after its scope closed")))
          return
        }
        const waiter: Waiter<I, A, E> = { item, settled: false, resume: (exit) => resume(exit) }
        pending.push(waiter)
        pump()
        return Effect.sync(() => {
          const index = pending.indexOf(waiter)
          if (index >= 0) {
            pending.splice(index, 1)
            waiter.settled = true
            drainedCheck()
          }
        })
      })

    return { submit } satisfies GroupCommit<I, A, E>
  })

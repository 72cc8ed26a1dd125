/**
 * How repositories talk to Postgres: each query is a promise lifted into Effect, and a failure of
 * the database is a defect (the HTTP edge answers 500 and logs it), never a domain error.
 */
import { Effect } from "effect"
import type postgres from "postgres"

export type Sql = postgres.Sql | postgres.TransactionSql

export const run = <A>(query: () => PromiseLike<A>): Effect.Effect<A> => Effect.promise(() => Promise.resolve(query()))

/** Whether `error` is Postgres' unique violation on the named constraint or index. */
export const isUniqueViolation = (error: unknown, constraint: string): boolean =>
  typeof error === "object" &&
  error !== null &&
  (error as { code?: unknown }).code === "23505" &&
  (error as { constraint_name?: unknown }).constraint_name === constraint

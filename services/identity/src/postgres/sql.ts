/**
 * How repositories talk to Postgres: each query is a promise lifted into Effect with
 * `Effect.promise`, so a failure of the database is a defect (the HTTP edge answers 500 and logs
 * it), never a domain error.
 */
import type postgres from "postgres"

export type Sql = postgres.Sql | postgres.TransactionSql

/** Whether `error` is Postgres' unique violation on the named constraint or index. */
export const isUniqueViolation = (error: unknown, constraint: string): boolean =>
  typeof error === "object" &&
  error !== null &&
  (error as { code?: unknown }).code === "23505" &&
  (error as { constraint_name?: unknown }).constraint_name === constraint

import type postgres from "postgres"

/**
 * `value` as a `jsonb` parameter: `${jsonb(tx, state)}`. postgres.js types `sql.json` with an
 * index-signature type that TypeScript interfaces and Schema types do not satisfy, so without this
 * every call site cast (`tx.json(x as never)`); this is the one place that does. For plain data
 * (what `JSON.stringify` writes faithfully: no bigint, no symbol, no class with state of its own).
 */
export const jsonb = (sql: postgres.Sql | postgres.TransactionSql, value: unknown): postgres.Parameter =>
  sql.json(value as postgres.JSONValue)

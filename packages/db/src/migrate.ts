import { readdir, readFile } from "node:fs/promises"
import { Effect } from "effect"
import type postgres from "postgres"

export interface Migration {
  readonly id: string
  readonly sql: string
}

const identifier = /^[a-z_][a-z0-9_]*$/

/** Quotes a schema or table name after checking it is a plain lower-case identifier. */
export const quoteIdentifier = (name: string): string => {
  if (!identifier.test(name)) throw new Error(`Not a plain identifier: ${name}`)
  return `"${name}"`
}

/**
 * Applies the migrations not yet recorded in `<schema>.schema_migrations`, in the given order, in
 * one transaction. A transaction-scoped advisory lock per schema makes instances that start at the
 * same time queue up: the first applies, the others then find everything recorded. Migrations run
 * with `search_path` set to the schema, so they may use unqualified names. Forward-only: there is
 * no down. A failing migration is a defect (the service cannot start on a half-known schema).
 */
export const migrate = (options: {
  readonly sql: postgres.Sql
  readonly schema: string
  readonly migrations: ReadonlyArray<Migration>
}): Effect.Effect<ReadonlyArray<string>> => {
  const schema = quoteIdentifier(options.schema)
  return Effect.promise(() =>
    options.sql.begin(async (tx) => {
      await tx`select pg_advisory_xact_lock(hashtext(${`parley.migrate.${options.schema}`}))`
      await tx.unsafe(`create schema if not exists ${schema}`)
      await tx.unsafe(
        `create table if not exists ${schema}.schema_migrations (
           id text primary key,
           applied_at timestamptz not null default now()
         )`,
      )
      const rows = await tx.unsafe<Array<{ id: string }>>(`select id from ${schema}.schema_migrations`)
      const applied = new Set(rows.map((row) => row.id))
      await tx.unsafe(`set local search_path to ${schema}, public`)
      const newlyApplied: Array<string> = []
      for (const migration of options.migrations) {
        if (applied.has(migration.id)) continue
        await tx.unsafe(migration.sql)
        await tx.unsafe(`insert into ${schema}.schema_migrations (id) values ($1)`, [migration.id])
        newlyApplied.push(migration.id)
      }
      return newlyApplied
    }),
  ).pipe(Effect.withSpan("db.migrate", { attributes: { schema: options.schema } }))
}

const migrationFile = /^(\d{4})_[a-z0-9_-]+\.sql$/

/** Reads `NNNN_name.sql` files from a folder (other files are ignored), sorted by name. */
export const loadMigrations = (dirUrl: URL): Effect.Effect<ReadonlyArray<Migration>> =>
  Effect.promise(async () => {
    const names = (await readdir(dirUrl)).filter((name) => migrationFile.test(name)).sort()
    return Promise.all(
      names.map(async (name) => ({
        id: name.replace(/\.sql$/, ""),
        sql: await readFile(new URL(name, dirUrl.href.endsWith("/") ? dirUrl : `${dirUrl.href}/`), "utf8"),
      })),
    )
  })

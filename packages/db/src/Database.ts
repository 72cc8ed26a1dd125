import { Context, Effect, Layer } from "effect"
import postgres from "postgres"
import { startEmbeddedPostgres } from "./embedded.ts"

/**
 * The service's Postgres: a pool on a real server, or an embedded PGlite when no URL is given
 * (`embedded: true` tells consumers that LISTEN/NOTIFY across connections does not work and that
 * there is exactly one connection).
 */
export class Database extends Context.Service<Database, { readonly sql: postgres.Sql; readonly embedded: boolean }>()(
  "@parley/db/Database",
) {
  /** `maxConnections` bounds the pool on a real server (default 10); embedded is always one. */
  static layer(options: { url?: string | undefined; dataDir?: string | undefined; maxConnections?: number } = {}) {
    return Layer.effect(Database, makeDatabase(options))
  }
}

/** Client options shared by every connection Parley opens: int8 as bigint, no notice noise. */
export const clientOptions = (max: number): postgres.Options<Record<string, postgres.PostgresType>> => ({
  max,
  onnotice: () => {},
  types: { bigint: postgres.BigInt },
  transform: { undefined: null },
  // An unreachable database must fail a request fast (503, CONTRACT.md §1), not hold it for
  // postgres.js's default 30 s.
  connect_timeout: 5,
  // A query that needs a connection waits out the pool's reconnect delay first. postgres.js grows
  // that delay with every failed connect of the whole pool, to 10–20 s within a few failures — and
  // the bus's workers fail several a second while the database is down — so requests hung 17–30 s
  // before their 503. A second at most, with jitter, still spares a recovering server a stampede.
  backoff: (retries: number) => (0.5 + Math.random() / 2) * Math.min(0.05 * 2 ** retries, 1),
  connection: { application_name: "parley" },
})

const makeDatabase = (options: { url?: string | undefined; dataDir?: string | undefined; maxConnections?: number }) =>
  Effect.gen(function* () {
    if (options.url !== undefined && options.url !== "") {
      const url = options.url
      const sql = yield* Effect.acquireRelease(
        Effect.sync(() => postgres(url, clientOptions(options.maxConnections ?? 10))),
        (sql) => Effect.promise(() => sql.end({ timeout: 5 })),
      )
      return { sql, embedded: false }
    }
    const server = yield* Effect.acquireRelease(
      Effect.promise(() => startEmbeddedPostgres(options.dataDir === undefined ? {} : { dataDir: options.dataDir })),
      (server) => Effect.promise(() => server.close()),
    )
    // One connection: PGlite runs one session, and a second connection would only queue behind it.
    const sql = yield* Effect.acquireRelease(
      Effect.sync(() => postgres(server.url, clientOptions(1))),
      (sql) => Effect.promise(() => sql.end({ timeout: 5 })),
    )
    return { sql, embedded: true }
  })

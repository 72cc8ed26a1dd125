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
  static layer(options: { url?: string | undefined; dataDir?: string | undefined } = {}) {
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
  connection: { application_name: "parley" },
})

const makeDatabase = (options: { url?: string | undefined; dataDir?: string | undefined }) =>
  Effect.gen(function* () {
    if (options.url !== undefined && options.url !== "") {
      const url = options.url
      const sql = yield* Effect.acquireRelease(
        Effect.sync(() => postgres(url, clientOptions(10))),
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

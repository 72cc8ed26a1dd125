import { Context, Effect, Layer, type Scope } from "effect"
import postgres from "postgres"
import { startEmbeddedPostgres } from "./embedded/index.ts"

export interface DatabaseOptions {
  /** The server; without one, an embedded PostgreSQL under `dataDir` (a temporary one without that). */
  readonly url?: string | undefined
  readonly dataDir?: string | undefined
  /** The pool's size (default 10). */
  readonly maxConnections?: number
}

/** The service's Postgres: a pool of connections to a server, embedded or not. */
export class Database extends Context.Service<Database, { readonly sql: postgres.Sql }>()("@parley/db/Database") {
  static layer(options: DatabaseOptions = {}) {
    return Layer.effect(Database, makeDatabase(options))
  }
}

/** Client options shared by every connection Parley opens: int8 as bigint, no notice noise. */
export const clientOptions = (max: number): postgres.Options<Record<string, postgres.PostgresType>> => ({
  max,
  onnotice: () => {},
  types: { bigint: postgres.BigInt },
  transform: { undefined: null },
  // An unreachable database must fail a request fast (503, docs/contract.md §1), not hold it for
  // postgres.js's default 30 s.
  connect_timeout: 5,
  // A query that needs a connection waits out the pool's reconnect delay first. postgres.js grows
  // that delay with every failed connect of the whole pool, to 10–20 s within a few failures — and
  // the bus's workers fail several a second while the database is down — so requests hung 17–30 s
  // before their 503. A second at most, with jitter, still spares a recovering server a stampede.
  backoff: (retries: number) => (0.5 + Math.random() / 2) * Math.min(0.05 * 2 ** retries, 1),
  connection: { application_name: "parley" },
})

/**
 * `url` when one is given; else starts an embedded PostgreSQL server under `dataDir` and returns
 * its URL (through its Unix socket, for `connect`), stopping the server when the scope closes (after what was built on it in that scope,
 * so pools end before their server). Its messages go to the Effect logger.
 */
export const databaseUrl = (
  options: Omit<DatabaseOptions, "maxConnections">,
): Effect.Effect<string, never, Scope.Scope> =>
  Effect.gen(function* () {
    if (options.url !== undefined && options.url !== "") return options.url
    const context = yield* Effect.context<never>()
    const server = yield* Effect.acquireRelease(
      Effect.promise(() =>
        startEmbeddedPostgres({
          dataDir: options.dataDir,
          log: (level, message) =>
            Effect.runForkWith(context)(level === "warn" ? Effect.logWarning(message) : Effect.logInfo(message)),
        }),
      ),
      (server) => Effect.promise(() => server.close()),
    )
    return server.socketUrl ?? server.url
  })

/**
 * A pool on `url`, which may name a Unix socket's directory the way libpq does (`?host=/dir`, what
 * the embedded server's `socketUrl` uses): postgres.js takes the directory as its `host` option
 * only, and would send a `host` query parameter to the server as a setting.
 */
export const connect = (url: string, max: number): postgres.Sql => {
  const parsed = new URL(url)
  const socketDir = parsed.searchParams.get("host")
  if (socketDir === null || !socketDir.startsWith("/")) return postgres(url, clientOptions(max))
  parsed.searchParams.delete("host")
  return postgres(parsed.href, { ...clientOptions(max), host: socketDir })
}

const makeDatabase = (options: DatabaseOptions) =>
  Effect.gen(function* () {
    const url = yield* databaseUrl(options)
    const sql = yield* Effect.acquireRelease(
      Effect.sync(() => connect(url, options.maxConnections ?? 10)),
      (sql) => Effect.promise(() => sql.end({ timeout: 5 })),
    )
    return { sql }
  })

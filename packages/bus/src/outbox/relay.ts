import { Database, quoteIdentifier, Wakeup } from "@parley/db"
import { Cause, Duration, Effect, Layer } from "effect"
import type postgres from "postgres"
import { Bus } from "../Bus.ts"
import { type OutboxRow, outboxChannel } from "./table.ts"

export interface OutboxRelayOptions {
  readonly sql: postgres.Sql
  readonly schema: string
  readonly publish: (rows: ReadonlyArray<OutboxRow>) => Effect.Effect<void, unknown>
  readonly batchSize?: number
  /** A fallback poll; none by default, since every commit NOTIFYs and a LISTEN reconnect wakes the relay. */
  readonly pollInterval?: Duration.Input
}

/** Postgres's undefined_table (42P01). */
const isUndefinedTable = (error: unknown): boolean =>
  typeof error === "object" && error !== null && (error as { code?: unknown }).code === "42P01"

/**
 * Moves rows from `<schema>.outbox` to `publish` at least once, in id order: lock a batch, publish
 * it, delete it, all in one transaction, so a crash between publish and commit republishes rather
 * than loses. Instances take a transaction-scoped advisory lock per schema and only the holder
 * relays: that keeps each key's records in order even with several instances (SKIP LOCKED alone
 * would let two instances publish one key's consecutive rows concurrently). Runs until interrupted.
 */
export const runOutboxRelay = (options: OutboxRelayOptions): Effect.Effect<never> =>
  Effect.gen(function* () {
    const { sql, schema } = options
    const s = quoteIdentifier(schema)
    const batchSize = options.batchSize ?? 256
    const pollMs =
      options.pollInterval === undefined
        ? Number.POSITIVE_INFINITY
        : Duration.toMillis(Duration.fromInputUnsafe(options.pollInterval))
    const context = yield* Effect.context<never>()
    const wakeup = new Wakeup()
    // Woken by each commit's NOTIFY, and whenever LISTEN (re)connects: notifications sent while
    // the listening connection was down are lost, so a reconnect counts as one.
    const listening = yield* Effect.promise(() =>
      sql.listen(
        outboxChannel(schema),
        () => wakeup.notify(),
        () => wakeup.notify(),
      ),
    )
    yield* Effect.addFinalizer(() => Effect.promise(() => listening.unlisten()).pipe(Effect.ignore))

    const relayBatch = Effect.promise(() =>
      sql.begin(async (tx) => {
        const [lock] = await tx<Array<{ locked: boolean }>>`
          select pg_try_advisory_xact_lock(hashtext(${`parley.outbox.${schema}`})) as locked`
        if (lock?.locked !== true) return 0
        const rows = await tx.unsafe<Array<OutboxRow>>(
          `select id, topic, key, value, headers from ${s}.outbox
           order by id limit $1 for update skip locked`,
          [batchSize],
        )
        if (rows.length === 0) return 0
        await Effect.runPromiseWith(context)(options.publish(rows))
        await tx.unsafe(`delete from ${s}.outbox where id = any($1::bigint[])`, [rows.map((row) => row.id.toString())])
        return rows.length
      }),
    )

    let failures = 0
    let awaitingTable = false
    while (true) {
      const moved = yield* relayBatch.pipe(
        Effect.catchCause((cause) => {
          // A service builds its bus (and this relay) before its migrations create the outbox: on a
          // fresh database the table is missing for a moment. That is a wait, said once, not a failure.
          if (isUndefinedTable(Cause.squash(cause))) {
            if (awaitingTable) return Effect.succeed(0)
            awaitingTable = true
            return Effect.logInfo(`outbox relay: waiting for the migrations to create ${schema}.outbox`, {
              schema,
            }).pipe(Effect.as(0))
          }
          return Effect.logWarning("outbox relay failed; retrying", { schema, cause }).pipe(Effect.as(-1))
        }),
      )
      if (moved > 0) awaitingTable = false
      if (moved === batchSize) continue
      failures = moved < 0 ? failures + 1 : 0
      const delay = failures > 0 ? Math.min(100 * 2 ** failures, 10_000) : pollMs
      yield* Effect.callback<void>((resume) => {
        const abort = new AbortController()
        // After a failure, back off without waking early: a broken broker should not spin.
        const woken = failures > 0 ? new Promise((r) => setTimeout(r, delay)) : wakeup.wait(delay, abort.signal)
        woken.then(() => resume(Effect.void))
        return Effect.sync(() => abort.abort())
      })
    }
  }).pipe(Effect.scoped) as Effect.Effect<never>

/**
 * Publishes the rows services appended to `<schema>.outbox` (the Kafka mode's OutboxWriter) on the
 * bus, at least once and in order per key; see `runOutboxRelay`.
 */
export const OutboxRelay = {
  layer: (options: {
    readonly schema: string
    readonly batchSize?: number
    readonly pollInterval?: Duration.Input
  }): Layer.Layer<never, never, Database | Bus> =>
    Layer.effectDiscard(
      Effect.gen(function* () {
        const { sql } = yield* Database
        const bus = yield* Bus
        yield* Effect.forkScoped(
          runOutboxRelay({
            sql,
            schema: options.schema,
            ...(options.batchSize === undefined ? {} : { batchSize: options.batchSize }),
            ...(options.pollInterval === undefined ? {} : { pollInterval: options.pollInterval }),
            publish: (rows) =>
              bus.publish(
                rows.map((row) => ({ topic: row.topic, key: row.key, value: row.value, headers: row.headers })),
              ),
          }),
        )
      }),
    ),
} as const

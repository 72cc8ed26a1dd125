import { TopicCatalog } from "@parley/contracts"
import { Database, inProcessChannel, migrate } from "@parley/db"
import { Context, Duration, Effect, Layer, Schedule } from "effect"
import type postgres from "postgres"
import { Bus, BusError, OutboxWriter } from "../Bus.ts"
import { runConsumer } from "./consumer.ts"
import { appendRecords, busChannel, TopicDirectory } from "./log.ts"
import { deleteConsumedRecords } from "./retention.ts"
import { busMigrations, busSchema } from "./schema.ts"
import { type BusTimings, defaultTimings } from "./timings.ts"

export interface SingleNodeBusOptions {
  /**
   * Partitions of a topic created on first use: a fixed count or per topic; by default the count
   * in `@parley/contracts`' TopicCatalog, else 8.
   */
  readonly partitions?: number | ((topic: string) => number | undefined)
  readonly timings?: Partial<BusTimings>
  /** Records older than this that every group has committed past are deleted; default 7 days. */
  readonly retentionMs?: number
  /** How often the retention cleanup runs; default hourly. */
  readonly retentionIntervalMs?: number
  /**
   * Tests only: once aborted, this bus behaves as if its process died — it commits nothing more
   * and does not leave its groups (others take over when its leases expire). For embedded PGlite,
   * where several "processes" in one test must share one connection that cannot be killed alone.
   */
  readonly crashSignal?: AbortSignal
}

/** A transaction runs tagged-template queries exactly like the pool; the types just do not say so. */
const asQueries = (tx: postgres.TransactionSql): postgres.Sql => tx as unknown as postgres.Sql

/** A wake-up names a partition (`topic#partition`); an older process's names only the topic. */
const inProcessChannelOf = (payload: string) => `${busChannel}:${payload}`
const defaultPartitions = 8
const catalogPartitions = new Map<string, number>(TopicCatalog.map((t) => [t.name, t.partitions]))

/**
 * The bus on Postgres (schema `parley_bus`), for one-node deployments and the embedded mode: the
 * log table is the outbox, so `OutboxWriter.append` writes to the log in the caller's transaction.
 */
export const SingleNodeBus = {
  layer: (options: SingleNodeBusOptions = {}): Layer.Layer<Bus | OutboxWriter, never, Database> =>
    Layer.effectContext(make(options)),
} as const

const make = (options: SingleNodeBusOptions) =>
  Effect.gen(function* () {
    const { sql, embedded } = yield* Database
    const timings = { ...defaultTimings, ...options.timings }
    const configured = options.partitions
    const topics = new TopicDirectory(
      (topic) =>
        (typeof configured === "function" ? configured(topic) : configured) ??
        catalogPartitions.get(topic) ??
        defaultPartitions,
    )
    yield* migrate({ sql, schema: busSchema, migrations: busMigrations })

    // NOTIFY wakes consumers in other processes on a real server; in-process listeners are told
    // directly (the only way on PGlite, where LISTEN does not see other connections). Each bus
    // relays its own NOTIFYs to its own consumers only: relayed process-wide, every further bus
    // instance on the database (tests run several) would wake every consumer once more per append.
    const notified = new Set<(channel: string) => void>()
    if (!embedded) {
      const listening = yield* Effect.promise(() =>
        sql.listen(busChannel, (payload) => {
          const channel = inProcessChannelOf(payload)
          for (const listener of notified) listener(channel)
        }),
      )
      yield* Effect.addFinalizer(() =>
        Effect.promise(() => listening.unlisten()).pipe(Effect.catchCause(() => Effect.void)),
      )
    }
    const announce = (partitions: ReadonlyArray<string>) => {
      for (const partition of partitions) inProcessChannel.notify(sql, inProcessChannelOf(partition))
    }

    const retentionMs = options.retentionMs ?? 7 * 24 * 3600_000
    yield* Effect.forkScoped(
      Effect.promise(() => deleteConsumedRecords(sql, retentionMs)).pipe(
        Effect.catchCause((cause) => Effect.logWarning("bus retention cleanup failed", { cause })),
        Effect.repeat(Schedule.spaced(Duration.millis(options.retentionIntervalMs ?? 3600_000))),
      ),
    )

    const bus = Bus.of({
      publish: (records) =>
        Effect.tryPromise({
          try: () => appendRecords(sql, topics, records),
          catch: (error) => new BusError({ operation: "publish", message: String(error) }),
        }).pipe(
          Effect.tap((partitions) => Effect.sync(() => announce(partitions))),
          Effect.asVoid,
          Effect.withSpan("bus.publish", { attributes: { records: records.length } }),
        ),
      subscribe: (subscribeOptions, handle) =>
        Effect.tryPromise({
          try: () => topics.ensure(sql, subscribeOptions.topics),
          catch: (error) => new BusError({ operation: "subscribe", message: String(error) }),
        }).pipe(
          Effect.andThen(
            runConsumer({
              sql,
              timings,
              options: subscribeOptions,
              handle,
              crashed: () => options.crashSignal?.aborted === true,
              onTopicActivity: (listener) => {
                const relay = (channel: string) => {
                  if (channel.startsWith(`${busChannel}:`)) listener(channel.slice(busChannel.length + 1))
                }
                notified.add(relay)
                const stopInProcess = inProcessChannel.listen(sql, relay)
                return () => {
                  notified.delete(relay)
                  stopInProcess()
                }
              },
            }),
          ),
        ),
    })

    const outbox = OutboxWriter.of({
      append: (tx: postgres.TransactionSql, records) =>
        Effect.promise(() => appendRecords(asQueries(tx), topics, records)).pipe(
          // Early on a real server (the consumer finds nothing yet; NOTIFY follows the commit); on
          // PGlite the consumer's query queues behind this transaction and sees the rows.
          Effect.tap((partitions) => Effect.sync(() => announce(partitions))),
          Effect.asVoid,
        ),
    })

    return Context.make(Bus, bus).pipe(Context.add(OutboxWriter, outbox))
  })

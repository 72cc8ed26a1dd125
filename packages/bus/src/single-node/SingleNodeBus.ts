import { TopicCatalog } from "@parley/contracts"
import { Database, migrate } from "@parley/db"
import { BatchQueue, withHotSpan } from "@parley/platform"
import { Context, Duration, Effect, Layer, Schedule } from "effect"
import type postgres from "postgres"
import { Bus, BusError, OutboxWriter } from "../Bus.ts"
import { tracedBus, tracedOutbox } from "../tracing.ts"
import { runConsumer } from "./consumer.ts"
import { type HeartbeatInput, heartbeats, type Membership } from "./group.ts"
import { appendInTransaction, appendRecords, busChannel, TopicDirectory } from "./log.ts"
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
   * and does not leave its groups (others take over when its leases expire). For tests where
   * several "processes" share one connection pool that cannot be killed alone.
   */
  readonly crashSignal?: AbortSignal
}

const defaultPartitions = 8
const catalogPartitions = new Map<string, number>(TopicCatalog.map((t) => [t.name, t.partitions]))

/**
 * The bus on Postgres (schema `parley_bus`), for one-node deployments and `npm start`: the
 * log table is the outbox, so `OutboxWriter.append` writes to the log in the caller's transaction.
 */
export const SingleNodeBus = {
  layer: (options: SingleNodeBusOptions = {}): Layer.Layer<Bus | OutboxWriter, never, Database> =>
    Layer.effectContext(make(options)),
} as const

const make = (options: SingleNodeBusOptions) =>
  Effect.gen(function* () {
    const { sql } = yield* Database
    const timings = { ...defaultTimings, ...options.timings }
    const configured = options.partitions
    const topics = new TopicDirectory(
      (topic) =>
        (typeof configured === "function" ? configured(topic) : configured) ??
        catalogPartitions.get(topic) ??
        defaultPartitions,
    )
    yield* migrate({ sql, schema: busSchema, migrations: busMigrations })

    // Consumers wake on NOTIFY, which the append sends at commit, one per partition appended to
    // (`topic#partition`). Each bus relays its own LISTEN to its own consumers: tests run several
    // buses in one process, and one shared relay would wake every consumer once per bus. When
    // LISTEN (re)connects, notifications sent while it was down are lost, so everyone wakes then.
    const listeners = new Set<(partition: string | undefined) => void>()
    const listening = yield* Effect.promise(() =>
      sql.listen(
        busChannel,
        (payload) => {
          for (const listener of listeners) listener(payload)
        },
        () => {
          for (const listener of listeners) listener(undefined)
        },
      ),
    )
    yield* Effect.addFinalizer(() =>
      Effect.promise(() => listening.unlisten()).pipe(Effect.catchCause(() => Effect.void)),
    )

    const retentionMs = options.retentionMs ?? 7 * 24 * 3600_000
    yield* Effect.forkScoped(
      Effect.promise(() => deleteConsumedRecords(sql, retentionMs)).pipe(
        Effect.catchCause((cause) => Effect.logWarning("bus retention cleanup failed", { cause })),
        Effect.repeat(Schedule.spaced(Duration.millis(options.retentionIntervalMs ?? 3600_000))),
      ),
    )

    // Every consumer's heartbeat through one queue: those of one beat go as one statement.
    const beats = new BatchQueue<HeartbeatInput, Membership>((inputs) => heartbeats(sql, inputs), {
      maxBatch: 100,
      maxConcurrent: 1,
    })

    const bus = Bus.of({
      publish: (records) =>
        Effect.tryPromise({
          try: () => appendRecords(sql, topics, records),
          catch: (error) => new BusError({ operation: "publish", message: String(error) }),
        }).pipe(Effect.asVoid, withHotSpan("bus.publish", { attributes: { records: records.length } })),
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
              heartbeat: (input) => beats.submit(input),
              crashed: () => options.crashSignal?.aborted === true,
              onTopicActivity: (listener) => {
                listeners.add(listener)
                return () => listeners.delete(listener)
              },
            }),
          ),
        ),
    })

    const outbox = OutboxWriter.of({
      direct: true,
      append: (tx: postgres.TransactionSql, records) => Effect.promise(() => appendInTransaction(tx, topics, records)),
    })

    return Context.make(Bus, tracedBus(bus)).pipe(Context.add(OutboxWriter, tracedOutbox(outbox)))
  })

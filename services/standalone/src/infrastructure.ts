/**
 * Postgres and the bus, built once and shared by every service of the process: the embedded
 * PostgreSQL server under the data dir (or `DATABASE_URL`), and the single-node bus in it (or Kafka
 * with `KAFKA_BROKERS`, relaying one process-wide outbox).
 */
import { Bus, KafkaBus, OutboxWriter, singleNodeBusFor } from "@parley/bus"
import { Database, databaseUrl, migrate, outboxTableSql } from "@parley/db"
import { Effect, Layer } from "effect"
import type { StandaloneConfig } from "./config.ts"

/** With Kafka, the schema whose outbox every service of this process appends to. */
export const STANDALONE_OUTBOX_SCHEMA = "parley_standalone"

const kafkaOutbox = (brokers: ReadonlyArray<string>) => {
  const outboxTable = Layer.effectDiscard(
    Effect.gen(function* () {
      const { sql } = yield* Database
      yield* migrate({
        sql,
        schema: STANDALONE_OUTBOX_SCHEMA,
        migrations: [{ id: "0001_outbox", sql: outboxTableSql(STANDALONE_OUTBOX_SCHEMA) }],
      })
    }),
  )
  const bus = KafkaBus.layer({ brokers: [...brokers], clientId: "parley-standalone" })
  return KafkaBus.outboxLayer({ schema: STANDALONE_OUTBOX_SCHEMA }).pipe(
    Layer.provideMerge(bus),
    Layer.provide(outboxTable),
  )
}

export const infrastructureLayer = (
  config: Pick<StandaloneConfig, "databaseUrl" | "kafkaBrokers">,
  dataDir: string,
): Layer.Layer<Database | Bus | OutboxWriter, unknown> =>
  Layer.unwrap(
    Effect.map(databaseUrl({ url: config.databaseUrl, dataDir }), (url) => {
      const bus = config.kafkaBrokers === undefined ? singleNodeBusFor(url) : kafkaOutbox(config.kafkaBrokers)
      return bus.pipe(Layer.provideMerge(Database.layer({ url, maxConnections: DATABASE_POOL })))
    }),
  )

/**
 * Every service of the process shares this pool (the bus has its own): enough connections for the
 * request handlers and consumers of all of them to keep the server busy on a small machine.
 */
const DATABASE_POOL = 16

export { Bus, Database, OutboxWriter }

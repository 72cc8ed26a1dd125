/**
 * Postgres and the bus, built once and shared by every service of the process: the embedded
 * PostgreSQL server under the data dir (or `DATABASE_URL`), and the single-node bus in it (or Kafka
 * with `KAFKA_BROKERS`, relaying one process-wide outbox).
 */
import { Bus, KafkaBus, OutboxWriter, singleNodeBusFor } from "@parley/bus"
import { Database, databaseUrl } from "@parley/db"
import { Effect, Layer } from "effect"
import type { StandaloneConfig } from "./config.ts"

/** With Kafka, the schema whose outbox every service of this process appends to. */
export const STANDALONE_OUTBOX_SCHEMA = "parley_standalone"

const kafkaOutbox = (brokers: ReadonlyArray<string>) =>
  KafkaBus.outboxLayer({ schema: STANDALONE_OUTBOX_SCHEMA }).pipe(
    Layer.provideMerge(KafkaBus.layer({ brokers: [...brokers], clientId: "parley-standalone" })),
  )

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

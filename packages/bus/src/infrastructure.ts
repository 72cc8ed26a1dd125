/**
 * Where Postgres and the bus come from — decided here and nowhere else, for a service running alone
 * (`runService`) and for `npm start` alike: `DATABASE_URL` or an embedded PostgreSQL under the data
 * dir; Kafka when `KAFKA_BROKERS` is set, else the single-node bus in that Postgres.
 */
import { Database, databaseUrl as resolveDatabaseUrl } from "@parley/db"
import { databaseUrl, dataDir, kafkaBrokers } from "@parley/platform"
import { Config, Effect, Layer, Option } from "effect"
import type { Bus, OutboxWriter } from "./Bus.ts"
import { BusLive } from "./BusLive.ts"
import { KafkaBus, type KafkaBusOptions } from "./kafka/index.ts"
import { SingleNodeBus } from "./single-node/SingleNodeBus.ts"

/** Postgres and the bus as the environment configures them, read once. */
export const InfrastructureConfig = Config.all({
  databaseUrl,
  /** Where the embedded PostgreSQL keeps its data when there is no `DATABASE_URL`. */
  dataDir,
  kafkaBrokers,
  /** `KAFKA_IDEMPOTENT=false` for test brokers that cannot serve idempotent producers; unset: detected. */
  kafkaIdempotent: Config.option(Config.Boolean("KAFKA_IDEMPOTENT")),
  /**
   * Longest fetch long-poll on Kafka (ms). A broker answers as soon as a record arrives, so this only
   * matters for brokers that wait it out regardless (the librdkafka mock); unset keeps the bus default.
   */
  kafkaFetchMaxWaitMs: Config.option(Config.Int("KAFKA_FETCH_MAX_WAIT_MS")),
  /** Kafka consumer-group session timeout (ms); unset keeps the bus default (30 s). Tests shorten it. */
  kafkaSessionTimeoutMs: Config.option(Config.Int("KAFKA_SESSION_TIMEOUT_MS")),
  /**
   * Most Postgres connections the service's pool opens (`DATABASE_POOL_MAX`); unset keeps the
   * service's own size (10). Replicas × pool must stay under the server's `max_connections`.
   */
  databasePoolMax: Config.option(Config.Int("DATABASE_POOL_MAX")),
})
export type InfrastructureConfig = Config.Success<typeof InfrastructureConfig>

/**
 * What a service runs on. It says what it needs; this module decides how:
 * - `outbox`: Postgres, the bus and an `OutboxWriter` (with Kafka: the outbox in `schema` and its relay);
 * - `database`: Postgres and the bus, no outbox (the dispatcher publishes directly);
 * - `bus`: the bus alone (the gateway: on Kafka it runs without Postgres).
 */
export type InfrastructureNeed =
  | { readonly kind: "outbox"; readonly schema: string }
  | { readonly kind: "database" }
  | { readonly kind: "bus" }

/** What each kind of infrastructure provides. */
export type Provided<N extends InfrastructureNeed> = N extends { readonly kind: "outbox" }
  ? Database | Bus | OutboxWriter
  : N extends { readonly kind: "database" }
    ? Database | Bus
    : Bus

/**
 * The single-node bus on a pool of connections of its own (3) beside the service's. A bulkhead:
 * while the database is down, the bus's workers retry their fetches several times a second, and
 * requests whose queries queued behind theirs in one shared pool answered their 503 after 17–30 s
 * instead of at once (test/e2e/contract-unavailable.test.ts). Three, not five, since issue #28:
 * each connection is a server process of 8–10 MB under load, and the e2e benchmark delivered as
 * many messages per second with three (services/standalone's pool says how it was measured).
 */
export const singleNodeBusFor = (url: string): Layer.Layer<Bus | OutboxWriter> =>
  SingleNodeBus.layer().pipe(Layer.provide(Database.layer({ url, maxConnections: 3 })))

const kafkaOptions = (config: InfrastructureConfig, clientId: string): KafkaBusOptions | undefined =>
  config.kafkaBrokers === undefined
    ? undefined
    : {
        brokers: [...config.kafkaBrokers],
        clientId,
        ...(Option.isSome(config.kafkaIdempotent) ? { idempotent: config.kafkaIdempotent.value } : {}),
        ...(Option.isSome(config.kafkaFetchMaxWaitMs) ? { maxWaitTimeMs: config.kafkaFetchMaxWaitMs.value } : {}),
        ...(Option.isSome(config.kafkaSessionTimeoutMs)
          ? { sessionTimeoutMs: config.kafkaSessionTimeoutMs.value }
          : {}),
      }

/**
 * The infrastructure `need` asks for, as `config` says: Postgres from `DATABASE_URL` (else an
 * embedded server under the data dir, stopped after everything built on it), the bus on Kafka or
 * single-node. `clientId` names the Kafka client; `maxConnections` sizes the service's pool.
 */
export const infrastructureLayer = <const N extends InfrastructureNeed>(
  need: N,
  clientId: string,
  config: InfrastructureConfig,
  options: { readonly maxConnections?: number } = {},
): Layer.Layer<Provided<N>, unknown> => {
  const kafka = kafkaOptions(config, clientId)
  // The gateway on Kafka: no Postgres at all.
  if (need.kind === "bus" && kafka !== undefined) return KafkaBus.layer(kafka) as Layer.Layer<Provided<N>, unknown>
  // Each kind provides at least what `Provided` names (the single-node bus brings its writer along).
  const providing = <A>(layer: Layer.Layer<A, unknown>) => layer as unknown as Layer.Layer<Provided<N>, unknown>
  return Layer.unwrap(
    Effect.map(resolveDatabaseUrl({ url: config.databaseUrl, dataDir: config.dataDir }), (url) => {
      const maxConnections = Option.isSome(config.databasePoolMax)
        ? config.databasePoolMax.value
        : options.maxConnections
      const database = Database.layer({ url, ...(maxConnections === undefined ? {} : { maxConnections }) })
      if (kafka !== undefined) {
        return need.kind === "outbox"
          ? providing(BusLive({ schema: need.schema, kafka }).pipe(Layer.provideMerge(database)))
          : providing(KafkaBus.layer(kafka).pipe(Layer.provideMerge(database)))
      }
      switch (need.kind) {
        // A service that answers requests: the bus on a pool of its own, so requests never queue behind it.
        case "outbox":
          return providing(singleNodeBusFor(url).pipe(Layer.provideMerge(database)))
        // The dispatcher, whose work is the bus's: one pool for both.
        case "database":
          return providing(SingleNodeBus.layer().pipe(Layer.provideMerge(database)))
        // The gateway: Postgres for the bus alone.
        case "bus":
          return providing(SingleNodeBus.layer().pipe(Layer.provide(database)))
      }
    }),
  )
}

import { Database, databaseUrl } from "@parley/db"
import { Effect, Layer } from "effect"
import type { Bus, BusError, OutboxWriter } from "./Bus.ts"
import { BusLive } from "./BusLive.ts"
import { SingleNodeBus } from "./single-node/SingleNodeBus.ts"

export interface ServiceInfrastructureOptions {
  /** The service's Postgres schema (its Kafka outbox lives there). */
  readonly schema: string
  /** Names the service's Kafka client. */
  readonly clientId: string
  readonly databaseUrl?: string | undefined
  /** Where the embedded PostgreSQL keeps its data when there is no `databaseUrl`. */
  readonly dataDir?: string | undefined
  /** `KAFKA_BROKERS`, split; absent or empty selects the single-node bus in the same Postgres. */
  readonly kafkaBrokers?: ReadonlyArray<string> | undefined
}

/**
 * The single-node bus on a pool of connections of its own (5) beside the service's. A bulkhead:
 * while the database is down, the bus's workers retry their fetches several times a second, and
 * requests whose queries queued behind theirs in one shared pool answered their 503 after 17–30 s
 * instead of at once (test/e2e/contract-unavailable.test.ts).
 */
export const singleNodeBusFor = (url: string): Layer.Layer<Bus | OutboxWriter, never, Database> =>
  SingleNodeBus.layer().pipe(Layer.provide(Database.layer({ url, maxConnections: 5 })))

/**
 * What a service runs on when it runs alone: its Postgres (`databaseUrl`, else an embedded server
 * under `dataDir`, stopped after everything built on it) and the bus, from its decoded config.
 */
export const serviceInfrastructure = (
  options: ServiceInfrastructureOptions,
): Layer.Layer<Database | Bus | OutboxWriter, BusError> =>
  Layer.unwrap(
    Effect.map(databaseUrl({ url: options.databaseUrl, dataDir: options.dataDir }), (url) => {
      const bus =
        options.kafkaBrokers === undefined || options.kafkaBrokers.length === 0
          ? singleNodeBusFor(url)
          : BusLive({
              schema: options.schema,
              kafka: { brokers: [...options.kafkaBrokers], clientId: options.clientId },
            })
      return bus.pipe(Layer.provideMerge(Database.layer({ url })))
    }),
  )

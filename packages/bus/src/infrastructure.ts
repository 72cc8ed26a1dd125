import { Database } from "@parley/db"
import { Layer } from "effect"
import type { Bus, BusError, OutboxWriter } from "./Bus.ts"
import { BusLive } from "./BusLive.ts"

export interface ServiceInfrastructureOptions {
  /** The service's Postgres schema (its Kafka outbox lives there). */
  readonly schema: string
  /** Names the service's Kafka client. */
  readonly clientId: string
  readonly databaseUrl?: string | undefined
  /** Where the embedded Postgres keeps its data when there is no `databaseUrl`. */
  readonly dataDir?: string | undefined
  /** `KAFKA_BROKERS`, split; absent or empty selects the single-node bus in the same Postgres. */
  readonly kafkaBrokers?: ReadonlyArray<string> | undefined
}

/** What a service runs on when it runs alone: its Postgres and the bus, from its decoded config. */
export const serviceInfrastructure = (
  options: ServiceInfrastructureOptions,
): Layer.Layer<Database | Bus | OutboxWriter, BusError> =>
  BusLive({
    schema: options.schema,
    kafka:
      options.kafkaBrokers === undefined || options.kafkaBrokers.length === 0
        ? undefined
        : { brokers: [...options.kafkaBrokers], clientId: options.clientId },
  }).pipe(Layer.provideMerge(Database.layer({ url: options.databaseUrl, dataDir: options.dataDir })))

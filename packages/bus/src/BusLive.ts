import type { Database } from "@parley/db"
import { Layer } from "effect"
import type { Bus, BusError, OutboxWriter } from "./Bus.ts"
import { KafkaBus, type KafkaBusOptions } from "./kafka/index.ts"
import { SingleNodeBus, type SingleNodeBusOptions } from "./single-node/SingleNodeBus.ts"

export interface BusLiveOptions {
  /** The service's schema: with Kafka, its `<schema>.outbox` holds records until relayed. */
  readonly schema: string
  /** Kafka's settings when `KAFKA_BROKERS` is configured (non-empty brokers), else absent. */
  readonly kafka?: KafkaBusOptions | undefined
  readonly singleNode?: SingleNodeBusOptions
}

/**
 * The bus a service runs on: Kafka (plus its outbox writer and relay) when brokers are configured,
 * otherwise the single-node bus in the service's Postgres. Services read `KAFKA_BROKERS` in their
 * config and pass it here.
 */
export const BusLive = (options: BusLiveOptions): Layer.Layer<Bus | OutboxWriter, BusError, Database> => {
  if (options.kafka !== undefined && options.kafka.brokers.length > 0) {
    const bus = KafkaBus.layer(options.kafka)
    return KafkaBus.outboxLayer({ schema: options.schema }).pipe(Layer.provideMerge(bus))
  }
  return SingleNodeBus.layer(options.singleNode)
}

import { outboxLayer, outboxWriterLayer } from "../outbox/writer.ts"
import { layer, makeKafkaBus } from "./kafka-bus.ts"

export type { OutboxOptions as KafkaOutboxOptions } from "../outbox/writer.ts"
export type { KafkaClientOptions } from "./client.ts"
export type { ConsumerTuning } from "./consumer.ts"
export { CrashSwitch, type KafkaBusOptions } from "./kafka-bus.ts"
export type { ProducerOptions } from "./producer.ts"

/**
 * `KafkaBus.layer({ brokers, clientId })` provides `Bus`; `KafkaBus.outboxLayer({ schema })`
 * provides Kafka's `OutboxWriter` and runs the relay that moves `<schema>.outbox` rows to the bus
 * (`../outbox/`: the table, the writer and the relay).
 */
export const KafkaBus = { layer, make: makeKafkaBus, outboxLayer, outboxWriterLayer } as const

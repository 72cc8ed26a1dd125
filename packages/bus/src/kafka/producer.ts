import { type Context, Effect } from "effect"
import type { Kafka, Message, Producer } from "kafkajs"
import type { OutgoingRecord } from "../Bus.ts"
import { type KafkaClientOptions, makeKafka } from "./client.ts"
import { keyPartitioner } from "./partitioner.ts"

export interface ProducerOptions extends KafkaClientOptions {
  /**
   * Idempotent producer. Default: on, except against librdkafka's mock cluster (recognised by its
   * cluster id), which advertises a controller that does not exist while kafkajs asks the controller
   * for a producer id. Set false only for other brokers that cannot serve it.
   */
  readonly idempotent?: boolean
}

export interface KafkaPublisher {
  readonly send: (records: ReadonlyArray<OutgoingRecord>) => Promise<void>
  readonly disconnect: () => Promise<void>
}

/** librdkafka's mock names its cluster `mockCluster<hex>`; real clusters never do. */
const isLibrdkafkaMock = async (kafka: Kafka): Promise<boolean> => {
  const admin = kafka.admin()
  await admin.connect()
  try {
    const { clusterId } = await admin.describeCluster()
    return clusterId.startsWith("mockCluster")
  } finally {
    await admin.disconnect()
  }
}

const toMessage = (record: OutgoingRecord): Message => ({
  key: record.key,
  value: record.value,
  ...(record.headers === undefined ? {} : { headers: { ...record.headers } }),
})

/**
 * Acks from all in-sync replicas, one request in flight (so a retried batch never overtakes the next
 * one), and the default (murmur2) placement so a key always lands on the same partition.
 */
export const connectProducer = async (
  options: ProducerOptions,
  context: Context.Context<never>,
): Promise<KafkaPublisher> => {
  const kafka = makeKafka(options, context, "producer")
  const idempotent = options.idempotent ?? !(await isLibrdkafkaMock(kafka))
  if (!idempotent && options.idempotent === undefined) {
    Effect.runForkWith(context)(Effect.logInfo("Kafka is librdkafka's mock cluster: producing without idempotence"))
  }
  const producer: Producer = kafka.producer({
    idempotent,
    maxInFlightRequests: 1,
    allowAutoTopicCreation: false,
    createPartitioner: keyPartitioner,
  })
  await producer.connect()
  return {
    send: async (records) => {
      if (records.length === 0) return
      const byTopic = new Map<string, Message[]>()
      for (const record of records) {
        const messages = byTopic.get(record.topic) ?? []
        messages.push(toMessage(record))
        byTopic.set(record.topic, messages)
      }
      await producer.sendBatch({
        acks: -1,
        topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })),
      })
    },
    disconnect: () => producer.disconnect(),
  }
}

export const disconnectQuietly = (publisher: KafkaPublisher) =>
  Effect.promise(() => publisher.disconnect().catch(() => undefined))

import { type Context, Effect } from "effect"
import { type Message, Partitioners, type Producer } from "kafkajs"
import type { OutgoingRecord } from "../Bus.ts"
import { type KafkaClientOptions, makeKafka } from "./client.ts"

export interface ProducerOptions extends KafkaClientOptions {
  /**
   * Idempotent producer (default true). Turn off only for brokers that cannot serve it: librdkafka's
   * mock cluster advertises a controller that does not exist, and kafkajs asks the controller for a
   * producer id.
   */
  readonly idempotent?: boolean
}

export interface KafkaPublisher {
  readonly send: (records: ReadonlyArray<OutgoingRecord>) => Promise<void>
  readonly disconnect: () => Promise<void>
}

const toMessage = (record: OutgoingRecord): Message => ({
  key: record.key,
  value: record.value,
  ...(record.headers === undefined ? {} : { headers: { ...record.headers } }),
})

/**
 * Acks from all in-sync replicas, one request in flight (so a retried batch never overtakes the next
 * one), and the default (murmur2) partitioner so a key always lands on the same partition.
 */
export const connectProducer = async (
  options: ProducerOptions,
  context: Context.Context<never>,
): Promise<KafkaPublisher> => {
  const producer: Producer = makeKafka(options, context, "producer").producer({
    idempotent: options.idempotent ?? true,
    maxInFlightRequests: 1,
    allowAutoTopicCreation: false,
    createPartitioner: Partitioners.DefaultPartitioner,
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

import { Kafka, logLevel } from "kafkajs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type KafkaTestBrokers, kafkaTestBrokers } from "./testing-broker.ts"

describe("kafkaTestBrokers", () => {
  let kafka: KafkaTestBrokers
  beforeAll(async () => {
    kafka = await kafkaTestBrokers()
  })
  afterAll(() => kafka?.stop())

  it("creates topics at run time with the partition counts asked for", async () => {
    await kafka.createTopics([
      { name: "broker-test.a", partitions: 3 },
      { name: "broker-test.b", partitions: 1 },
    ])
    const admin = new Kafka({ clientId: "t", brokers: kafka.brokers, logLevel: logLevel.NOTHING }).admin()
    await admin.connect()
    try {
      const { topics } = await admin.fetchTopicMetadata({ topics: ["broker-test.a", "broker-test.b"] })
      const counts = Object.fromEntries(topics.map((t) => [t.name, t.partitions.length]))
      expect(counts).toEqual({ "broker-test.a": 3, "broker-test.b": 1 })
    } finally {
      await admin.disconnect()
    }
  })
})

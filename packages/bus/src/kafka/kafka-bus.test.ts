import { Database } from "@parley/db"
import { freshDatabase } from "@parley/db/testing"
import { Layer } from "effect"
import { Kafka, logLevel } from "kafkajs"
import { outboxTableSql } from "../outbox/table.ts"
import { busContractSuite } from "../testing.ts"
import { CrashSwitch, KafkaBus } from "./index.ts"
import { testBusOptions } from "./test-support.ts"
import { kafkaTestBrokers } from "./testing-broker.ts"

const schema = "kafka_contract"

// The shared Bus contract on Kafka: each instance is its own producer and consumers (as a separate
// process would be) plus a Database on one fresh database, with Kafka's outbox in `schema`.
busContractSuite("KafkaBus", async () => {
  const broker = await kafkaTestBrokers()
  const db = await freshDatabase()
  await db.sql.unsafe(`create schema ${schema}; ${outboxTableSql(schema)}`)
  const admin = new Kafka({ clientId: "contract-admin", brokers: broker.brokers, logLevel: logLevel.NOTHING }).admin()
  await admin.connect()
  let instances = 0
  return {
    createTopic: (name, partitions) => broker.createTopics([{ name, partitions }]),
    committedOffset: async (groupId, topic, partition) => {
      const [entry] = await admin.fetchOffsets({ groupId, topics: [topic] })
      const offset = entry?.partitions.find((p) => p.partition === partition)?.offset
      return offset === undefined || Number(offset) < 0 ? undefined : BigInt(offset)
    },
    makeInstance: async () => {
      const crashSwitch = new CrashSwitch()
      const bus = KafkaBus.layer({ ...testBusOptions(broker, `contract-${instances++}`), crashSwitch })
      const layer = KafkaBus.outboxLayer({ schema }).pipe(
        Layer.provideMerge(Layer.merge(Database.layer({ url: db.url }), bus)),
        Layer.orDie,
      )
      return { layer, crash: () => crashSwitch.crash(), close: async () => {} }
    },
    close: async () => {
      await admin.disconnect()
      await db.close()
      await broker.stop()
    },
  }
})

import { Effect } from "effect"
import { Kafka, logLevel } from "kafkajs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { BusRecord } from "../Bus.ts"
import { eventually, openBus, type ScopedBus, testBusOptions } from "./test-support.ts"
import { type KafkaTestBrokers, kafkaTestBrokers } from "./testing-broker.ts"

// Kafka-specific behaviour of the adapter beyond the shared contract suite (kafka-bus.test.ts): the
// window sliding past a held record, drain on close, abandoned failures, and group membership changes.
let broker: KafkaTestBrokers
let publisher: ScopedBus
let topicNo = 0
const newTopic = async (partitions: number) => {
  const name = `kafka-bus-behaviour.${Date.now().toString(36)}.${topicNo++}`
  await broker.createTopics([{ name, partitions }])
  return name
}
const committed = async (groupId: string, topic: string) => {
  const admin = new Kafka({ clientId: "t", brokers: broker.brokers, logLevel: logLevel.NOTHING }).admin()
  await admin.connect()
  try {
    const [entry] = await admin.fetchOffsets({ groupId, topics: [topic] })
    return Object.fromEntries((entry?.partitions ?? []).map((p) => [p.partition, Number(p.offset)]))
  } finally {
    await admin.disconnect()
  }
}

beforeAll(async () => {
  broker = await kafkaTestBrokers()
  publisher = await openBus(testBusOptions(broker, "behaviour-publisher"))
})
afterAll(async () => {
  await publisher?.close()
  await broker?.stop()
})

// Each test owns its topic and group, and most of the time is spent waiting for group joins (the mock
// holds a first join for 3 s), so the tests run concurrently.
describe.concurrent("KafkaBus on a Kafka broker", () => {
  it("commits only up to a record held in flight while the records behind it are processed", async () => {
    const topic = await newTopic(1)
    const groupId = `held-${topic}`
    await Effect.runPromise(
      publisher.bus.publish(Array.from({ length: 6 }, (_, i) => ({ topic, key: "k", value: `v${i}` }))),
    )
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    const done: string[] = []
    const consumer = await openBus(testBusOptions(broker, "held"))
    try {
      await consumer.run(
        consumer.bus.subscribe({ groupId, topics: [topic], window: 4 }, (r: BusRecord) =>
          Effect.promise(async () => {
            if (r.value === "v1") await held
            done.push(r.value)
          }),
        ),
      )
      // v1 is held; v0 and v2..v5 still finish (v5 only once the window slides past v2).
      await eventually(() => expect([...done].sort()).toEqual(["v0", "v2", "v3", "v4", "v5"]))
      await eventually(async () => expect(await committed(groupId, topic)).toEqual({ 0: 1 }))
      release()
      await eventually(async () => expect(await committed(groupId, topic)).toEqual({ 0: 6 }))
    } finally {
      release()
      await consumer.close()
    }
  })

  it("does not commit past a record that still fails when its scope closes, so it is redelivered", async () => {
    const topic = await newTopic(1)
    const groupId = `stuck-${topic}`
    await Effect.runPromise(publisher.bus.publish(["a", "b"].map((value) => ({ topic, key: "k", value }))))
    const first = await openBus(testBusOptions(broker, "stuck-1"))
    const seenFirst: string[] = []
    await first.run(
      first.bus.subscribe({ groupId, topics: [topic] }, (r) =>
        Effect.suspend(() => {
          seenFirst.push(r.value)
          return r.value === "a" ? Effect.die(new Error("boom")) : Effect.void
        }),
      ),
    )
    await eventually(() => expect(seenFirst).toContain("b"))
    await first.close()
    expect(await committed(groupId, topic)).toEqual({ 0: 0 })

    const second = await openBus(testBusOptions(broker, "stuck-2"))
    const seenSecond: string[] = []
    try {
      await second.run(
        second.bus.subscribe({ groupId, topics: [topic] }, (r) => Effect.sync(() => void seenSecond.push(r.value))),
      )
      await eventually(() => expect(seenSecond).toEqual(["a", "b"]))
    } finally {
      await second.close()
    }
  })

  it("splits a topic's partitions between two members of one group and processes every record", async () => {
    const topic = await newTopic(4)
    const groupId = `split-${topic}`
    const partitions = new Set<number>()
    const values = new Set<string>()
    const members = [await openBus(testBusOptions(broker, "split-1")), await openBus(testBusOptions(broker, "split-2"))]
    try {
      await Promise.all(
        members.map((m) =>
          m.run(
            m.bus.subscribe({ groupId, topics: [topic] }, (r) =>
              Effect.sync(() => {
                partitions.add(r.partition)
                values.add(r.value)
              }),
            ),
          ),
        ),
      )
      await Effect.runPromise(
        publisher.bus.publish(Array.from({ length: 40 }, (_, i) => ({ topic, key: `key-${i}`, value: `v${i}` }))),
      )
      await eventually(() => expect(values.size).toBe(40), 30_000)
      expect([...partitions].sort()).toEqual([0, 1, 2, 3])
      // After the group settles each partition belongs to one member (earlier generations may overlap).
      await eventually(async () => expect(Object.keys(await committed(groupId, topic))).toHaveLength(4))
    } finally {
      await Promise.all(members.map((m) => m.close()))
    }
  })

  it("finishes the records in flight and commits them when its scope closes", async () => {
    const topic = await newTopic(1)
    const groupId = `drain-${topic}`
    await Effect.runPromise(publisher.bus.publish(["a", "b", "c"].map((value) => ({ topic, key: "k", value }))))
    let started = 0
    let release: () => void = () => {}
    const gate = new Promise<void>((resolve) => {
      release = resolve
    })
    const finished: string[] = []
    const consumer = await openBus(testBusOptions(broker, "drain"))
    await consumer.run(
      consumer.bus.subscribe({ groupId, topics: [topic] }, (r) =>
        Effect.promise(async () => {
          started++
          await gate
          finished.push(r.value)
        }),
      ),
    )
    await eventually(() => expect(started).toBe(3))
    const closing = consumer.close()
    release()
    await closing
    expect(finished.sort()).toEqual(["a", "b", "c"])
    expect(await committed(groupId, topic)).toEqual({ 0: 3 })
  })

  it("hands a leaving member's partitions to the member that stays", async () => {
    const topic = await newTopic(2)
    const groupId = `handover-${topic}`
    const seen: Array<Set<string>> = [new Set(), new Set()]
    const members = [
      await openBus(testBusOptions(broker, "handover-1")),
      await openBus(testBusOptions(broker, "handover-2")),
    ]
    try {
      await Promise.all(
        members.map((m, i) =>
          m.run(m.bus.subscribe({ groupId, topics: [topic] }, (r) => Effect.sync(() => void seen[i]?.add(r.value)))),
        ),
      )
      const batch = (prefix: string) =>
        Array.from({ length: 20 }, (_, i) => ({ topic, key: `key-${i}`, value: `${prefix}${i}` }))
      await Effect.runPromise(publisher.bus.publish(batch("before-")))
      await eventually(() => expect(new Set([...seen[0]!, ...seen[1]!]).size).toBe(20), 30_000)
      await members[0]!.close()
      await Effect.runPromise(publisher.bus.publish(batch("after-")))
      await eventually(() => expect(batch("after-").filter((r) => !seen[1]!.has(r.value))).toEqual([]), 30_000)
    } finally {
      await Promise.all(members.map((m) => m.close()))
    }
  })

  it("publishes with default producer settings, idempotent unless the broker is librdkafka's mock", async () => {
    const topic = await newTopic(1)
    const { idempotent: _, ...defaults } = testBusOptions(broker, "defaults")
    const bus = await openBus(defaults)
    try {
      await Effect.runPromise(bus.bus.publish([{ topic, key: "k", value: "v" }]))
    } finally {
      await bus.close()
    }
    const admin = new Kafka({ clientId: "t", brokers: broker.brokers, logLevel: logLevel.NOTHING }).admin()
    await admin.connect()
    try {
      expect((await admin.fetchTopicOffsets(topic)).map((p) => p.high)).toEqual(["1"])
    } finally {
      await admin.disconnect()
    }
  })
})

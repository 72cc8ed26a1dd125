import { Effect } from "effect"
import { afterAll, beforeAll, expect, it } from "vitest"
import { eventually, openBus, type ScopedBus, testBusOptions } from "./test-support.ts"
import { type KafkaTestBrokers, kafkaTestBrokers } from "./testing-broker.ts"

// Its own broker: the injected error hits whichever SyncGroup comes next on the cluster.
let broker: KafkaTestBrokers
let publisher: ScopedBus
beforeAll(async () => {
  broker = await kafkaTestBrokers()
  publisher = await openBus(testBusOptions(broker, "replacement-publisher"))
})
afterAll(async () => {
  await publisher?.close()
  await broker?.stop()
})

it("replaces a member kafkajs gave up on after a non-retriable group error, and keeps consuming", async (ctx) => {
  if (broker.failRequests === undefined) return ctx.skip(`cannot inject broker errors into a ${broker.kind} broker`)
  const topic = `member-replacement.${Date.now().toString(36)}`
  await broker.createTopics([{ name: topic, partitions: 1 }])
  await Effect.runPromise(publisher.bus.publish([{ topic, key: "k", value: "first" }]))
  // SyncGroup (API key 14) answered with INVALID_REQUEST (42), as the mock does to a late SyncGroup:
  // kafkajs treats it as fatal and stops the consumer for good.
  await broker.failRequests(14, 42, 1)
  const seen: string[] = []
  const consumer = await openBus(testBusOptions(broker, "replacement"))
  try {
    await consumer.run(
      consumer.bus.subscribe({ groupId: `g-${topic}`, topics: [topic] }, (r) =>
        Effect.sync(() => void seen.push(r.value)),
      ),
    )
    await eventually(() => expect(seen).toEqual(["first"]), 20_000)
    await Effect.runPromise(publisher.bus.publish([{ topic, key: "k", value: "second" }]))
    await eventually(() => expect(seen).toEqual(["first", "second"]))
  } finally {
    await consumer.close()
  }
})

import { Database, withTransaction } from "@parley/db"
import { type FreshDatabase, freshDatabase } from "@parley/db/testing"
import { Effect, Exit, Layer, Scope } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Bus, OutboxWriter } from "../Bus.ts"
import { outboxTableSql } from "../outbox/table.ts"
import { KafkaBus } from "./index.ts"
import { eventually, testBusOptions } from "./test-support.ts"
import { type KafkaTestBrokers, kafkaTestBrokers } from "./testing-broker.ts"

const schema = "kafka_outbox_test"
let broker: KafkaTestBrokers
let db: FreshDatabase
let scope: Scope.Closeable
let run: <A, E>(effect: Effect.Effect<A, E, Bus | OutboxWriter | Database | Scope.Scope>) => Promise<A>

beforeAll(async () => {
  broker = await kafkaTestBrokers()
  db = await freshDatabase()
  await db.sql.unsafe(`create schema ${schema}; ${outboxTableSql(schema)}`)
  scope = await Effect.runPromise(Scope.make())
  const live = KafkaBus.outboxLayer({ schema }).pipe(
    Layer.provideMerge(
      Layer.merge(Database.layer({ url: db.url }), KafkaBus.layer(testBusOptions(broker, "outbox-test"))),
    ),
  )
  const context = await Effect.runPromise(Layer.build(live).pipe(Scope.provide(scope)))
  run = (effect) => Effect.runPromise(effect.pipe(Scope.provide(scope), Effect.provide(context)))
})
afterAll(async () => {
  if (scope !== undefined) await Effect.runPromise(Scope.close(scope, Exit.void))
  await db?.close()
  await broker?.stop()
})

describe("Kafka outbox", () => {
  it("publishes what a committed transaction appended and nothing from a rolled-back one", async () => {
    const topic = `kafka-outbox.${Date.now().toString(36)}`
    await broker.createTopics([{ name: topic, partitions: 2 }])
    const seen: Array<{ key: string; value: string; headers: Record<string, string> }> = []
    await run(
      Effect.gen(function* () {
        const bus = yield* Bus
        yield* bus.subscribe({ groupId: `outbox-${topic}`, topics: [topic] }, (r) =>
          Effect.sync(() => void seen.push({ key: r.key, value: r.value, headers: r.headers })),
        )
        const writer = yield* OutboxWriter
        yield* withTransaction((tx) =>
          writer.append(tx, [
            { topic, key: "a", value: "committed-1", headers: { "x-trace": "t1" } },
            { topic, key: "b", value: "committed-2" },
          ]),
        )
        yield* withTransaction((tx) =>
          writer.append(tx, [{ topic, key: "a", value: "rolled-back" }]).pipe(Effect.andThen(Effect.fail("abort"))),
        ).pipe(Effect.ignore)
      }),
    )
    await eventually(() =>
      expect(seen.sort((x, y) => x.value.localeCompare(y.value))).toEqual([
        { key: "a", value: "committed-1", headers: { "x-trace": "t1" } },
        { key: "b", value: "committed-2", headers: {} },
      ]),
    )
    await eventually(async () => expect(await db.sql.unsafe(`select id from ${schema}.outbox`)).toHaveLength(0))
    expect(seen.map((r) => r.value)).not.toContain("rolled-back")
  })
})

import { Topics } from "@parley/contracts"
import { withTransaction } from "@parley/db"
import { type FreshDatabase, freshDatabase } from "@parley/db/testing"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Bus, OutboxWriter } from "../Bus.ts"
import { createTopic } from "./log.ts"
import { partitionFor } from "./partitioner.ts"
import { eventually, startSingleNodeBus } from "./test-support.ts"

let db: FreshDatabase
let bus: Awaited<ReturnType<typeof startSingleNodeBus>>
beforeAll(async () => {
  db = await freshDatabase()
  bus = await startSingleNodeBus(db.url, { partitions: (topic) => (topic === "three" ? 3 : undefined) })
})
afterAll(async () => {
  await bus.close()
  await db.close()
})

const offsets = (topic: string) =>
  db.sql<Array<{ value: string; offset: bigint }>>`
    select value, "offset" from parley_bus.records where topic = ${topic} order by "offset"`

describe("the single-node log", () => {
  it("assigns offsets in commit order, so a transaction that commits late never leaves a gap behind a reader", async () => {
    let releaseFirst = () => {}
    const firstHolds = new Promise<void>((resolve) => {
      releaseFirst = resolve
    })
    let firstAppended = false
    const first = bus.run(
      OutboxWriter.use((outbox) =>
        Effect.promise(() =>
          bus.sql.begin(async (tx) => {
            await Effect.runPromise(outbox.append(tx, [{ topic: "late", key: "k", value: "first" }]))
            firstAppended = true
            await firstHolds
          }),
        ),
      ),
    )
    await eventually(() => firstAppended)
    let secondDone = false
    const second = bus.run(Bus.use((b) => b.publish([{ topic: "late", key: "k", value: "second" }]))).then(() => {
      secondDone = true
    })
    // The second append waits on the partition's counter while the first transaction is open.
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(secondDone).toBe(false)
    expect(await offsets("late")).toEqual([])
    releaseFirst()
    await Promise.all([first, second])
    expect(await offsets("late")).toEqual([
      { value: "first", offset: 0n },
      { value: "second", offset: 1n },
    ])
  })

  it("in withTransaction, appends with COMMIT: the partition is not held while the transaction's process works", async () => {
    await createTopic(db.sql, "deferred", 1)
    let appended = false
    let release = () => {}
    const working = new Promise<void>((resolve) => {
      release = resolve
    })
    const slow = bus.run(
      withTransaction((tx) =>
        OutboxWriter.use((outbox) =>
          Effect.gen(function* () {
            yield* outbox.append(tx, [{ topic: "deferred", key: "k", value: "first" }])
            yield* outbox.append(tx, [{ topic: "deferred", key: "k", value: "second" }])
            appended = true
            // The transaction's process is busy for as long as the test wants.
            yield* Effect.promise(() => working)
          }),
        ),
      ),
    )
    try {
      await eventually(() => appended)
      // Appended before the first transaction commits, and not kept waiting for it.
      await bus.run(Bus.use((b) => b.publish([{ topic: "deferred", key: "k", value: "third" }])))
    } finally {
      release()
      await slow
    }
    expect(await offsets("deferred")).toEqual([
      { value: "third", offset: 0n },
      { value: "first", offset: 1n },
      { value: "second", offset: 2n },
    ])
  })

  it("in withTransaction, an append that fails rolls the whole transaction back and fails it", async () => {
    await db.sql`create table if not exists deferred_effects (note text)`
    await bus.run(Bus.use((b) => b.publish([{ topic: "doomed", key: "k", value: "kept" }])))
    const failing = bus.run(
      withTransaction((tx) =>
        OutboxWriter.use((outbox) =>
          Effect.gen(function* () {
            yield* Effect.promise(() => tx`insert into deferred_effects values ('written before the append')`)
            // The topic is known, so the append gets as far as parley_bus.append, which fails there.
            yield* Effect.promise(() => tx`delete from parley_bus.partitions where topic = 'doomed'`)
            yield* outbox.append(tx, [{ topic: "doomed", key: "k", value: "lost" }])
          }),
        ),
      ),
    )
    await expect(failing).rejects.toThrow(/No partition/)
    expect(await db.sql`select note from deferred_effects`).toEqual([])
    expect((await offsets("doomed")).map((r) => r.value)).toEqual(["kept"])
  })

  it("appends a batch spanning partitions all or nothing, in one statement without a client transaction", async () => {
    await bus.run(Bus.use((b) => b.publish([{ topic: "three", key: "warm-up", value: "0" }])))
    const keyOn = (partition: number) => {
      for (let i = 0; ; i++) if (partitionFor(`k${i}`, 3) === partition) return `k${i}`
    }
    const counters = () =>
      db.sql<Array<{ partition: number; next_offset: bigint }>>`
        select partition, next_offset from parley_bus.partitions where topic = 'three' order by partition`
    const [recordsBefore, countersBefore] = [await offsets("three"), await counters()]
    // Partition 2's counter goes missing: the batch fails there, after partition 0 was appended to.
    await db.sql`update parley_bus.partitions set partition = 20 where topic = 'three' and partition = 2`
    const failure = await bus
      .run(
        Bus.use((b) =>
          b.publish([
            { topic: "three", key: keyOn(2), value: "b" },
            { topic: "three", key: keyOn(0), value: "a" },
          ]),
        ),
      )
      .then(
        () => "published",
        (error: unknown) => String(error),
      )
    await db.sql`update parley_bus.partitions set partition = 2 where topic = 'three' and partition = 20`
    expect(failure).toContain("No partition 2 of three")
    expect(await offsets("three")).toEqual(recordsBefore)
    expect(await counters()).toEqual(countersBefore)
  })

  it("creates a topic and its partitions at once: no appender ever finds the topic without them", async () => {
    const held = Promise.withResolvers<void>()
    const locked = Promise.withResolvers<void>()
    // Another session blocks inserts into partitions, so creation stalls between its two steps.
    const blocker = db.sql.begin(async (tx) => {
      await tx`lock table parley_bus.partitions in share mode`
      locked.resolve()
      await held.promise
    })
    await locked.promise
    const creating = createTopic(bus.sql, "atomic", 4)
    await new Promise((resolve) => setTimeout(resolve, 300))
    const visible = await db.sql`select 1 from parley_bus.topics where name = 'atomic'`
    held.resolve()
    await Promise.all([blocker, creating])
    expect(visible).toHaveLength(0)
    const [partitions] = await db.sql<Array<{ n: number }>>`
      select count(*)::int as n from parley_bus.partitions where topic = 'atomic'`
    expect(partitions?.n).toBe(4)
  })

  it("creates topics on first use with the configured, catalogued or default partition count", async () => {
    await bus.run(
      Bus.use((b) =>
        b.publish([
          { topic: "three", key: "k", value: "v" },
          { topic: Topics.identityKeys, key: "k", value: "v" },
          { topic: "uncatalogued", key: "k", value: "v" },
        ]),
      ),
    )
    const rows = await db.sql`select name, partitions from parley_bus.topics
      where name in ('three', ${Topics.identityKeys}, 'uncatalogued') order by name`
    expect(rows).toEqual([
      { name: Topics.identityKeys, partitions: 8 },
      { name: "three", partitions: 3 },
      { name: "uncatalogued", partitions: 8 },
    ])
  })

  it("wakes a consumer in another process through NOTIFY (there is no poll)", async () => {
    const consumer = await startSingleNodeBus(db.url, {
      timings: { heartbeatMs: 100 },
    })
    const seen: Array<string> = []
    await consumer.run(
      Bus.use((b) =>
        b.subscribe({ groupId: "notify", topics: ["notified"] }, (r) => Effect.sync(() => void seen.push(r.value))),
      ),
    )
    await bus.run(Bus.use((b) => b.publish([{ topic: "notified", key: "k", value: "1" }])))
    await eventually(() => seen.length === 1)
    await bus.run(Bus.use((b) => b.publish([{ topic: "notified", key: "k", value: "2" }])))
    await eventually(() => seen.length === 2, 3_000)
    await consumer.close()
  })
})

import { clientOptions, withTransaction } from "@parley/db"
import { type FreshDatabase, freshDatabase } from "@parley/db/testing"
import { Effect, Exit, Scope } from "effect"
import postgres from "postgres"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Bus, type BusRecord, OutboxWriter, type Subscription } from "../Bus.ts"
import { type AppendedBatch, LocalHandoff, type LogHandoff, logIdentity } from "./handoff.ts"
import { appendRecords, createTopic, TopicDirectory } from "./log.ts"
import { startPartitionWorker } from "./partition-worker.ts"
import { eventually, startSingleNodeBus } from "./test-support.ts"
import { defaultTimings } from "./timings.ts"

type TestBus = Awaited<ReturnType<typeof startSingleNodeBus>>

const isFetch = (query: string) => query.includes('order by "offset" limit')
const quick = { heartbeatMs: 100, commitIntervalMs: 50 }

/** A registry that counts the records workers took from offers. */
class CountingHandoff extends LocalHandoff {
  taken = 0
  override forLog(log: string): LogHandoff {
    const inner = super.forLog(log)
    return {
      ...inner,
      register: (partition, taker) =>
        inner.register(partition, (batch) => {
          const took = taker(batch)
          this.taken += took
          return took
        }),
    }
  }
}

let db: FreshDatabase
/** Another "process" on the same database: what it appends reaches consumers here by NOTIFY and fetch. */
let elsewhere: TestBus
beforeAll(async () => {
  db = await freshDatabase()
  elsewhere = await startSingleNodeBus(db.url, { partitions: 1, timings: quick })
})
afterAll(async () => {
  await elsewhere.close()
  await db.close()
})

const publish = (bus: TestBus, topic: string, values: ReadonlyArray<string>, key = "k") =>
  bus.run(Bus.use((b) => b.publish(values.map((value) => ({ topic, key, value })))))

const subscribe = (
  bus: TestBus,
  options: { groupId: string; topics: ReadonlyArray<string>; window?: number },
  handle: (record: BusRecord) => void,
): Promise<Subscription> => bus.run(Bus.use((b) => b.subscribe(options, (record) => Effect.sync(() => handle(record)))))

describe("the single-node bus's in-process handoff", () => {
  it("hands records committed in this process to a consumer here without a fetch, and still fetches what another appends", async () => {
    let fetches = 0
    const seen: Array<BusRecord> = []
    const bus = await startSingleNodeBus(db.url, { partitions: 1, timings: quick }, (query) => {
      if (isFetch(query)) fetches++
    })
    await subscribe(bus, { groupId: "handed", topics: ["handed"] }, (record) => seen.push(record))
    // The worker's first fetch (of an empty partition) once it holds its lease.
    await eventually(() => fetches === 1)

    for (let i = 0; i < 10; i++) {
      await publish(bus, "handed", [`published-${i}`])
      await eventually(() => seen.length === i + 1)
    }
    for (let i = 0; i < 10; i++) {
      await bus.run(
        withTransaction((tx) =>
          OutboxWriter.use((outbox) =>
            outbox.append(tx, [
              { topic: "handed", key: "k", value: `in-transaction-${i}.0`, headers: { "x-i": `${i}` } },
              { topic: "handed", key: "k", value: `in-transaction-${i}.1` },
            ]),
          ),
        ),
      )
      await eventually(() => seen.length === 10 + 2 * (i + 1))
    }
    // NOTIFYs reach the bus in commit order: once a record appended elsewhere (after all those) is
    // delivered, every NOTIFY of the appends above has been read — and none of them made a fetch.
    await publish(elsewhere, "handed", ["from-elsewhere"])
    await eventually(() => seen.length === 31)
    expect(fetches).toBe(2)
    await bus.close()

    // Each record as the log holds it: offset, key, value, headers and the commit's timestamp.
    const rows = await db.sql<Array<{ offset: bigint; value: string; headers: object; created_at: Date }>>`
      select "offset", value, headers, created_at from parley_bus.records where topic = 'handed' order by "offset"`
    expect(
      seen.map((r) => ({ offset: r.offset, value: r.value, headers: r.headers, created_at: r.timestamp })),
    ).toEqual(rows)
  })

  it("ignores a batch that does not continue where the worker has read; the batch's NOTIFY then fetches it", async () => {
    // Two commits, A then B, seen in this process in the order B, A.
    await createTopic(db.sql, "reordered", 1)
    const partition = { topic: "reordered", partition: 0 }
    await db.sql`insert into parley_bus.leases (group_id, topic, partition, member_id, expires_at)
                 values ('reordered', 'reordered', 0, 'member', now() + interval '1 hour')`
    let fetches = 0
    // The worker's own client, so its fetches can be counted.
    const sql = postgres(db.url, {
      ...clientOptions(2),
      debug: (_connection: number, query: string) => {
        if (isFetch(query)) fetches++
      },
    })
    let take: ((batch: AppendedBatch) => number) | undefined
    const handled: Array<string> = []
    const scope = Effect.runSync(Scope.make())
    const worker = await Effect.runPromise(
      startPartitionWorker(
        {
          sql,
          groupId: "reordered",
          memberId: "member",
          partition,
          window: 16,
          timings: { ...defaultTimings, ...quick },
          isPaused: () => false,
          crashed: () => false,
          handle: (record) => Effect.sync(() => void handled.push(record.value)),
          onLeaseLost: () => {},
          handoff: {
            ...new LocalHandoff().forLog("played by the test"),
            register: (_partition, taker) => {
              take = taker
              return () => {}
            },
          },
        },
        scope,
      ),
    )
    await eventually(() => fetches === 1)

    // Appended with nothing offered: the test plays the part of the appenders' offers and NOTIFYs.
    const batches: Array<AppendedBatch> = []
    const captured: LogHandoff = {
      ...new LocalHandoff().forLog("captured"),
      offer: (batch) => void batches.push(batch),
    }
    const topics = new TopicDirectory(() => 1)
    await appendRecords(sql, topics, captured, [
      { topic: "reordered", key: "k", value: "A0" },
      { topic: "reordered", key: "k", value: "A1" },
    ])
    await appendRecords(
      sql,
      topics,
      captured,
      ["B0", "B1", "B2"].map((value) => ({ topic: "reordered", key: "k", value })),
    )
    const [a, b] = batches
    if (a === undefined || b === undefined || take === undefined) throw new Error("no batches or no worker")
    expect([a.first, b.first]).toEqual([0n, 2n])

    expect(take(b)).toBe(0)
    expect(take(a)).toBe(2)
    await eventually(() => handled.length === 2)
    // A's NOTIFY: nothing before its end is missing, so no fetch.
    worker.wake(2n)
    // B's NOTIFY: fetched.
    worker.wake(5n)
    await eventually(() => handled.length === 5)
    expect(handled).toEqual(["A0", "A1", "B0", "B1", "B2"])
    expect(fetches).toBe(2)
    // Already fetched: neither a late offer of B nor a repeated NOTIFY brings it again.
    expect(take(b)).toBe(0)
    worker.wake(5n)
    await Effect.runPromise(worker.stop("drain"))
    await Effect.runPromise(Scope.close(scope, Exit.void))
    await sql.end({ timeout: 5 })
    expect(handled).toEqual(["A0", "A1", "B0", "B1", "B2"])
    expect(fetches).toBe(2)
    const [row] = await db.sql<Array<{ committed: bigint }>>`
      select committed from parley_bus.group_offsets where group_id = 'reordered'`
    expect(row?.committed).toBe(5n)
  })

  it("never offers a record to a worker of another database, though topic, partition and offset match", async () => {
    const other = await freshDatabase()
    // Both on one registry, as every bus of a process is by default.
    const shared = new CountingHandoff()
    const counts = [0, 0]
    const buses = await Promise.all(
      [db, other].map((d, i) =>
        startSingleNodeBus(d.url, { partitions: 1, timings: quick, handoff: shared }, (query) => {
          if (isFetch(query)) counts[i] = (counts[i] ?? 0) + 1
        }),
      ),
    )
    expect(await logIdentity(db.sql)).not.toBe(await logIdentity(other.sql))
    const seen: Array<Array<string>> = [[], []]
    for (const [i, bus] of buses.entries()) {
      await subscribe(bus, { groupId: "apart", topics: ["apart"] }, (record) => void seen[i]?.push(record.value))
    }
    await eventually(() => counts[0] === 1 && counts[1] === 1)
    const [here, there] = buses as [TestBus, TestBus]
    // Offset 0 of apart#0 on each database: to a registry keyed by partition alone, the first is
    // exactly what the other database's worker waits for.
    await publish(here, "apart", ["here-0"])
    await eventually(() => seen[0]?.length === 1)
    await publish(there, "apart", ["there-0"])
    await eventually(() => seen[1]?.length === 1)
    await publish(here, "apart", ["here-1"])
    await eventually(() => seen[0]?.length === 2)
    for (const bus of buses) await bus.close()
    await other.close()
    expect(seen).toEqual([["here-0", "here-1"], ["there-0"]])
    // Each taken by its own database's worker, none fetched.
    expect(shared.taken).toBe(3)
    expect(counts).toEqual([1, 1])
  })

  it("leaves a paused worker's offers alone; after resume the record is fetched, once", async () => {
    let fetches = 0
    const bus = await startSingleNodeBus(db.url, { partitions: 1, timings: quick }, (query) => {
      if (isFetch(query)) fetches++
    })
    const seen: Array<string> = []
    const subscription = await subscribe(bus, { groupId: "paused", topics: ["paused"] }, (r) => void seen.push(r.value))
    await eventually(() => fetches === 1)
    await bus.run(subscription.pause)
    await publish(bus, "paused", ["while-paused"])
    // Its NOTIFY has been read once a later one (from elsewhere, on another topic) has been acted on.
    const later: Array<string> = []
    await subscribe(bus, { groupId: "paused-barrier", topics: ["paused-barrier"] }, (r) => void later.push(r.value))
    await eventually(() => fetches === 2)
    await publish(elsewhere, "paused-barrier", ["barrier"])
    await eventually(() => later.length === 1)
    expect(seen).toEqual([])
    const before = fetches
    await bus.run(subscription.resume)
    await eventually(() => seen.length === 1)
    await publish(elsewhere, "paused-barrier", ["barrier-2"])
    await eventually(() => later.length === 2)
    await bus.close()
    expect(seen).toEqual(["while-paused"])
    // Fetched on resume (the offer was refused, not kept) — and the barrier's own fetch.
    expect(fetches).toBe(before + 2)
  })

  it("delivers every record once to each group, in order per key, under concurrent appenders here and elsewhere", async () => {
    const handoff = new CountingHandoff()
    const bus = await startSingleNodeBus(db.url, { partitions: 3, timings: quick, handoff })
    const other = await startSingleNodeBus(db.url, { partitions: 3, timings: quick })
    const groups = ["concurrent-a", "concurrent-b"]
    const seen = new Map(groups.map((g) => [g, [] as Array<BusRecord>]))
    for (const groupId of groups) {
      // A small window for one group: offers arrive while it is full and must be left to the fetch.
      await subscribe(bus, { groupId, topics: ["concurrent"], window: groupId === "concurrent-a" ? 16 : 2 }, (r) =>
        seen.get(groupId)?.push(r),
      )
    }
    const appenders = 8
    const rounds = 20
    const keys = ["k0", "k1", "k2", "k3", "k4"]
    await Promise.all(
      Array.from({ length: appenders }, async (_, appender) => {
        for (let round = 0; round < rounds; round++) {
          const records = keys
            .filter((_, i) => (i + round + appender) % 2 === 0)
            .map((key) => ({ topic: "concurrent", key, value: `${appender}:${round}` }))
          // Half the appenders in another "process"; here, by publish and in transactions.
          if (appender % 2 === 1) await other.run(Bus.use((b) => b.publish(records)))
          else if (round % 2 === 0) await bus.run(Bus.use((b) => b.publish(records)))
          else await bus.run(withTransaction((tx) => OutboxWriter.use((outbox) => outbox.append(tx, records))))
        }
      }),
    )
    const [{ total } = { total: 0n }] = await db.sql<Array<{ total: bigint }>>`
      select count(*) as total from parley_bus.records where topic = 'concurrent'`
    await eventually(() => groups.every((g) => (seen.get(g)?.length ?? 0) >= Number(total)), 15_000)
    await other.close()
    await bus.close()

    for (const groupId of groups) {
      const records = seen.get(groupId) ?? []
      expect(records.length).toBe(Number(total))
      // Once each: every (partition, offset) of the log exactly one time.
      expect(new Set(records.map((r) => `${r.partition}:${r.offset}`)).size).toBe(Number(total))
      for (const partition of [0, 1, 2]) {
        const offsets = records.filter((r) => r.partition === partition).map((r) => r.offset)
        expect(offsets).toEqual(offsets.map((_, i) => BigInt(i)))
      }
      // In order per key: each appender's records of a key in the order it appended them.
      for (const key of keys) {
        const rounds = new Map<string, number>()
        for (const record of records.filter((r) => r.key === key)) {
          const [appender = "", round = ""] = record.value.split(":")
          expect(Number(round)).toBeGreaterThan(rounds.get(appender) ?? -1)
          rounds.set(appender, Number(round))
        }
      }
    }
    // The handoff carried some of them (the rest came by fetch).
    expect(handoff.taken).toBeGreaterThan(0)
  })
})

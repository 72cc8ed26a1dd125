import { type FreshDatabase, freshDatabase } from "@parley/db/testing"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Bus } from "../Bus.ts"
import { eventually, startSingleNodeBus } from "./test-support.ts"

let db: FreshDatabase
let bus: Awaited<ReturnType<typeof startSingleNodeBus>>
beforeAll(async () => {
  db = await freshDatabase()
  bus = await startSingleNodeBus(db.url, { timings: { heartbeatMs: 100, commitIntervalMs: 250 } })
})
afterAll(async () => {
  await bus.close()
  await db.close()
})

describe("a single-node partition worker", () => {
  it("spaces its commits while records finish one by one, and has committed everything once it stops", async () => {
    await bus.run(
      Bus.use((b) => b.publish(Array.from({ length: 40 }, (_, i) => ({ topic: "spaced", key: "k", value: `${i}` })))),
    )
    const committed = new Set<bigint>()
    let done = 0
    const subscriber = await startSingleNodeBus(db.url, { timings: { heartbeatMs: 100, commitIntervalMs: 250 } })
    const started = performance.now()
    // One at a time, 25 ms each: a second of records finishing one by one.
    await subscriber.run(
      Bus.use((b) =>
        b.subscribe({ groupId: "spaced", topics: ["spaced"], window: 1 }, () =>
          Effect.sleep("25 millis").pipe(Effect.andThen(Effect.sync(() => void done++))),
        ),
      ),
    )
    const watching = setInterval(() => {
      void db.sql<Array<{ committed: bigint }>>`
        select committed from parley_bus.group_offsets where group_id = 'spaced'`.then(([row]) => {
        if (row !== undefined) committed.add(row.committed)
      })
    }, 5)
    await eventually(() => done === 40, 10_000)
    const elapsedMs = performance.now() - started
    await subscriber.close()
    clearInterval(watching)
    const [row] = await db.sql<Array<{ committed: bigint }>>`
      select committed from parley_bus.group_offsets where group_id = 'spaced'`
    expect(row?.committed).toBe(40n)
    // One commit per 250 ms at most: about four in the second this takes on a quiet machine (a
    // loaded one stretches the second, not the spacing), never near one per record (forty).
    expect(committed.size).toBeLessThanOrEqual(Math.min(Math.ceil(elapsedMs / 250) + 2, 20))
  })

  it("fetches when records may have arrived, not each time a handler finishes", async () => {
    let fetches = 0
    const subscriber = await startSingleNodeBus(db.url, { timings: { heartbeatMs: 100 } }, (query) => {
      if (query.includes('order by "offset" limit')) fetches++
    })
    let done = 0
    await subscriber.run(
      Bus.use((b) =>
        b.subscribe({ groupId: "fetches", topics: ["fetches"], window: 64 }, () =>
          Effect.sleep("10 millis").pipe(Effect.andThen(Effect.sync(() => void done++))),
        ),
      ),
    )
    // Ten appends of ten records each: every append may bring records, every finish brings none.
    for (let i = 0; i < 10; i++) {
      await bus.run(
        Bus.use((b) =>
          b.publish(Array.from({ length: 10 }, (_, j) => ({ topic: "fetches", key: "k", value: `${i}.${j}` }))),
        ),
      )
      await eventually(() => done === (i + 1) * 10)
    }
    await subscriber.close()
    // A first fetch per partition of the topic (8), then one per append (its NOTIFY; room is left
    // for a second): a fetch per finished record, or per partition on every append, would be over
    // a hundred.
    expect(fetches).toBeGreaterThanOrEqual(10)
    expect(fetches).toBeLessThanOrEqual(8 + 2 * 10)
  })

  it("stops without waiting out a failing handler's retry backoff, leaving its record to be read again", async () => {
    await bus.run(
      Bus.use((b) => b.publish(["ok-0", "fails", "ok-2"].map((value) => ({ topic: "giving-up", key: "k", value })))),
    )
    const seen: Array<string> = []
    // A handler that fails waits 20 s before its next try: a stop that waited for it would too.
    const subscriber = await startSingleNodeBus(db.url, {
      timings: { heartbeatMs: 100, retryBaseMs: 20_000, retryMaxMs: 20_000 },
    })
    await subscriber.run(
      Bus.use((b) =>
        b.subscribe({ groupId: "giving-up", topics: ["giving-up"], window: 8 }, (record) =>
          Effect.sync(() => {
            seen.push(record.value)
            if (record.value === "fails") throw new Error("not now")
          }),
        ),
      ),
    )
    await eventually(() => seen.length === 3)
    const stopping = Date.now()
    await subscriber.close()
    expect(Date.now() - stopping).toBeLessThan(5_000)
    // Committed up to the record given up, not past it: the next member starts there.
    const [row] = await db.sql<Array<{ committed: bigint }>>`
      select committed from parley_bus.group_offsets where group_id = 'giving-up'`
    expect(row?.committed).toBe(1n)
    const again: Array<string> = []
    const next = await startSingleNodeBus(db.url, { timings: { heartbeatMs: 100 } })
    await next.run(
      Bus.use((b) =>
        b.subscribe({ groupId: "giving-up", topics: ["giving-up"], window: 8 }, (record) =>
          Effect.sync(() => void again.push(record.value)),
        ),
      ),
    )
    await eventually(() => again.length === 2)
    await next.close()
    expect(again).toEqual(["fails", "ok-2"])
  })
})

import { type FreshDatabase, freshDatabase } from "@parley/db/testing"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Bus } from "../Bus.ts"
import { heartbeats } from "./group.ts"
import { eventually, startSingleNodeBus } from "./test-support.ts"

let db: FreshDatabase
beforeAll(async () => {
  db = await freshDatabase()
})
afterAll(async () => {
  await db.close()
})

describe("the heartbeats of a bus's consumers", () => {
  it("go together, one or two statements per beat however many groups the process has", async () => {
    let statements = 0
    const bus = await startSingleNodeBus(db.url, { timings: { heartbeatMs: 200 } }, (query) => {
      if (query.includes("parley_bus.heartbeat(")) statements++
    })
    try {
      const groups = Array.from({ length: 6 }, (_, i) => `beats-${i}`)
      await bus.run(
        Effect.forEach(groups, (group) =>
          Bus.use((b) => b.subscribe({ groupId: group, topics: [`beats-topic-${group}`] }, () => Effect.void)),
        ),
      )
      await eventually(async () => {
        const rows = await db.sql`select distinct group_id from parley_bus.leases where group_id like 'beats-%'`
        return rows.length === groups.length
      })
      statements = 0
      const started = performance.now()
      await new Promise((resolve) => setTimeout(resolve, 1_000))
      // About five beats of six groups: thirty statements when each group beat on its own. The beats
      // are counted from the time that really passed (a loaded machine stretches the second: a CI run
      // saw 13 statements in it), at most two statements each.
      const beats = Math.ceil((performance.now() - started) / 200) + 1
      expect(statements).toBeGreaterThanOrEqual(4)
      expect(statements, `${statements} statements in ${beats} beats`).toBeLessThanOrEqual(2 * beats)
    } finally {
      await bus.close()
    }
  })

  it("answer each member its own membership, as separate calls would", async () => {
    const bus = await startSingleNodeBus(db.url)
    try {
      await bus.run(
        Bus.use((b) =>
          b.publish([
            { topic: "beats-a", key: "k", value: "v" },
            { topic: "beats-b", key: "k", value: "v" },
          ]),
        ),
      )
      const [a, b, none] = await heartbeats(db.sql, [
        { groupId: "one-a", memberId: "m1", topics: ["beats-a"], sessionMs: 5_000 },
        { groupId: "one-b", memberId: "m2", topics: ["beats-b"], sessionMs: 5_000 },
        { groupId: "one-c", memberId: "m3", topics: [], sessionMs: 5_000 },
      ])
      const partitions = async (topic: string) =>
        (
          await db.sql<
            Array<{ partition: number }>
          >`select partition from parley_bus.partitions where topic = ${topic} order by partition`
        ).map((row) => ({ topic, partition: row.partition }))
      expect(a?.held).toEqual(await partitions("beats-a"))
      expect(a?.desired).toEqual(await partitions("beats-a"))
      expect(b?.held).toEqual(await partitions("beats-b"))
      expect(none).toEqual({ held: [], desired: [] })
    } finally {
      await bus.close()
    }
  })
})

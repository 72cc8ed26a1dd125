import { type FreshDatabase, freshDatabase } from "@parley/db/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Bus } from "../Bus.ts"
import { deleteConsumedRecords } from "./retention.ts"
import { startSingleNodeBus } from "./test-support.ts"

let db: FreshDatabase
beforeAll(async () => {
  db = await freshDatabase()
})
afterAll(() => db.close())

describe("deleteConsumedRecords", () => {
  it("deletes only old records that every group on the topic has committed past", async () => {
    const bus = await startSingleNodeBus(db.url, { partitions: 1 })
    await bus.run(Bus.use((b) => b.publish([0, 1, 2, 3].map((i) => ({ topic: "kept", key: "k", value: `${i}` })))))
    await bus.close()
    await db.sql`update parley_bus.records set created_at = now() - interval '8 days' where "offset" < 3`
    await db.sql`insert into parley_bus.group_offsets (group_id, topic, partition, committed)
                 values ('fast', 'kept', 0, 4), ('slow', 'kept', 0, 2)`
    expect(await deleteConsumedRecords(db.sql, 7 * 24 * 3600_000)).toBe(2)
    const left = await db.sql`select "offset" from parley_bus.records where topic = 'kept' order by "offset"`
    // 2 is old but "slow" has not read it; 3 everyone read, but it is young.
    expect(left.map((r) => r.offset)).toEqual([2n, 3n])
  })
})

import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { jsonb } from "./jsonb.ts"
import { type FreshDatabase, freshDatabase } from "./testing.ts"

/** An interface, not a type with an index signature: what `sql.json` alone does not accept. */
interface Booking {
  readonly service: string
  readonly at: string
  readonly notes?: ReadonlyArray<string>
}

let db: FreshDatabase
beforeAll(async () => {
  db = await freshDatabase()
  await db.sql`create table t (id int primary key, doc jsonb)`
})
afterAll(() => db.close())

describe("jsonb", () => {
  it("stores a typed value as jsonb and reads it back equal, in and out of a transaction", async () => {
    const booking: Booking = { service: "Haircut", at: "2026-11-30T10:00:00.000Z", notes: ["ü", "\u2028"] }
    await db.sql`insert into t values (1, ${jsonb(db.sql, booking)})`
    await db.sql.begin((tx) => tx`insert into t values (2, ${jsonb(tx, [booking, null])})`)
    const rows = await db.sql<Array<{ id: number; doc: unknown; kind: string }>>`
      select id, doc, jsonb_typeof(doc) as kind from t order by id`
    expect(rows.map((row) => [row.id, row.kind, row.doc])).toEqual([
      [1, "object", booking],
      [2, "array", [booking, null]],
    ])
  })
})

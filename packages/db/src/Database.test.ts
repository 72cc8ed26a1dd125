import { mkdtemp } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Database } from "./Database.ts"
import { type FreshDatabase, freshDatabase } from "./testing.ts"

const useDatabase = <A>(options: { url?: string; dataDir?: string }, f: (db: Database["Service"]) => Promise<A>) =>
  Effect.runPromise(
    Effect.provide(
      Database.use((db) => Effect.promise(() => f(db))),
      Database.layer(options),
    ),
  )

describe("Database.layer with a URL", () => {
  let fresh: FreshDatabase
  beforeAll(async () => {
    fresh = await freshDatabase()
  })
  afterAll(() => fresh.close())

  it("is a pool on that server that reads int8 as bigint and json as values", async () => {
    const row = await useDatabase({ url: fresh.url }, async (db) => {
      expect(db.embedded).toBe(false)
      const [r] = await db.sql`select 9007199254740993::int8 as big, '{"a":[1]}'::jsonb as doc`
      return r
    })
    expect(row).toEqual({ big: 9007199254740993n, doc: { a: [1] } })
  })
})

describe("Database.layer without a URL", () => {
  it("serves an embedded PGlite persisted under <dataDir>/pg across restarts", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "parley-pglite-"))
    await useDatabase({ dataDir }, async (db) => {
      expect(db.embedded).toBe(true)
      await db.sql`create table kept (n int8)`
      await db.sql`insert into kept values (7)`
    })
    const rows = await useDatabase({ dataDir }, (db) => db.sql`select n from kept`)
    expect(rows).toEqual([{ n: 7n }])
  })
})

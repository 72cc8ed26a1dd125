import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Database, type DatabaseOptions } from "./Database.ts"
import { type FreshDatabase, freshDatabase } from "./testing.ts"

const useDatabase = <A>(options: DatabaseOptions, f: (db: Database["Service"]) => Promise<A>) =>
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
      const [r] = await db.sql`select 9007199254740993::int8 as big, '{"a":[1]}'::jsonb as doc`
      return r
    })
    expect(row).toEqual({ big: 9007199254740993n, doc: { a: [1] } })
  })
})

describe("Database.layer without a URL", () => {
  it("runs an embedded PostgreSQL 18 under <dataDir>/postgres, with a real pool on its Unix socket, kept across restarts", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "parley-embedded-"))
    try {
      await useDatabase({ dataDir, maxConnections: 4 }, async (db) => {
        const [version] = await db.sql<Array<{ server_version_num: string }>>`show server_version_num`
        expect(Number(version?.server_version_num)).toBeGreaterThanOrEqual(180_000)
        // No server address: the connection is the Unix socket's, not loopback TCP's.
        expect(await db.sql`select inet_server_addr() as address`).toEqual([{ address: null }])
        await db.sql`create table kept (n int8)`
        await db.sql`insert into kept values (7)`
        // Several connections at once: one holds a transaction open while another commits.
        await db.sql.begin(async (tx) => {
          await tx`insert into kept values (8)`
          const [others] = await db.sql<Array<{ n: bigint }>>`select count(*) as n from kept`
          expect(others?.n).toBe(1n)
        })
      })
      const rows = await useDatabase({ dataDir }, (db) => db.sql`select n from kept order by n`)
      expect(rows).toEqual([{ n: 7n }, { n: 8n }])
    } finally {
      await rm(dataDir, { recursive: true, force: true })
    }
  })
})

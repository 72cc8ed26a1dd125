import { mkdtemp, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { loadMigrations, migrate } from "./migrate.ts"
import { type FreshDatabase, freshDatabase } from "./testing.ts"

let db: FreshDatabase
beforeAll(async () => {
  db = await freshDatabase()
})
afterAll(() => db.close())

const migrations = [
  { id: "0001_counter", sql: "create table counter (n int not null); insert into counter values (0);" },
  // Not idempotent on purpose: applying it twice would count 2.
  { id: "0002_bump", sql: "update counter set n = n + 1;" },
]

describe("migrate", () => {
  it("applies each migration exactly once when five instances start at the same time", async () => {
    const results = await Promise.all(
      Array.from({ length: 5 }, () => Effect.runPromise(migrate({ sql: db.sql, schema: "race", migrations }))),
    )
    expect(results.flat()).toEqual(["0001_counter", "0002_bump"])
    expect(await db.sql`select n from race.counter`).toEqual([{ n: 1 }])
    const recorded = await db.sql`select id from race.schema_migrations order by id`
    expect(recorded.map((r) => r.id)).toEqual(["0001_counter", "0002_bump"])
  })

  it("applies only the migrations added since the last run", async () => {
    await Effect.runPromise(migrate({ sql: db.sql, schema: "grow", migrations }))
    const added = await Effect.runPromise(
      migrate({
        sql: db.sql,
        schema: "grow",
        migrations: [...migrations, { id: "0003_bump", sql: "update counter set n = n + 10;" }],
      }),
    )
    expect(added).toEqual(["0003_bump"])
    expect(await db.sql`select n from grow.counter`).toEqual([{ n: 11 }])
  })

  it("keeps each service's tables in its own schema", async () => {
    await Effect.runPromise(migrate({ sql: db.sql, schema: "one", migrations }))
    await Effect.runPromise(migrate({ sql: db.sql, schema: "two", migrations }))
    expect(await db.sql`select n from one.counter`).toEqual([{ n: 1 }])
    expect(await db.sql`select n from two.counter`).toEqual([{ n: 1 }])
  })

  it("rolls a failing migration back entirely, recording nothing", async () => {
    const broken = [...migrations, { id: "0003_broken", sql: "update counter set n = n + 1; select * from missing;" }]
    await expect(Effect.runPromise(migrate({ sql: db.sql, schema: "broken", migrations: broken }))).rejects.toThrow()
    const schemas = await db.sql`select 1 from information_schema.schemata where schema_name = 'broken'`
    expect(schemas).toHaveLength(0)
  })
})

describe("loadMigrations", () => {
  it("reads NNNN_name.sql files sorted by number and ignores other files", async () => {
    const dir = await mkdtemp(join(tmpdir(), "parley-migrations-"))
    await writeFile(join(dir, "0002_second.sql"), "select 2;")
    await writeFile(join(dir, "0001_first.sql"), "select 1;")
    await writeFile(join(dir, "README.md"), "not a migration")
    const loaded = await Effect.runPromise(loadMigrations(pathToFileURL(dir)))
    expect(loaded).toEqual([
      { id: "0001_first", sql: "select 1;" },
      { id: "0002_second", sql: "select 2;" },
    ])
  })
})

import postgres from "postgres"
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest"
import { clientOptions } from "./Database.ts"
import { type FreshDatabase, freshDatabase } from "./testing.ts"

// postgres.js 3.4.9 reserved a transaction's connection only when its BEGIN did not fill the
// connection's pipeline (porsager/postgres#1189, #1210): at that boundary `sql.begin` failed with
// UNSAFE_TRANSACTION while the server had entered the transaction, and the connection went back to
// the pool `idle in transaction`, so the next unrelated query ran inside it. The default pipeline of
// 100 makes that rare; a pipeline of one makes it happen every time a BEGIN queues behind a query.
// scripts/patch-postgres.mjs reserves the connection whenever BEGIN was written.
let db: FreshDatabase

beforeAll(async () => {
  db = await freshDatabase()
})
afterAll(() => db?.close())

/** A client whose one connection pipelines at most one query behind the one running. */
const tightClient = () => {
  // `max_pipeline` is a real option of postgres.js that its type definitions leave out.
  const options = { ...clientOptions(1), max_pipeline: 1 }
  const sql = postgres(db.url, options)
  onTestFinished(() => sql.end({ timeout: 1 }))
  return sql
}

/** The server's view of the client's connection once its queries are done: "idle" or "idle in transaction". */
const stateOf = async (sql: postgres.Sql) => {
  const [own] = await sql<Array<{ pid: number }>>`select pg_backend_pid() as pid`
  const [row] = await db.sql<Array<{ state: string }>>`select state from pg_stat_activity where pid = ${own?.pid ?? 0}`
  return row?.state
}

describe("sql.begin when its BEGIN fills the connection's pipeline", () => {
  it("runs the transaction on a reserved connection and leaves no transaction open", async () => {
    const sql = tightClient()
    await sql`select 1` // connected
    // The BEGIN queues behind a running query (dispatched now, not on the next tick): it is written
    // as the pipeline's last place.
    const running = sql`select pg_sleep(0.05)`.execute()
    const transaction = sql.begin(async (tx) => {
      const [row] = await tx<Array<{ one: number }>>`select 1 as one`
      return row?.one
    })
    await running
    expect(await transaction).toBe(1)
    expect(await stateOf(sql)).toBe("idle")
  })

  it("rolls back on failure and still leaves no transaction open", async () => {
    const sql = tightClient()
    await sql`create table if not exists begin_probe (n int)`
    const running = sql`select pg_sleep(0.05)`.execute()
    const failed = sql
      .begin(async (tx) => {
        await tx`insert into begin_probe values (1)`
        throw new Error("abort")
      })
      .then(
        () => "committed",
        (error: Error) => error.message,
      )
    await running
    expect(await failed).toBe("abort")
    expect(await sql`select count(*)::int as n from begin_probe`).toEqual([{ n: 0 }])
    expect(await stateOf(sql)).toBe("idle")
  })
})

import { migrate } from "@parley/db"
import { type FreshDatabase, freshDatabase } from "@parley/db/testing"
import { Effect, Fiber, Logger } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { runOutboxRelay } from "./relay.ts"
import { type OutboxRow, outboxTableSql } from "./table.ts"

let db: FreshDatabase
beforeAll(async () => {
  db = await freshDatabase()
})
afterAll(() => db.close())

const until = async (condition: () => boolean | Promise<boolean>, timeoutMs = 5_000) => {
  const deadline = Date.now() + timeoutMs
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("condition not met in time")
    await new Promise((r) => setTimeout(r, 10))
  }
}

const startRelay = (schema: string, publish: (rows: ReadonlyArray<OutboxRow>) => Effect.Effect<void, unknown>) =>
  Effect.runFork(runOutboxRelay({ sql: db.sql, schema, publish }))

const append = (schema: string, key: string, value: string) =>
  db.sql.unsafe(`insert into ${schema}.outbox (topic, key, value) values ('t', $1, $2)`, [key, value])

describe("runOutboxRelay", () => {
  it("publishes committed rows in order, once woken, and deletes them", async () => {
    await Effect.runPromise(
      migrate({ sql: db.sql, schema: "relay_a", migrations: [{ id: "0001", sql: outboxTableSql("relay_a") }] }),
    )
    const seen: Array<string> = []
    const relay = startRelay("relay_a", (rows) =>
      Effect.sync(() => seen.push(...rows.map((r) => `${r.key}:${r.value}`))),
    )
    for (const value of ["1", "2", "3"]) await append("relay_a", "k", value)
    // No poll: getting here means the commit's NOTIFY woke the relay.
    await until(() => seen.length === 3)
    expect(seen).toEqual(["k:1", "k:2", "k:3"])
    await until(async () => (await db.sql`select count(*)::int as n from relay_a.outbox`)[0]?.n === 0)
    await Effect.runPromise(Fiber.interrupt(relay))
  })

  it("never publishes a row whose transaction rolled back", async () => {
    await Effect.runPromise(
      migrate({ sql: db.sql, schema: "relay_b", migrations: [{ id: "0001", sql: outboxTableSql("relay_b") }] }),
    )
    const seen: Array<string> = []
    const relay = startRelay("relay_b", (rows) => Effect.sync(() => seen.push(...rows.map((r) => r.value))))
    await db.sql
      .begin(async (tx) => {
        await tx`insert into relay_b.outbox (topic, key, value) values ('t', 'k', 'rolled back')`
        throw new Error("abort")
      })
      .catch(() => {})
    await append("relay_b", "k", "committed")
    await until(() => seen.length === 1)
    expect(seen).toEqual(["committed"])
    await Effect.runPromise(Fiber.interrupt(relay))
  })

  it("keeps rows whose publish failed and publishes them again later", async () => {
    await Effect.runPromise(
      migrate({ sql: db.sql, schema: "relay_c", migrations: [{ id: "0001", sql: outboxTableSql("relay_c") }] }),
    )
    let attempts = 0
    const seen: Array<string> = []
    const relay = startRelay("relay_c", (rows) =>
      Effect.suspend(() => {
        attempts += 1
        if (attempts === 1) return Effect.fail("broker down")
        seen.push(...rows.map((r) => r.value))
        return Effect.void
      }),
    )
    await append("relay_c", "k", "v")
    await until(() => seen.length === 1)
    expect(attempts).toBeGreaterThanOrEqual(2)
    await Effect.runPromise(Fiber.interrupt(relay))
  })

  it("waits quietly for a table its migrations have not created yet, then relays once they have", async () => {
    const logs: Array<{ level: string; message: string }> = []
    const collecting = Logger.make(({ logLevel, message }) => {
      const parts = Array.isArray(message) ? message : [message]
      logs.push({ level: logLevel, message: parts.filter((part) => typeof part === "string").join(" ") })
    })
    const seen: Array<string> = []
    const relay = Effect.runFork(
      runOutboxRelay({
        sql: db.sql,
        schema: "relay_late",
        publish: (rows) => Effect.sync(() => seen.push(...rows.map((r) => r.value))),
        pollInterval: "50 millis",
      }).pipe(Effect.provide(Logger.layer([collecting]))),
    )
    // Several polls find no table.
    await until(() => logs.length > 0)
    await new Promise((r) => setTimeout(r, 300))
    await Effect.runPromise(
      migrate({ sql: db.sql, schema: "relay_late", migrations: [{ id: "0001", sql: outboxTableSql("relay_late") }] }),
    )
    await append("relay_late", "k", "after migrations")
    await until(() => seen.length === 1)
    expect(seen).toEqual(["after migrations"])
    // One line that says what it waits for, and no warning.
    expect(logs).toEqual([
      { level: "Info", message: "outbox relay: waiting for the migrations to create relay_late.outbox" },
    ])
    await Effect.runPromise(Fiber.interrupt(relay))
  })
})

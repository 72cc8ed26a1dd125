import { isDependencyUnavailable } from "@parley/platform"
import { Cause, Effect, Exit, Fiber, Layer, Schema, Scope } from "effect"
import postgres from "postgres"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { clientOptions, Database } from "./Database.ts"
import { type GroupCommitOptions, makeGroupCommit } from "./group-commit.ts"
import { type FreshDatabase, freshDatabase } from "./testing.ts"

class Refused extends Schema.TaggedError<Refused>()("Refused", { item: Schema.String }) {}

let db: FreshDatabase
let layer: Layer.Layer<Database>
const scopes: Array<Scope.Closeable> = []

beforeAll(async () => {
  db = await freshDatabase()
  await db.sql`create table items (name text primary key, txid bigint not null)`
  layer = Layer.succeed(Database, { sql: db.sql })
})
beforeEach(async () => {
  await db.sql`delete from items`
})
afterAll(async () => {
  for (const scope of scopes) await Effect.runPromise(Scope.close(scope, Exit.void))
  await db.close()
})

const stored = async () =>
  (await db.sql<Array<{ name: string }>>`select name from items order by name`).map((row) => row.name)

/**
 * A group commit that inserts each item as a row and answers the id of the transaction that did;
 * "hold" waits for the returned `release` before finishing its batch, "refuse" fails with a typed
 * error, "boom" dies, "dup" breaks a unique key in the database.
 */
const itemsGroupCommit = async (options: GroupCommitOptions = {}) => {
  let release = () => {}
  const gate = new Promise<void>((resolve) => {
    release = resolve
  })
  const batches: Array<{ size: number; committed: boolean }> = []
  const applied: Array<ReadonlyArray<string>> = []
  const apply = (tx: postgres.TransactionSql, items: ReadonlyArray<string>) =>
    Effect.gen(function* () {
      applied.push(items)
      const results: Array<string> = []
      for (const item of items) {
        if (item === "refuse") return yield* Effect.fail(new Refused({ item }))
        if (item === "boom") return yield* Effect.die(new Error("boom"))
        const name = item === "dup" ? "existing" : item
        const [row] = yield* Effect.promise(
          () => tx<Array<{ txid: string }>>`
            insert into items (name, txid) values (${name}, txid_current()) returning txid::text`,
        )
        results.push(row?.txid ?? "")
      }
      if (items.includes("hold")) yield* Effect.promise(() => gate)
      return results
    })
  const scope = Scope.makeUnsafe()
  scopes.push(scope)
  const group = await Effect.runPromise(
    makeGroupCommit(apply, { ...options, onBatch: (batch) => batches.push(batch) }).pipe(
      Scope.provide(scope),
      Effect.provide(layer),
    ),
  )
  // `runFork` runs the fiber until its first wait, so the item is queued before this returns.
  const submit = (item: string) => Effect.runFork(group.submit(item))
  return { group, submit, release, batches, applied, scope }
}

const resultOf = <A, E>(fiber: Fiber.Fiber<A, E>) => Effect.runPromise(Fiber.join(fiber))
const exitOf = <A, E>(fiber: Fiber.Fiber<A, E>) => Effect.runPromise(Fiber.await(fiber))

describe("makeGroupCommit", () => {
  it("commits items submitted while a batch is in flight together, in one transaction", async () => {
    const { submit, release, batches } = await itemsGroupCommit({ maxConcurrent: 1 })
    const first = submit("hold")
    const rest = Array.from({ length: 20 }, (_, i) => submit(`item-${String(i).padStart(2, "0")}`))
    release()
    const firstTx = await resultOf(first)
    const restTx = await Promise.all(rest.map(resultOf))
    expect(new Set(restTx).size).toBe(1)
    expect(restTx[0]).not.toBe(firstTx)
    expect(batches).toEqual([
      { size: 1, committed: true },
      { size: 20, committed: true },
    ])
    expect(await stored()).toHaveLength(21)
  })

  it("puts at most maxBatch items in one transaction", async () => {
    const { submit, release, batches } = await itemsGroupCommit({ maxConcurrent: 1, maxBatch: 8 })
    const fibers = [submit("hold"), ...Array.from({ length: 20 }, (_, i) => submit(`item-${i}`))]
    release()
    await Promise.all(fibers.map(resultOf))
    expect(batches.map((b) => b.size)).toEqual([1, 8, 8, 4])
  })

  it("runs at most maxConcurrent batches at once", async () => {
    const { submit, release, batches } = await itemsGroupCommit({ maxConcurrent: 2 })
    const fibers = [submit("hold"), submit("second"), submit("a"), submit("b"), submit("c")]
    release()
    await Promise.all(fibers.map(resultOf))
    // The second batch finishes first (the first is held), so only the sizes are certain.
    expect(batches.map((b) => b.size).sort()).toEqual([1, 1, 3])
  })

  it("applies a failed batch's items one by one, so only the bad ones fail, each with its own error", async () => {
    await db.sql`insert into items (name, txid) values ('existing', 0)`
    const { submit, release, batches } = await itemsGroupCommit({ maxConcurrent: 1 })
    const first = submit("hold")
    const good = [submit("a"), submit("b")]
    const refused = submit("refuse")
    const died = submit("boom")
    const duplicate = submit("dup")
    const last = submit("c")
    release()
    await resultOf(first)
    const goodTx = await Promise.all([...good, last].map(resultOf))
    expect(new Set(goodTx).size).toBe(3)

    const refusedExit = await exitOf(refused)
    expect(Exit.isFailure(refusedExit) && Cause.findErrorOption(refusedExit.cause)).toMatchObject({
      value: { _tag: "Refused", item: "refuse" },
    })
    const diedExit = await exitOf(died)
    expect(Exit.hasDies(diedExit)).toBe(true)
    const duplicateExit = await exitOf(duplicate)
    expect(Exit.isFailure(duplicateExit) && Cause.squash(duplicateExit.cause)).toMatchObject({ code: "23505" })

    expect(await stored()).toEqual(["a", "b", "c", "existing", "hold"])
    expect(batches).toEqual([
      { size: 1, committed: true },
      { size: 6, committed: false },
      ...[true, true, false, false, false, true].map((committed) => ({ size: 1, committed })),
    ])
  })

  it("fails a batch at once, without retrying item by item, when the database is unreachable", async () => {
    const unreachable = postgres("postgres://postgres@127.0.0.1:1/none", clientOptions(2))
    const scope = Scope.makeUnsafe()
    scopes.push(scope)
    const batches: Array<number> = []
    const group = await Effect.runPromise(
      makeGroupCommit((tx, items: ReadonlyArray<string>) => Effect.promise(() => tx`select 1`).pipe(Effect.as(items)), {
        maxConcurrent: 1,
        onBatch: (batch) => batches.push(batch.size),
      }).pipe(Scope.provide(scope), Effect.provide(Layer.succeed(Database, { sql: unreachable }))),
    )
    const fibers = ["a", "b", "c", "d"].map((item) => Effect.runFork(group.submit(item)))
    const exits = await Promise.all(fibers.map(exitOf))
    await unreachable.end({ timeout: 0 })
    expect(exits.map((exit) => Exit.isFailure(exit) && isDependencyUnavailable(Cause.squash(exit.cause)))).toEqual([
      true,
      true,
      true,
      true,
    ])
    expect(batches).toEqual([1, 3])
  })

  it("withdraws an interrupted caller's item if its batch has not started", async () => {
    const { submit, release, applied } = await itemsGroupCommit({ maxConcurrent: 1 })
    const first = submit("hold")
    const withdrawn = submit("withdrawn")
    const kept = submit("kept")
    await Effect.runPromise(Fiber.interrupt(withdrawn))
    release()
    await Promise.all([first, kept].map(resultOf))
    expect(applied).toEqual([["hold"], ["kept"]])
    expect(await stored()).toEqual(["hold", "kept"])
  })

  it("finishes every submitted item when its scope closes, then refuses new ones", async () => {
    const { group, submit, release, scope } = await itemsGroupCommit({ maxConcurrent: 1, maxBatch: 4 })
    const fibers = [submit("hold"), ...Array.from({ length: 10 }, (_, i) => submit(`item-${i}`))]
    let closed = false
    const closing = Effect.runPromise(Scope.close(scope, Exit.void)).then(() => {
      closed = true
    })
    // Closing waits for the held batch: nothing may be cut off.
    await Effect.runPromise(Effect.yieldNow)
    expect(closed).toBe(false)
    release()
    await closing
    const exits = await Promise.all(fibers.map(exitOf))
    expect(exits.every(Exit.isSuccess)).toBe(true)
    expect(await stored()).toHaveLength(11)
    const late = await Effect.runPromiseExit(group.submit("late"))
    expect(Exit.hasDies(late)).toBe(true)
    expect(await stored()).not.toContain("late")
  })
})

describe("makeGroupCommit with atomicity 'statement'", () => {
  /** Each batch is one multi-row insert; "dup" breaks the unique key, failing the whole statement. */
  const statementGroupCommit = async () => {
    let release = () => {}
    const gate = new Promise<void>((resolve) => {
      release = resolve
    })
    const apply = (tx: postgres.TransactionSql, items: ReadonlyArray<string>) =>
      Effect.gen(function* () {
        if (items.includes("hold")) yield* Effect.promise(() => gate)
        const rows = yield* Effect.promise(
          () => tx<Array<{ name: string; txid: string }>>`
            insert into items (name, txid)
            select case when n = 'dup' then 'existing' else n end, txid_current() from unnest(${[...items]}::text[]) as n
            returning name, txid::text`,
        )
        return items.map((item) => rows.find((row) => row.name === item)?.txid ?? "")
      })
    const scope = Scope.makeUnsafe()
    scopes.push(scope)
    const group = await Effect.runPromise(
      makeGroupCommit(apply, { atomicity: "statement", maxConcurrent: 1 }).pipe(
        Scope.provide(scope),
        Effect.provide(layer),
      ),
    )
    return { submit: (item: string) => Effect.runFork(group.submit(item)), release }
  }

  it("writes the items waiting behind a batch together, in one statement, each caller answered after it", async () => {
    const { submit, release } = await statementGroupCommit()
    const first = submit("hold")
    const rest = ["a", "b", "c", "d"].map(submit)
    release()
    expect(await resultOf(first)).not.toBe("")
    const txids = await Promise.all(rest.map(resultOf))
    // The four waiting behind the held batch went together: one statement, one transaction id.
    expect(new Set(txids).size).toBe(1)
    expect(await stored()).toEqual(["a", "b", "c", "d", "hold"])
  })

  it("applies a failed statement's items one by one: only the bad one fails", async () => {
    await db.sql`insert into items (name, txid) values ('existing', 0)`
    const { submit, release } = await statementGroupCommit()
    const first = submit("hold")
    const good = [submit("a"), submit("b")]
    const duplicate = submit("dup")
    release()
    await resultOf(first)
    await Promise.all(good.map(resultOf))
    expect(Exit.isFailure(await exitOf(duplicate))).toBe(true)
    expect(await stored()).toEqual(["a", "b", "existing", "hold"])
  })
})

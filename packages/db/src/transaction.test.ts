import { Cause, Effect, Exit, Fiber, Layer, Schema } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Database } from "./Database.ts"
import { type FreshDatabase, freshDatabase } from "./testing.ts"
import { atCommit, withTransaction } from "./transaction.ts"

class Refused extends Schema.TaggedError<Refused>()("Refused", { why: Schema.String }) {}

let db: FreshDatabase
let layer: Layer.Layer<Database>
const run = <A, E>(effect: Effect.Effect<A, E, Database>) => Effect.runPromiseExit(Effect.provide(effect, layer))
const names = async () => (await db.sql<Array<{ name: string }>>`select name from t order by name`).map((r) => r.name)
const insert = (name: string) =>
  withTransaction((tx) => Effect.promise(() => tx`insert into t (name) values (${name})`))

beforeAll(async () => {
  db = await freshDatabase()
  await db.sql`create table t (name text primary key)`
  layer = Layer.succeed(Database, { sql: db.sql })
})
afterAll(() => db.close())

describe("withTransaction", () => {
  it("commits what the effect wrote when it succeeds and returns its value", async () => {
    const exit = await run(insert("committed").pipe(Effect.as(42)))
    expect(exit).toEqual(Exit.succeed(42))
    expect(await names()).toContain("committed")
  })

  it("rolls back and keeps the typed error when the effect fails", async () => {
    const exit = await run(
      withTransaction((tx) =>
        Effect.promise(() => tx`insert into t (name) values ('failed')`).pipe(
          Effect.andThen(Effect.fail(new Refused({ why: "no" }))),
        ),
      ),
    )
    expect(Exit.isFailure(exit) && Cause.findErrorOption(exit.cause)).toMatchObject({
      value: { _tag: "Refused", why: "no" },
    })
    expect(await names()).not.toContain("failed")
  })

  it("rolls back when the effect dies", async () => {
    const exit = await run(
      withTransaction((tx) =>
        Effect.promise(() => tx`insert into t (name) values ('died')`).pipe(Effect.andThen(Effect.die("boom"))),
      ),
    )
    expect(Exit.hasDies(exit)).toBe(true)
    expect(await names()).not.toContain("died")
  })

  it("rolls back when the fiber running it is interrupted mid-transaction", async () => {
    let inserted = false
    const fiber = Effect.runFork(
      Effect.provide(
        withTransaction((tx) =>
          Effect.promise(() => tx`insert into t (name) values ('interrupted')`).pipe(
            Effect.andThen(Effect.sync(() => (inserted = true))),
            Effect.andThen(Effect.never),
          ),
        ),
        layer,
      ),
    )
    while (!inserted) await new Promise((r) => setTimeout(r, 5))
    await Effect.runPromise(Fiber.interrupt(fiber))
    expect(await names()).not.toContain("interrupted")
  })

  it("gives the effect the caller's services", async () => {
    const exit = await run(withTransaction(() => Database.use((d) => Effect.succeed(d.sql === db.sql))))
    expect(exit).toEqual(Exit.succeed(true))
  })

  it("sends atCommit statements last, after everything the effect wrote, in the same transaction", async () => {
    const exit = await run(
      withTransaction((tx) =>
        Effect.promise(async () => {
          expect(
            atCommit(
              tx,
              () => tx`insert into t (name) select 'last, after ' || count(*) from t where name like 'before-%'`,
            ),
          ).toBe(true)
          await tx`insert into t (name) values ('before-1'), ('before-2')`
        }),
      ),
    )
    expect(exit).toEqual(Exit.succeed(undefined))
    expect(await names()).toEqual(expect.arrayContaining(["before-1", "before-2", "last, after 2"]))
  })

  it("rolls back everything and dies when an atCommit statement fails", async () => {
    const exit = await run(
      withTransaction((tx) =>
        Effect.promise(async () => {
          await tx`insert into t (name) values ('doomed')`
          atCommit(tx, () => tx`insert into t (name) values ('doomed')`)
        }),
      ),
    )
    expect(Exit.isFailure(exit) && Cause.hasDies(exit.cause)).toBe(true)
    expect(await names()).not.toContain("doomed")
  })

  it("registers nothing outside withTransaction", async () => {
    await db.sql.begin(async (tx) => {
      expect(atCommit(tx, () => tx`select 1`)).toBe(false)
    })
  })
})

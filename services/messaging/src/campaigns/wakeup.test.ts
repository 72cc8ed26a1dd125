import { Database } from "@parley/db"
import { type FreshDatabase, freshDatabase } from "@parley/db/testing"
import { Context, Effect, Exit, Layer, Scope } from "effect"
import postgres from "postgres"
import { afterAll, beforeAll, expect, it } from "vitest"
import { CAMPAIGN_CHANNEL, CampaignWakeup } from "./wakeup.ts"

let db: FreshDatabase
beforeAll(async () => {
  db = await freshDatabase()
})
afterAll(() => db.close())

it("wakes the worker when another instance announces a campaign, long before its poll", async () => {
  const scope = Effect.runSync(Scope.make())
  try {
    const context = await Effect.runPromise(
      Layer.buildWithScope(CampaignWakeup.layer.pipe(Layer.provide(Layer.succeed(Database, { sql: db.sql }))), scope),
    )
    const wakeup = Context.get(context, CampaignWakeup)
    const started = performance.now()
    const woken = wakeup.wait(60_000)
    // Another instance's transaction creating a campaign, on a connection of its own.
    const other = postgres(db.url, { max: 1, onnotice: () => {} })
    await other`select pg_notify(${CAMPAIGN_CHANNEL}, 'cmp_other')`
    await other.end()
    await woken
    expect(performance.now() - started).toBeLessThan(10_000)
  } finally {
    await Effect.runPromise(Scope.close(scope, Exit.void))
  }
})

import { Database } from "@parley/db"
import { type FreshDatabase, freshDatabase } from "@parley/db/testing"
import { Effect, Layer } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Bus } from "./Bus.ts"
import { BusLive } from "./BusLive.ts"

let db: FreshDatabase
beforeAll(async () => {
  db = await freshDatabase()
})
afterAll(() => db.close())

describe("BusLive", () => {
  it("runs the single-node bus in the service's Postgres when no Kafka brokers are configured", async () => {
    const layer = BusLive({ schema: "svc", kafka: { brokers: [], clientId: "svc" } }).pipe(
      Layer.provideMerge(Database.layer({ url: db.url })),
    )
    const seen = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const bus = yield* Bus
          const seen: Array<string> = []
          yield* bus.subscribe({ groupId: "g", topics: ["live"] }, (r) => Effect.sync(() => void seen.push(r.value)))
          yield* bus.publish([{ topic: "live", key: "k", value: "hello" }])
          while (seen.length === 0) yield* Effect.sleep("10 millis")
          return seen
        }),
      ).pipe(Effect.provide(layer), Effect.timeout("10 seconds")),
    )
    expect(seen).toEqual(["hello"])
    const [topic] = await db.sql`select name from parley_bus.topics where name = 'live'`
    expect(topic).toEqual({ name: "live" })
  })
})

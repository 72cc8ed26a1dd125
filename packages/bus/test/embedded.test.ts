import { mkdtemp } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Database, withTransaction } from "@parley/db"
import { Effect, Layer } from "effect"
import { describe, expect, it } from "vitest"
import { Bus, OutboxWriter } from "../src/Bus.ts"
import { SingleNodeBus } from "../src/single-node/SingleNodeBus.ts"

const timings = { heartbeatMs: 100, sessionMs: 2_000 }
const embeddedBus = (dataDir: string) =>
  SingleNodeBus.layer({ timings, partitions: 2 }).pipe(Layer.provideMerge(Database.layer({ dataDir })))

/** Polls inside Effect with a deadline (the layer's scope must stay open while we wait). */
const until = (condition: () => boolean) =>
  Effect.gen(function* () {
    while (!condition()) yield* Effect.sleep("10 millis")
  }).pipe(Effect.timeout("15 seconds"))

describe("the single-node bus on the embedded PostgreSQL server", () => {
  it("chains handlers that append in their own transactions, and keeps offsets across a restart of the server", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "parley-bus-embedded-"))
    const sunk = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const bus = yield* Bus
          const outbox = yield* OutboxWriter
          const database = yield* Database
          const sunk: Array<string> = []
          yield* bus.subscribe({ groupId: "relay", topics: ["in"] }, (r) =>
            withTransaction((tx) => outbox.append(tx, [{ topic: "out", key: r.key, value: `${r.value}!` }])).pipe(
              Effect.provideService(Database, database),
            ),
          )
          yield* bus.subscribe({ groupId: "sink", topics: ["out"] }, (r) => Effect.sync(() => void sunk.push(r.value)))
          yield* bus.publish(Array.from({ length: 20 }, (_, i) => ({ topic: "in", key: `k${i % 5}`, value: `${i}` })))
          yield* until(() => sunk.length >= 20)
          return sunk
        }),
      ).pipe(Effect.provide(embeddedBus(dataDir))),
    )
    expect([...sunk].sort()).toEqual(Array.from({ length: 20 }, (_, i) => `${i}!`).sort())

    // Reopened from disk: the sink group resumes after what it committed, so only the new record.
    const afterRestart = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const bus = yield* Bus
          const seen: Array<string> = []
          yield* bus.publish([{ topic: "out", key: "k", value: "after restart" }])
          yield* bus.subscribe({ groupId: "sink", topics: ["out"] }, (r) => Effect.sync(() => void seen.push(r.value)))
          yield* until(() => seen.length >= 1)
          return seen
        }),
      ).pipe(Effect.provide(embeddedBus(dataDir))),
    )
    expect(afterRestart).toEqual(["after restart"])
  })
})

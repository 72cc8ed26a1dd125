import { Bus, BusError } from "@parley/bus"
import type { KeyId, OrgId } from "@parley/contracts"
import { Effect, Layer } from "effect"
import { describe, expect, it } from "vitest"
import { makeKeyUsageRecorder } from "./key-usage.ts"

// A bus that refuses every publish: the failure the recorder must absorb (the real adapters are
// tested by @parley/bus's contract suite; this plays their error).
const failingBus = Layer.succeed(Bus, {
  publish: () => Effect.fail(new BusError({ operation: "publish", message: "broker down" })),
  subscribe: () => Effect.die("not used"),
})

const workingBus = (published: Array<string>) =>
  Layer.succeed(Bus, {
    publish: (records) =>
      Effect.sync(() => {
        for (const record of records) published.push(record.key)
      }),
    subscribe: () => Effect.die("not used"),
  })

const keyId = (n: number) => `key_${String(n).padStart(22, "A")}` as KeyId
const orgId = `org_${"B".repeat(22)}` as OrgId

describe("the key usage recorder", () => {
  it("survives a failed publish and sends the notes at the next flush", async () => {
    const recorder = makeKeyUsageRecorder()
    recorder.record(keyId(1), orgId)
    recorder.record(keyId(2), orgId)
    await Effect.runPromise(recorder.flush.pipe(Effect.provide(failingBus)))
    expect(recorder.pending).toBe(2)

    const published: Array<string> = []
    await Effect.runPromise(recorder.flush.pipe(Effect.provide(workingBus(published))))
    expect(published.sort()).toEqual([keyId(1), keyId(2)])
    expect(recorder.pending).toBe(0)
  })

  it("notes a key once however often it is used between flushes", async () => {
    const recorder = makeKeyUsageRecorder()
    for (let i = 0; i < 100; i++) recorder.record(keyId(1), orgId)
    const published: Array<string> = []
    await Effect.runPromise(recorder.flush.pipe(Effect.provide(workingBus(published))))
    expect(published).toEqual([keyId(1)])
  })
})

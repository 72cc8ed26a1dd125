/**
 * Listens to a topic as a brand-new consumer group would (from the earliest record), so tests can
 * assert what the registry put on the bus the way the dispatcher receives it.
 */
import { Bus, type BusRecord } from "@parley/bus"
import { newId } from "@parley/platform"
import { Effect, Exit, Scope } from "effect"
import type { RegistryHarness } from "./harness.ts"

export interface Tap {
  /** Every record received so far, in arrival order. */
  readonly records: ReadonlyArray<BusRecord>
  close(): Promise<void>
}

export const tapTopic = async (harness: RegistryHarness, topic: string): Promise<Tap> => {
  const scope = Effect.runSync(Scope.make())
  const records: Array<BusRecord> = []
  await Effect.runPromiseWith(harness.context)(
    Effect.gen(function* () {
      const bus = yield* Bus
      yield* bus.subscribe({ groupId: newId("tap"), topics: [topic] }, (record) =>
        Effect.sync(() => {
          records.push(record)
        }),
      )
    }).pipe(Scope.provide(scope)),
  )
  return { records, close: () => Effect.runPromise(Scope.close(scope, Exit.void)) }
}

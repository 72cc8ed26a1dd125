import { Effect, Exit, Scope } from "effect"
import type { Bus } from "../Bus.ts"
import { type KafkaBusOptions, makeKafkaBus } from "./kafka-bus.ts"
import type { KafkaTestBrokers } from "./testing-broker.ts"

/** Bus options for tests: short sessions and polls so joins, rebalances and resumes are quick. */
export const testBusOptions = (broker: KafkaTestBrokers, clientId: string): KafkaBusOptions => ({
  brokers: broker.brokers,
  clientId,
  idempotent: broker.idempotent,
  sessionTimeoutMs: 3_000,
  heartbeatIntervalMs: 300,
  maxWaitTimeMs: 100,
  commitIntervalMs: 50,
  maxBackoffMs: 400,
  logLevel: "error",
})

export interface ScopedBus {
  readonly bus: Bus["Service"]
  readonly scope: Scope.Closeable
  /** Runs an effect that needs a Scope in this bus's scope (a subscription lives until `close`). */
  readonly run: <A, E>(effect: Effect.Effect<A, E, Scope.Scope>) => Promise<A>
  readonly close: () => Promise<void>
}

export const openBus = async (options: KafkaBusOptions): Promise<ScopedBus> => {
  const scope = await Effect.runPromise(Scope.make())
  const bus = await Effect.runPromise(makeKafkaBus(options).pipe(Scope.provide(scope)))
  return {
    bus,
    scope,
    run: (effect) => Effect.runPromise(effect.pipe(Scope.provide(scope))),
    close: () => Effect.runPromise(Scope.close(scope, Exit.void)),
  }
}

/** Polls `check` until it stops throwing or the deadline passes (then rethrows its last error). */
export const eventually = async <A>(check: () => A | Promise<A>, timeoutMs = 20_000): Promise<A> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      return await check()
    } catch (error) {
      if (Date.now() > deadline) throw error
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
  }
}

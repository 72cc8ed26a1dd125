import type { Database } from "@parley/db"
import { Effect, Exit, Layer, Scope } from "effect"
import {
  Bus,
  type BusRecord,
  type OutboxWriter,
  type OutgoingRecord,
  type SubscribeOptions,
  type Subscription,
} from "../Bus.ts"

/** One bus instance, as if it were a separate process on the shared backend. */
export interface BusContractInstance {
  /** The adapter's services plus the Database its OutboxWriter writes through. */
  readonly layer: Layer.Layer<Bus | OutboxWriter | Database>
  /**
   * Dies abruptly: no commit, no graceful leave (kill its connections, stop its clients). The suite
   * closes the layer's scope afterwards only to free fibers; finalizers may then fail or do nothing.
   */
  crash(): Promise<void>
  /** Releases what `crash` would kill, after the suite closed the layer's scope gracefully. */
  close(): Promise<void>
}

/** The shared backend (one Postgres database, one Kafka cluster) the instances run on. */
export interface BusContractBackend {
  /** Creates a topic with `partitions` partitions before first use. */
  createTopic(name: string, partitions: number): Promise<void>
  /** The group's committed offset (the next offset to read) for a partition, if any. */
  committedOffset(groupId: string, topic: string, partition: number): Promise<bigint | undefined>
  makeInstance(): Promise<BusContractInstance>
  close(): Promise<void>
}

export type Handler = (record: BusRecord) => Effect.Effect<void, unknown>

/** A running instance the suite drives: its layer built in a scope, effects run against it. */
export interface RunningInstance {
  run<A, E>(effect: Effect.Effect<A, E, Bus | OutboxWriter | Database>): Promise<A>
  publish(records: ReadonlyArray<OutgoingRecord>): Promise<void>
  subscribe(options: SubscribeOptions, handle: Handler): Promise<Subscription>
  crash(): Promise<void>
  close(): Promise<void>
}

export const startInstance = async (backend: BusContractBackend): Promise<RunningInstance> => {
  const instance = await backend.makeInstance()
  const scope = Effect.runSync(Scope.make())
  const context = await Effect.runPromise(Layer.buildWithScope(instance.layer, scope))
  let stopped = false
  const run = <A, E>(effect: Effect.Effect<A, E, Bus | OutboxWriter | Database>) =>
    Effect.runPromise(Effect.provideContext(effect, context))
  return {
    run,
    publish: (records) => run(Bus.use((bus) => bus.publish(records))),
    subscribe: (options, handle) => run(Bus.use((bus) => bus.subscribe(options, handle)).pipe(Scope.provide(scope))),
    crash: async () => {
      if (stopped) return
      stopped = true
      await instance.crash()
      await Effect.runPromise(Scope.close(scope, Exit.interrupt()))
    },
    close: async () => {
      if (stopped) return
      stopped = true
      await Effect.runPromise(Scope.close(scope, Exit.void))
      await instance.close()
    },
  }
}

/** Polls `condition` until it holds; fails with `what` after `timeoutMs`. */
export const eventually = async (
  what: string,
  condition: () => boolean | Promise<boolean>,
  options: { timeoutMs?: number; intervalMs?: number } = {},
) => {
  const deadline = Date.now() + (options.timeoutMs ?? 15_000)
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting until ${what}`)
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 20))
  }
}

/** Checks that `condition` keeps holding for `ms` (for "nothing happens while paused"). */
export const holdsFor = async (condition: () => boolean, ms: number) => {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    if (!condition()) return false
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  return condition()
}

export const uniqueName = (prefix: string) =>
  `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`

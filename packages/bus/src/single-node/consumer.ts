import { randomUUID } from "node:crypto"
import { Duration, Effect, Exit, Fiber, Scope } from "effect"
import type postgres from "postgres"
import type { BusRecord, SubscribeOptions, Subscription } from "../Bus.ts"
import {
  type HeartbeatInput,
  leaveGroup,
  type Membership,
  type PartitionRef,
  partitionId,
  releaseLease,
} from "./group.ts"
import { type PartitionWorker, startPartitionWorker } from "./partition-worker.ts"
import type { BusTimings } from "./timings.ts"

interface Running {
  readonly partition: PartitionRef
  readonly worker: PartitionWorker
  releasing: boolean
}

/**
 * One group member: heartbeats, follows the assignment (starting workers for partitions it gains,
 * draining and releasing those it must hand over, abandoning those whose lease it lost), and on
 * scope close drains every worker, commits and leaves the group.
 */
export const runConsumer = (input: {
  readonly sql: postgres.Sql
  readonly timings: BusTimings
  readonly options: SubscribeOptions
  readonly handle: (record: BusRecord) => Effect.Effect<void, unknown>
  /** One heartbeat, shared with the bus's other consumers' (`heartbeats` in group.ts). */
  readonly heartbeat: (input: HeartbeatInput) => Promise<Membership>
  /** True once the process is deemed dead (tests): stop without committing or leaving. */
  readonly crashed: () => boolean
  /**
   * Registers a callback for "records may have arrived on `topic#partition`" (anywhere on `topic`
   * for a bare topic, anywhere at all for undefined); returns the unregister.
   */
  readonly onTopicActivity: (listener: (payload: string | undefined) => void) => () => void
}): Effect.Effect<Subscription, never, Scope.Scope> =>
  Effect.gen(function* () {
    const { sql, timings, options } = input
    const groupId = options.groupId
    const memberId = randomUUID()
    const window = Math.max(1, options.window ?? 16)
    const workers = new Map<string, Running>()
    const workerScope = yield* Scope.make()
    let paused = false

    const stopListening = input.onTopicActivity((payload) => {
      if (payload === undefined) {
        for (const running of workers.values()) running.worker.wake()
        return
      }
      // "topic#partition" wakes that partition's worker; a bare topic (an older process) wakes all.
      const hash = payload.indexOf("#")
      const topic = hash === -1 ? payload : payload.slice(0, hash)
      if (!options.topics.includes(topic)) return
      if (hash !== -1) return workers.get(payload)?.worker.wake()
      for (const running of workers.values()) if (running.partition.topic === topic) running.worker.wake()
    })

    const abandon = (id: string) =>
      Effect.suspend(() => {
        const running = workers.get(id)
        workers.delete(id)
        return running === undefined ? Effect.void : running.worker.stop("abandon")
      })

    const handOver = (id: string, running: Running) =>
      running.worker.stop("drain").pipe(
        Effect.andThen(Effect.promise(() => releaseLease(sql, groupId, memberId, running.partition))),
        Effect.ensuring(Effect.sync(() => workers.get(id) === running && workers.delete(id))),
        Effect.catchCause((cause) => Effect.logWarning("bus: releasing a partition failed", { groupId, cause })),
      )

    const tick = Effect.gen(function* () {
      if (input.crashed()) return
      const membership = yield* Effect.promise(() =>
        input.heartbeat({ groupId, memberId, topics: options.topics, sessionMs: timings.sessionMs }),
      )
      const held = new Set(membership.held.map(partitionId))
      const desired = new Set(membership.desired.map(partitionId))
      for (const id of [...workers.keys()]) if (!held.has(id)) yield* abandon(id)
      for (const partition of membership.held) {
        const id = partitionId(partition)
        const running = workers.get(id)
        if (!desired.has(id)) {
          if (running === undefined) yield* Effect.promise(() => releaseLease(sql, groupId, memberId, partition))
          else if (!running.releasing) {
            running.releasing = true
            yield* Effect.forkIn(handOver(id, running), workerScope)
          }
        } else if (running === undefined) {
          const worker = yield* startPartitionWorker(
            {
              sql,
              groupId,
              memberId,
              partition,
              window,
              timings,
              isPaused: () => paused,
              crashed: input.crashed,
              handle: input.handle,
              onLeaseLost: () => {
                workers.delete(id)
              },
            },
            workerScope,
          )
          workers.set(id, { partition, worker, releasing: false })
        }
      }
    })

    const coordinator = yield* Effect.forkIn(
      Effect.forever(
        tick.pipe(
          Effect.catchCause((cause) => Effect.logWarning("bus: group heartbeat failed", { groupId, cause })),
          // On the bus's grid (multiples of heartbeatMs): its consumers beat together, in one statement.
          Effect.andThen(
            Effect.suspend(() =>
              Effect.sleep(Duration.millis(timings.heartbeatMs - (Date.now() % timings.heartbeatMs))),
            ),
          ),
        ),
      ),
      workerScope,
    )

    yield* Effect.addFinalizer(() =>
      Effect.gen(function* () {
        yield* Fiber.interrupt(coordinator)
        stopListening()
        if (input.crashed()) return yield* Scope.close(workerScope, Exit.void)
        yield* Effect.forEach(
          [...workers.values()],
          (running) =>
            running.worker.stop("drain").pipe(
              Effect.andThen(Effect.promise(() => releaseLease(sql, groupId, memberId, running.partition))),
              Effect.catchCause(() => Effect.void),
            ),
          { concurrency: "unbounded" },
        )
        yield* Effect.promise(() => leaveGroup(sql, groupId, memberId)).pipe(
          // A crashed process never gets here; one whose database is gone just leaves by expiry.
          Effect.catchCause(() => Effect.void),
        )
        yield* Scope.close(workerScope, Exit.void)
      }),
    )

    return {
      pause: Effect.sync(() => {
        paused = true
      }),
      resume: Effect.sync(() => {
        paused = false
        for (const running of workers.values()) running.worker.wake()
      }),
    }
  })

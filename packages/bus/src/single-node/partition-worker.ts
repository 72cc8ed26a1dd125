import { Wakeup } from "@parley/db"
import { Duration, Effect, Exit, Fiber, type Scope } from "effect"
import type postgres from "postgres"
import type { BusRecord } from "../Bus.ts"
import { roomToRefill } from "../window.ts"
import { commitOffset, committedOffset, type PartitionRef } from "./group.ts"
import type { BusTimings } from "./timings.ts"
import { awaitWakeup } from "./wait.ts"

export interface PartitionWorker {
  readonly wake: () => void
  /** "drain": finish in-flight records and commit; "abandon": stop now, commit nothing more. */
  readonly stop: (mode: "drain" | "abandon") => Effect.Effect<void>
}

export interface WorkerInput {
  readonly sql: postgres.Sql
  readonly groupId: string
  readonly memberId: string
  readonly partition: PartitionRef
  readonly window: number
  readonly timings: BusTimings
  readonly isPaused: () => boolean
  readonly crashed: () => boolean
  readonly handle: (record: BusRecord) => Effect.Effect<void, unknown>
  /** Told when a commit finds the lease gone (the group moved on without this member). */
  readonly onLeaseLost: (partition: PartitionRef) => void
}

interface RecordRow {
  readonly offset: bigint
  readonly key: string
  readonly value: string
  readonly headers: Record<string, string>
  readonly created_at: Date
}

/** Records finished behind an unfinished one are remembered up to this many windows' worth. */
const MaxSpanPerWindow = 64

/**
 * Consumes one leased partition: keeps up to `window` records in flight, fetched in batches once
 * `roomToRefill` of the window is free, each handler retried with capped backoff until it
 * succeeds, and commits the lowest unfinished offset (so a stuck record holds the commit, never
 * the records behind it) at most every `commitIntervalMs`, and at once when draining.
 */
export const startPartitionWorker = (input: WorkerInput, scope: Scope.Scope): Effect.Effect<PartitionWorker> =>
  Effect.gen(function* () {
    const { sql, groupId, memberId, partition, timings } = input
    const wakeup = new Wakeup()
    // Records may be waiting in the log: counted up by a wake-up for new records (and the poll), so
    // a handler finishing (which wakes the worker to commit or refill) never costs an empty fetch.
    let arrivals = 1
    let fetchedAfter = 0
    let lastFetchAt = 0
    let stopping = false
    // Woken when a stop begins: a handler waiting to retry gives its record up at once.
    const stopped = new Wakeup()
    // In-flight offsets in ascending order (Map keeps insertion order) → finished?
    const inFlight = new Map<bigint, boolean>()
    // Handlers running (or waiting to retry); a record given up stays unfinished in `inFlight`, so
    // the commit stops before it and the next owner of the partition reads it again.
    let active = 0
    // Records fetched and not finished: what the window bounds. Records finished behind a slow one
    // stay in `inFlight` (the commit cannot pass it) but take no room, so one slow record holds the
    // commit point, never the records behind it — up to a generous bound on that bookkeeping.
    let unfinished = 0

    const handleUntilDone = (record: BusRecord) =>
      Effect.gen(function* () {
        for (let attempt = 0; ; attempt++) {
          const exit = yield* Effect.exit(Effect.suspend(() => input.handle(record)))
          if (Exit.isSuccess(exit)) {
            unfinished--
            break
          }
          const delay = Math.min(timings.retryBaseMs * 2 ** attempt, timings.retryMaxMs)
          yield* Effect.logWarning("bus handler failed; retrying", {
            groupId,
            topic: record.topic,
            partition: record.partition,
            offset: record.offset.toString(),
            attempt: attempt + 1,
            retryInMs: delay,
            cause: exit.cause,
          })
          // A stop does not wait out a failing handler's backoff (up to retryMaxMs): the record is
          // given up uncommitted, as a crash would leave it.
          if (stopping) return
          yield* awaitWakeup(stopped, delay)
          if (stopping) return
        }
        inFlight.set(record.offset, true)
      }).pipe(
        Effect.ensuring(
          Effect.sync(() => {
            active--
            wakeup.notify()
          }),
        ),
      )

    const consume = Effect.gen(function* () {
      // Read inside the retried step, so a failed first read is retried like any other.
      let committed: bigint | undefined
      let nextFetch = 0n
      // Commits are spaced (a transaction each): a partition finishing records one by one would
      // otherwise commit once per record. `commitDue` is when a held-back commit goes out.
      let lastCommitAt = 0
      let commitDue: number | undefined
      const commit = Effect.gen(function* () {
        if (committed === undefined) {
          committed = yield* Effect.promise(() => committedOffset(sql, groupId, partition))
          nextFetch = committed
        }
        for (const [offset, done] of inFlight) {
          if (!done) break
          inFlight.delete(offset)
        }
        const point = inFlight.keys().next().value ?? nextFetch
        commitDue = undefined
        if (point <= committed) return true
        if (input.crashed()) return false
        const now = Date.now()
        if (!stopping && now - lastCommitAt < timings.commitIntervalMs) {
          commitDue = lastCommitAt + timings.commitIntervalMs
          return true
        }
        lastCommitAt = now
        const held = yield* Effect.promise(() => commitOffset(sql, { groupId, memberId, partition, next: point }))
        if (held) committed = point
        return held
      })
      const step = Effect.gen(function* () {
        if (!(yield* commit)) {
          input.onLeaseLost(partition)
          return "stop" as const
        }
        if (stopping && active === 0) return "stop" as const
        const room = Math.min(input.window - unfinished, input.window * MaxSpanPerWindow - inFlight.size)
        if (stopping || input.isPaused() || room < roomToRefill(input.window)) return "wait" as const
        // The fallback poll, when configured (none by default).
        if (Date.now() - lastFetchAt >= timings.pollMs) arrivals++
        if (fetchedAfter === arrivals) return "wait" as const
        const seen = arrivals
        lastFetchAt = Date.now()
        const rows = yield* Effect.promise(
          () => sql<Array<RecordRow>>`
            select "offset", key, value, headers, created_at from parley_bus.records
            where topic = ${partition.topic} and partition = ${partition.partition} and "offset" >= ${nextFetch.toString()}::bigint
            order by "offset" limit ${room}`,
        )
        for (const row of rows) {
          inFlight.set(row.offset, false)
          unfinished++
          nextFetch = row.offset + 1n
          const record: BusRecord = {
            topic: partition.topic,
            partition: partition.partition,
            offset: row.offset,
            key: row.key,
            value: row.value,
            headers: row.headers,
            timestamp: row.created_at,
          }
          active++
          yield* Effect.forkChild(handleUntilDone(record))
        }
        if (rows.length === room) return "again" as const
        // Caught up with everything appended before `seen`; a later wake-up fetches again.
        fetchedAfter = seen
        return "wait" as const
      })
      let failures = 0
      while (true) {
        const next = yield* step.pipe(
          Effect.catchCause((cause) =>
            Effect.logWarning("bus partition worker failed; retrying", { groupId, ...partition, cause }).pipe(
              Effect.as("failed" as const),
            ),
          ),
        )
        if (next === "stop") return
        failures = next === "failed" ? failures + 1 : 0
        if (next === "again") continue
        const pollMs = failures > 0 ? Math.min(timings.retryBaseMs * 2 ** failures, 10_000) : timings.pollMs
        yield* awaitWakeup(
          wakeup,
          commitDue === undefined ? pollMs : Math.max(0, Math.min(pollMs, commitDue - Date.now())),
        )
      }
    })

    const fiber = yield* Effect.forkIn(consume, scope)
    return {
      wake: () => {
        arrivals++
        wakeup.notify()
      },
      stop: (mode) =>
        Effect.gen(function* () {
          if (mode === "abandon") return yield* Fiber.interrupt(fiber)
          stopping = true
          stopped.notify()
          wakeup.notify()
          const finished = yield* Effect.timeoutOption(
            Effect.exit(Fiber.join(fiber)),
            Duration.millis(timings.drainTimeoutMs),
          )
          if (finished._tag === "None") yield* Fiber.interrupt(fiber)
        }),
    }
  })

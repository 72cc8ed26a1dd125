import { Wakeup } from "@parley/db"
import { Duration, Effect, Exit, Fiber, type Scope } from "effect"
import type postgres from "postgres"
import type { BusRecord } from "../Bus.ts"
import { roomToRefill } from "../window.ts"
import { commitOffset, committedOffset, type PartitionRef } from "./group.ts"
import type { AppendedBatch, LogHandoff } from "./handoff.ts"
import type { BusTimings } from "./timings.ts"
import { awaitWakeup } from "./wait.ts"

export interface PartitionWorker {
  /**
   * Records may have arrived. With `end` (a NOTIFY's "topic#partition#end"), those before `end`
   * have: a worker that already holds them (handed over in this process) does not fetch.
   */
  readonly wake: (end?: bigint) => void
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
  /** Where this process's appenders offer records they have committed to the log. */
  readonly handoff: LogHandoff
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
 *
 * Records reach it two ways. Fetched after a wake-up; or handed over by an appender in this process
 * once its append has committed (`handoff`): taken only when they continue exactly where the
 * worker has read to and the window has room, and never while a fetch is out (it may return the
 * same records) — otherwise ignored, and fetched after the append's NOTIFY like any other.
 */
export const startPartitionWorker = (input: WorkerInput, scope: Scope.Scope): Effect.Effect<PartitionWorker> =>
  Effect.gen(function* () {
    const { sql, groupId, memberId, partition, timings } = input
    const wakeup = new Wakeup()
    // Records may be waiting in the log: counted up by a wake-up for new records (and the poll), so
    // a handler finishing (which wakes the worker to commit or refill) never costs an empty fetch.
    let arrivals = 1
    let fetchedAfter = 0
    // The highest `end` a NOTIFY named: records before it are in the log. Beyond `nextFetch`, they
    // are to be fetched; at or below it, this worker already holds them (no fetch).
    let announcedEnd = 0n
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
    // The committed offset once read, and the next offset to read: fetched or handed over, every
    // record below it is this worker's. Unknown (undefined) until the first step reads it.
    let committed: bigint | undefined
    let nextFetch = 0n
    // A fetch is out: a batch offered now may be among what it returns.
    let fetching = false
    // Records admitted (fetched or taken from an offer) whose handlers the consume loop has yet to
    // start, in offset order: both ways append here, and handlers start from the front.
    const admitted: Array<BusRecord> = []

    const room = () => Math.min(input.window - unfinished, input.window * MaxSpanPerWindow - inFlight.size)

    /** Reserves a record's place in the window and the commit order, as it arrives in order. */
    const admit = (record: BusRecord) => {
      inFlight.set(record.offset, false)
      unfinished++
      active++
      nextFetch = record.offset + 1n
      admitted.push(record)
    }

    // The window's bound holds for handed-over records as for fetched ones; the refill threshold
    // does not (it spaces fetches, and an offer costs none). A batch only partly fitting gives its
    // prefix; the rest is fetched after the NOTIFY, which names the batch's end.
    const take = (batch: AppendedBatch): number => {
      if (committed === undefined || fetching || stopping || input.isPaused() || input.crashed()) return 0
      if (batch.first !== nextFetch) return 0
      const count = Math.min(batch.keys.length, room())
      for (let i = 0; i < count; i++) {
        admit({
          topic: partition.topic,
          partition: partition.partition,
          offset: batch.first + BigInt(i),
          key: batch.keys[i] as string,
          value: batch.values[i] as string,
          // Every group's worker gets its own headers: a handler may change the object it is given.
          headers: { ...batch.headers[i] },
          timestamp: batch.timestamp,
        })
      }
      if (count > 0) wakeup.notify()
      return Math.max(0, count)
    }

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

    // Handlers start in offset order: records taken from an offer while a commit was out wait in
    // `admitted` ahead of the records fetched after it.
    const startAdmitted = Effect.suspend(() =>
      Effect.forEach(admitted.splice(0), (record) => Effect.forkChild(handleUntilDone(record)), { discard: true }),
    )

    const consume = Effect.gen(function* () {
      // Commits are spaced (a transaction each): a partition finishing records one by one would
      // otherwise commit once per record. `commitDue` is when a held-back commit goes out.
      let lastCommitAt = 0
      let commitDue: number | undefined
      const commit = Effect.gen(function* () {
        // Read inside the retried step, so a failed first read is retried like any other.
        if (committed === undefined) {
          const read = yield* Effect.promise(() => committedOffset(sql, groupId, partition))
          nextFetch = read
          committed = read
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
        // Before the commit, which fails while Postgres is down: handed-over records need no query.
        yield* startAdmitted
        if (!(yield* commit)) {
          input.onLeaseLost(partition)
          return "stop" as const
        }
        if (stopping && active === 0) return "stop" as const
        const free = room()
        if (stopping || input.isPaused() || free < roomToRefill(input.window)) return "wait" as const
        // The fallback poll, when configured (none by default).
        if (Date.now() - lastFetchAt >= timings.pollMs) arrivals++
        if (fetchedAfter === arrivals && announcedEnd <= nextFetch) return "wait" as const
        const seen = arrivals
        lastFetchAt = Date.now()
        fetching = true
        const fetched = yield* Effect.exit(
          Effect.promise(
            () => sql<Array<RecordRow>>`
            select "offset", key, value, headers, created_at from parley_bus.records
            where topic = ${partition.topic} and partition = ${partition.partition} and "offset" >= ${nextFetch.toString()}::bigint
            order by "offset" limit ${free}`,
          ),
        )
        // Every fetched record is admitted before an offer can be taken again, so none is both.
        const rows = Exit.isSuccess(fetched) ? fetched.value : []
        for (const row of rows) {
          admit({
            topic: partition.topic,
            partition: partition.partition,
            offset: row.offset,
            key: row.key,
            value: row.value,
            headers: row.headers,
            timestamp: row.created_at,
          })
        }
        fetching = false
        if (Exit.isFailure(fetched)) return yield* Effect.failCause(fetched.cause)
        yield* startAdmitted
        if (rows.length === free) return "again" as const
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

    const unregister = input.handoff.register(partition, take)
    const fiber = yield* Effect.forkIn(consume.pipe(Effect.ensuring(Effect.sync(unregister))), scope)
    return {
      wake: (end) => {
        if (end === undefined) arrivals++
        else {
          if (end > announcedEnd) announcedEnd = end
          // Everything before `end` already taken (handed over, or fetched since): nothing to fetch.
          if (committed !== undefined && end <= nextFetch) return
        }
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

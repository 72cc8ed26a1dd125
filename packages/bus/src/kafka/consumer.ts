import { setTimeout as sleep } from "node:timers/promises"
import { Cause, type Context, Effect, Exit } from "effect"
import type { Consumer, EachBatchPayload } from "kafkajs"
import type { BusRecord, SubscribeOptions } from "../Bus.ts"
import { type KafkaClientOptions, makeKafka } from "./client.ts"
import { PartitionWindow } from "./partition-window.ts"
import { toRecord } from "./records.ts"

export interface ConsumerTuning {
  /** Group session timeout; short in tests so rebalances are quick. Default 30 s. */
  readonly sessionTimeoutMs?: number
  /** Default: a tenth of the session timeout. */
  readonly heartbeatIntervalMs?: number
  /** Longest fetch long-poll, and so the longest wait before a resumed partition is fetched again. */
  readonly maxWaitTimeMs?: number
  /** Cap of the retry backoff of a failing handler. Default 5 s. */
  readonly maxBackoffMs?: number
  /** How long finished offsets may wait before they are committed. Default 200 ms. */
  readonly commitIntervalMs?: number
  /** How long shutdown waits for running handlers before it commits what finished. Default 30 s. */
  readonly drainTimeoutMs?: number
}

export interface RunningConsumer {
  readonly pause: () => void
  readonly resume: () => void
  /** Graceful: finish what runs (up to the drain timeout), commit, leave the group. */
  readonly stop: () => Promise<void>
  /** Abrupt, like a killed process: interrupt handlers and disconnect without committing. */
  readonly abort: () => Promise<void>
}

interface Assigned {
  readonly topic: string
  readonly partition: number
  readonly window: PartitionWindow
}

/**
 * A consumer-group member that hands each partition's records to `handle` with up to `window` of
 * them in flight. kafkajs delivers batches; each record is started in the background and resolved
 * (so the next fetch reads past it), and a partition whose window is full is paused until a batch's
 * worth of it is free again (`roomToRefill`): resumed at the first free slot, every fetch would
 * decode a whole batch to start one record. Commits go up to the lowest unfinished offset, so a slow or failing record is redelivered
 * after a crash or rebalance while the records behind it are not held up.
 */
export const startConsumer = async (
  client: KafkaClientOptions & ConsumerTuning,
  subscription: SubscribeOptions,
  handle: (record: BusRecord) => Effect.Effect<void, unknown>,
  context: Context.Context<never>,
): Promise<RunningConsumer> => {
  const sessionTimeout = client.sessionTimeoutMs ?? 30_000
  const windowSize = subscription.window ?? 16
  const maxBackoffMs = client.maxBackoffMs ?? 5_000
  const commitIntervalMs = client.commitIntervalMs ?? 200
  const log = (effect: Effect.Effect<void>) => Effect.runForkWith(context)(effect)

  const topicsOnly = subscription.topics.map((topic) => ({ topic }))
  // The current group member. kafkajs gives up on non-retriable errors (librdkafka's mock answers
  // some late SyncGroups with INVALID_REQUEST); then a fresh member replaces it.
  let consumer: Consumer | undefined
  // Pause/resume throw before `run` has set the member up (while a replacement starts): skip then,
  // the replacement applies the user's pause itself.
  const tryOn = (f: (c: Consumer) => void) => {
    try {
      if (consumer !== undefined) f(consumer)
    } catch {}
  }
  let epoch = 0
  let assigned = new Map<string, Assigned>()
  const windowPaused = new Set<string>()
  let userPaused = false
  let stopping = false
  let stopped = false
  const stopSignal = new AbortController()
  // Interrupts running handlers: on abort, or when a graceful stop's drain timeout runs out.
  const interruptHandlers = new AbortController()
  let running = 0
  let drained: (() => void) | undefined

  let commitTimer: ReturnType<typeof setTimeout> | undefined
  let committing: Promise<void> = Promise.resolve()
  const commitNow = (): Promise<void> => {
    committing = committing.then(async () => {
      const pending = [...assigned.values()].flatMap((a) => {
        const offset = a.window.pendingCommit()
        return offset === undefined ? [] : [{ ...a, offset }]
      })
      if (pending.length === 0) return
      try {
        await consumer?.commitOffsets(
          pending.map((p) => ({ topic: p.topic, partition: p.partition, offset: p.offset.toString() })),
        )
        for (const p of pending) p.window.committed(p.offset)
      } catch (error) {
        // Usually a rebalance; the new owner re-reads from the last commit (at least once).
        log(Effect.logDebug("kafka commit failed", { groupId: subscription.groupId, error: String(error) }))
        if (!stopping) scheduleCommit()
      }
    })
    return committing
  }
  const scheduleCommit = () => {
    if (commitTimer !== undefined) return
    commitTimer = setTimeout(() => {
      commitTimer = undefined
      void commitNow()
    }, commitIntervalMs)
  }

  const resumePartition = (key: string, a: Assigned) => {
    windowPaused.delete(key)
    if (!userPaused) tryOn((c) => c.resume([{ topic: a.topic, partitions: [a.partition] }]))
  }

  const dispatch = async (key: string, a: Assigned, record: BusRecord, myEpoch: number) => {
    running++
    try {
      for (let attempt = 1; ; attempt++) {
        const exit = await Effect.runPromiseExitWith(context)(
          Effect.suspend(() => handle(record)),
          { signal: interruptHandlers.signal },
        )
        if (Exit.isSuccess(exit)) {
          a.window.finish(record.offset)
          if (myEpoch === epoch) {
            scheduleCommit()
            if (windowPaused.has(key) && a.window.roomToResume) resumePartition(key, a)
          }
          return
        }
        // Shutting down or partition revoked: leave it unfinished, so nobody commits past it (a
        // handler interrupted by the stop did not fail: nothing to warn about).
        if (stopping || myEpoch !== epoch) return
        const delay = Math.min(100 * 2 ** (attempt - 1), maxBackoffMs)
        log(
          Effect.logWarning("bus handler failed; retrying", {
            groupId: subscription.groupId,
            topic: record.topic,
            partition: record.partition,
            offset: record.offset.toString(),
            attempt,
            retryInMs: delay,
            cause: Cause.pretty(exit.cause),
          }),
        )
        await sleep(delay, undefined, { signal: stopSignal.signal }).catch(() => undefined)
        if (stopping || myEpoch !== epoch) return
      }
    } finally {
      running--
      if (running === 0) drained?.()
    }
  }

  const eachBatch = async ({ batch, resolveOffset, isRunning, isStale }: EachBatchPayload) => {
    const { topic, partition } = batch
    const key = `${topic}:${partition}`
    const myEpoch = epoch
    let a = assigned.get(key)
    if (a === undefined) {
      a = { topic, partition, window: new PartitionWindow(windowSize) }
      assigned.set(key, a)
    }
    for (const message of batch.messages) {
      if (stopping || myEpoch !== epoch || !isRunning() || isStale()) return
      const offset = BigInt(message.offset)
      const next = a.window.next
      if (next !== undefined && offset < next) continue
      if (a.window.full) {
        windowPaused.add(key)
        tryOn((c) => c.pause([{ topic, partitions: [partition] }]))
        return
      }
      a.window.start(offset)
      resolveOffset(message.offset)
      void dispatch(key, a, toRecord(topic, partition, message), myEpoch)
    }
  }

  const launch = async (): Promise<void> => {
    const c = makeKafka(client, context, `consumer-${subscription.groupId}`).consumer({
      groupId: subscription.groupId,
      sessionTimeout,
      rebalanceTimeout: sessionTimeout,
      heartbeatInterval: client.heartbeatIntervalMs ?? Math.max(100, Math.floor(sessionTimeout / 10)),
      maxWaitTimeInMs: client.maxWaitTimeMs ?? 500,
      allowAutoTopicCreation: false,
    })
    consumer = c
    epoch++
    assigned = new Map()
    windowPaused.clear()
    // A rebalance hands partitions around: commit what is done while this generation may still,
    // then start the new assignment with fresh bookkeeping (records still running are redelivered).
    c.on(c.events.REBALANCING, () => {
      if (c === consumer) void commitNow()
    })
    c.on(c.events.GROUP_JOIN, () => {
      if (c !== consumer) return
      epoch++
      for (const key of windowPaused) {
        const a = assigned.get(key)
        if (a !== undefined && !userPaused) tryOn((m) => m.resume([{ topic: a.topic, partitions: [a.partition] }]))
      }
      windowPaused.clear()
      assigned = new Map()
    })
    c.on(c.events.CRASH, (event) => {
      const replace = c === consumer && !event.payload.restart && !stopping
      log(
        Effect.logWarning("kafka consumer crashed", {
          groupId: subscription.groupId,
          error: String(event.payload.error),
          restartedBy: event.payload.restart ? "kafkajs" : replace ? "a new member" : "nobody (stopping)",
        }),
      )
      if (replace) void replaceMember()
    })
    await c.connect()
    try {
      await c.subscribe({ topics: [...subscription.topics], fromBeginning: true })
      await c.run({ autoCommit: false, eachBatchAutoResolve: false, eachBatch })
      if (userPaused) c.pause(topicsOnly)
    } catch (error) {
      await c.disconnect().catch(() => undefined)
      throw error
    }
    if (stopping) await c.disconnect().catch(() => undefined)
  }

  let replacing = false
  const replaceMember = async () => {
    if (replacing) return
    replacing = true
    for (let attempt = 1; !stopping; attempt++) {
      await sleep(Math.min(200 * 2 ** (attempt - 1), 5_000), undefined, { signal: stopSignal.signal }).catch(() => {})
      if (stopping) break
      try {
        await launch()
        break
      } catch (error) {
        log(
          Effect.logWarning("kafka consumer could not rejoin; retrying", {
            groupId: subscription.groupId,
            error: String(error),
          }),
        )
      }
    }
    replacing = false
  }

  await launch()

  return {
    pause: () => {
      userPaused = true
      tryOn((c) => c.pause(topicsOnly))
    },
    resume: () => {
      userPaused = false
      // A topic-wide resume also clears partition pauses: re-pause the partitions whose window is full.
      tryOn((c) => c.resume(topicsOnly))
      for (const key of windowPaused) {
        const a = assigned.get(key)
        if (a !== undefined) tryOn((c) => c.pause([{ topic: a.topic, partitions: [a.partition] }]))
      }
    },
    stop: async () => {
      if (stopped) return
      stopped = true
      stopping = true
      stopSignal.abort()
      if (commitTimer !== undefined) clearTimeout(commitTimer)
      tryOn((c) => c.pause(topicsOnly))
      if (running > 0) {
        const drainTimeout = new AbortController()
        await Promise.race([
          new Promise<void>((resolve) => {
            drained = resolve
          }),
          sleep(client.drainTimeoutMs ?? 30_000, undefined, { signal: drainTimeout.signal }).catch(() => {}),
        ])
        drainTimeout.abort()
        interruptHandlers.abort()
      }
      await commitNow()
      await consumer?.disconnect()
    },
    abort: async () => {
      if (stopped) return
      stopped = true
      stopping = true
      stopSignal.abort()
      interruptHandlers.abort()
      if (commitTimer !== undefined) clearTimeout(commitTimer)
      await consumer?.disconnect().catch(() => undefined)
    },
  }
}

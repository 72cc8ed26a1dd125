/**
 * The shared limiter: the sliding-window script, against the Redis all gateway instances use, run
 * once per subject and turn of the event loop for the requests of that subject read in the turn. Redis being unreachable must not take the API down (docs/contract.md §3), nor
 * slow it: the client fails fast (no offline queue, a 250 ms command timeout), and a circuit breaker
 * opens on the first failure — a refused connection or a command that timed out (a hung Redis
 * accepts connections and never answers) — so that from then on every request is answered by the
 * per-instance in-memory limiter at once, without touching Redis. While the breaker is open a
 * background probe PINGs Redis every 200 ms; the first answer closes it, and requests count in
 * Redis again. No request pays a timeout to find out whether Redis is back: the libraries of the
 * field (opossum, cockatiel) let one live call through when half-open, which against a hung Redis
 * costs that request the whole timeout, and here the probe is one line. Each switch is logged once
 * and shown by the `parley_gateway_rate_limiter_fallback` gauge and in `/health/ready`'s body.
 *
 * A command sent to a Redis that then hangs may still run when it resumes (it was in its socket):
 * that request is then counted in both places, once.
 */
import { randomBytes } from "node:crypto"
import type { ParleyLogger } from "@parley/platform"
import { Redis, type Result } from "ioredis"
import type { MemoryRateLimiter } from "./memory-limiter.ts"
import {
  decide,
  type LimitState,
  type RateDecision,
  type RateLimiter,
  type RateLimits,
  type RateRequest,
} from "./policy.ts"
import { SLIDING_WINDOW_SCRIPT } from "./sliding-window.lua.ts"

export interface RedisRateLimiterOptions {
  readonly redisUrl: string
  readonly limits: RateLimits
  /** Prefix of every Redis key (tests use a unique one). */
  readonly keyPrefix: string
  readonly fallback: MemoryRateLimiter
  readonly logger: ParleyLogger
  /** Called with true when the fallback takes over, false when Redis is back. */
  readonly onFallbackChange: (active: boolean) => void
  /** Milliseconds a command may take before the request falls back and the breaker opens (default 250). */
  readonly commandTimeoutMs?: number
  /** How often an open breaker probes Redis (default 200 ms). */
  readonly probeIntervalMs?: number
}

export interface RedisRateLimiter extends RateLimiter {
  readonly redis: Redis
  readonly usingFallback: boolean
  /** Resolves once connected, or after `timeoutMs` (Redis down at start: the fallback serves). */
  connected(timeoutMs: number): Promise<boolean>
  close(): Promise<void>
}

type ScriptReply = Array<number>

/** A request counted in Redis at the end of this turn (see `waiting`). */
interface Waiting {
  readonly request: RateRequest
  readonly resolve: (decision: RateDecision) => void
}

// ioredis's documented way to type a command added by `defineCommand` (below): augment its commander.
declare module "ioredis" {
  interface RedisCommander<Context> {
    parleyRateLimit(...args: Array<string | number>): Result<ScriptReply, Context>
  }
}

class CommandTimedOut extends Error {
  constructor(ms: number) {
    super(`Redis did not answer within ${ms} ms`)
    this.name = "CommandTimedOut"
  }
}

/**
 * `command`, or a CommandTimedOut after `ms`. The verdict waits for the event loop's next check
 * phase (setImmediate), after the poll phase has read the sockets: when the process itself was
 * stalled (a loaded host, a long GC) past the deadline, an answer Redis sent in time is read and
 * wins, instead of the stall passing for a hung Redis and opening the breaker. (ioredis's own
 * `commandTimeout` decides in the timers phase, before the socket is read.)
 */
export const withDeadline = <A>(command: Promise<A>, ms: number): Promise<A> =>
  new Promise<A>((resolve, reject) => {
    let settled = false
    const timer = setTimeout(
      () =>
        setImmediate(() => {
          if (settled) return
          settled = true
          reject(new CommandTimedOut(ms))
        }),
      ms,
    )
    command.then(
      (value) => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        resolve(value)
      },
      (error: unknown) => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        reject(error)
      },
    )
  })

export const makeRedisRateLimiter = (options: RedisRateLimiterOptions): RedisRateLimiter => {
  const { limits, logger } = options
  const timeoutMs = options.commandTimeoutMs ?? 250
  const redis = new Redis(options.redisUrl, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    // A backstop only: `withDeadline` below decides when a command is late.
    commandTimeout: timeoutMs * 10,
    connectTimeout: 1_000,
    // No auto-pipelining: the limiter batches a turn's requests itself and writes them at once
    // (see `flush`); ioredis's auto-pipeline would hold that write for one more turn of the event
    // loop (it defers with setImmediate, called from our own setImmediate) and build a Pipeline
    // object for the one command.
    enableAutoPipelining: false,
    // Keep trying forever, at most every second, so the limiter returns to Redis on its own.
    retryStrategy: (attempt) => Math.min(attempt * 100, 1_000),
  })
  redis.defineCommand("parleyRateLimit", { lua: SLIDING_WINDOW_SCRIPT })
  // ioredis emits connection errors as events; without a listener they would crash the process.
  redis.on("error", () => {})

  // The breaker: open while Redis is unreachable, unanswering or not yet known to answer.
  let open = false
  let closed = false
  let probing: ReturnType<typeof setTimeout> | undefined
  let sequence = 0
  // Each counted request is a member of the subject's sorted sets, so it must be unique among all
  // the gateways' and across restarts: 72 random bits per limiter. Not the instance id, which a
  // deployment may fix (a restart would then reuse members still in the window, and a ZADD of an
  // existing member counts nothing), and which, a UUID, made every member ~45 bytes: Redis hashes,
  // compares and stores each one, and under the benchmark's raised limit holds a minute of them.
  const processTag = `${randomBytes(9).toString("base64url")}:`

  const setOpen = (next: boolean, reason?: unknown) => {
    if (next === open) return
    open = next
    if (open) {
      logger.warn(
        { err: reason instanceof Error ? { message: reason.message } : undefined },
        "rate limiter: Redis unreachable, counting in memory on this instance",
      )
    } else logger.info("rate limiter: Redis reachable again, counting in Redis")
    options.onFallbackChange(open)
  }

  const probe = () => {
    if (probing !== undefined || closed) return
    probing = setTimeout(async () => {
      try {
        if (redis.status === "ready" && (await withDeadline(redis.ping(), timeoutMs)) === "PONG") setOpen(false)
      } catch {
        // Still down or hung: the next probe tries again.
      } finally {
        probing = undefined
        if (open) probe()
      }
    }, options.probeIntervalMs ?? 200)
    probing.unref?.()
  }

  const trip = (reason: unknown) => {
    if (closed) return
    setOpen(true, reason)
    probe()
  }

  redis.on("close", () => trip(new Error("connection closed")))
  redis.on("ready", () => probe())

  const keyOf = (subject: string, limit: string) => `${options.keyPrefix}{${subject}}:${limit}`

  /**
   * Requests waiting for the end of this turn of the event loop, by subject. Each subject's are
   * decided by one script call (`SLIDING_WINDOW_SCRIPT`), in the order they were read, once the
   * event loop has read every request ready in the turn (its check phase): one command, one reply
   * and one promise per subject and turn instead of per request, and the answers then leave
   * together. One EVALSHA per request was most of what the limiter cost `npm start` and Redis
   * (test/bench/gateway, issue #28).
   */
  let waiting = new Map<string, Array<Waiting>>()
  let flushScheduled = false

  const decideInMemory = (batch: ReadonlyArray<Waiting>) => {
    for (const one of batch) void options.fallback.check(one.request).then(one.resolve)
  }

  /** The script's arguments for one subject's batch (see `SLIDING_WINDOW_SCRIPT`). */
  const argsOf = (subject: string, batch: ReadonlyArray<Waiting>): Array<string | number> => {
    const heavy = batch.some((one) => one.request.heavy)
    const keys = heavy ? [keyOf(subject, "general"), keyOf(subject, "heavy")] : [keyOf(subject, "general")]
    const args: Array<string | number> = [
      keys.length,
      ...keys,
      limits.windowMs,
      limits.generalPerWindow,
      limits.heavyPerWindow,
      batch.length,
    ]
    sequence = (sequence + 1) % Number.MAX_SAFE_INTEGER
    let heavyFlags = ""
    for (const one of batch) heavyFlags += one.request.heavy ? "1" : "0"
    // Unique across processes (`processTag`), batches (the sequence) and within the batch (the
    // script appends each request's place).
    args.push(`${processTag}${sequence.toString(36)}:`, heavyFlags)
    return args
  }

  /** Resolves each request of a batch from the script's reply, or from memory if there is none. */
  const settle = (batch: ReadonlyArray<Waiting>, reply: unknown, error: unknown) => {
    if (error === null && !Array.isArray(reply)) {
      error = new Error("the rate-limit script answered something other than a list")
    }
    if (error !== null || !Array.isArray(reply)) {
      trip(error)
      return decideInMemory(batch)
    }
    let at = 0
    for (const one of batch) {
      const allowed = Number(reply[at]) === 1
      const states: Array<LimitState> = []
      for (let k = 0; k < (one.request.heavy ? 2 : 1); k++) {
        states.push({ limit: Number(reply[at + 1]), remaining: Number(reply[at + 2]), resetMs: Number(reply[at + 3]) })
        at += 3
      }
      at += 1
      one.resolve(decide(states, allowed))
    }
  }

  const send = async (subject: string, batch: ReadonlyArray<Waiting>) => {
    try {
      settle(batch, await withDeadline(redis.parleyRateLimit(...argsOf(subject, batch)), timeoutMs), null)
    } catch (error) {
      settle(batch, undefined, error)
    }
  }

  /** Several subjects in one turn: their scripts go out in one write (an explicit pipeline). */
  const sendAll = async (batches: ReadonlyArray<[string, ReadonlyArray<Waiting>]>) => {
    const pipeline = redis.pipeline()
    for (const [subject, batch] of batches) pipeline.parleyRateLimit(...argsOf(subject, batch))
    let results: Array<[Error | null, unknown]> | null
    try {
      results = await withDeadline(pipeline.exec(), timeoutMs)
    } catch (error) {
      for (const [, batch] of batches) settle(batch, undefined, error)
      return
    }
    batches.forEach(([, batch], i) => {
      const [error, reply] = results?.[i] ?? [new Error("no reply for the rate-limit script"), undefined]
      settle(batch, reply, error)
    })
  }

  const flush = () => {
    flushScheduled = false
    const due = waiting
    waiting = new Map()
    if (due.size === 1) for (const [subject, batch] of due) void send(subject, batch)
    else void sendAll([...due])
  }

  return {
    redis,
    get usingFallback() {
      return open || redis.status !== "ready"
    },
    check: (request: RateRequest): Promise<RateDecision> => {
      if (open) return options.fallback.check(request)
      if (redis.status !== "ready") {
        trip(new Error(`connection ${redis.status}`))
        return options.fallback.check(request)
      }
      return new Promise((resolve) => {
        const batch = waiting.get(request.subject)
        if (batch === undefined) waiting.set(request.subject, [{ request, resolve }])
        else batch.push({ request, resolve })
        if (!flushScheduled) {
          flushScheduled = true
          setImmediate(flush)
        }
      })
    },
    connected: (timeoutMs) =>
      new Promise<boolean>((resolve) => {
        if (redis.status === "ready") return resolve(true)
        const timer = setTimeout(() => {
          redis.removeListener("ready", onReady)
          resolve(false)
        }, timeoutMs)
        const onReady = () => {
          clearTimeout(timer)
          resolve(true)
        }
        redis.once("ready", onReady)
      }),
    close: async () => {
      closed = true
      if (probing !== undefined) clearTimeout(probing)
      redis.disconnect()
    },
  }
}

/**
 * The shared limiter: one EVALSHA of the sliding-window script per request, against the Redis all
 * gateway instances use. Redis being unreachable must not take the API down (CONTRACT.md §3): the
 * client fails fast (no offline queue, a short command timeout) and the request is answered by the
 * per-instance in-memory limiter instead; the switch is logged once each way and shown by the
 * `parley_gateway_rate_limiter_fallback` gauge. ioredis keeps reconnecting in the background, and
 * the first request after it is ready again goes back to Redis.
 */
import type { ParleyLogger } from "@parley/platform"
import { Redis } from "ioredis"
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
  /** Makes the per-request log member unique across instances. */
  readonly instanceId: string
  readonly fallback: MemoryRateLimiter
  readonly logger: ParleyLogger
  /** Called with true when the fallback takes over, false when Redis is back. */
  readonly onFallbackChange: (active: boolean) => void
  /** Milliseconds a command may take before the request falls back (default 250). */
  readonly commandTimeoutMs?: number
}

export interface RedisRateLimiter extends RateLimiter {
  readonly redis: Redis
  readonly usingFallback: boolean
  /** Resolves once connected, or after `timeoutMs` (Redis down at start: the fallback serves). */
  connected(timeoutMs: number): Promise<boolean>
  close(): Promise<void>
}

type ScriptReply = Array<number>

interface ScriptedRedis {
  parleyRateLimit(...args: Array<string | number>): Promise<ScriptReply>
}

export const makeRedisRateLimiter = (options: RedisRateLimiterOptions): RedisRateLimiter => {
  const { limits, logger } = options
  const redis = new Redis(options.redisUrl, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: options.commandTimeoutMs ?? 250,
    connectTimeout: 1_000,
    // Scripts issued in the same tick go out in one write: under load, one syscall carries many.
    enableAutoPipelining: true,
    // Keep trying forever, at most every second, so the limiter returns to Redis on its own.
    retryStrategy: (attempt) => Math.min(attempt * 100, 1_000),
  })
  redis.defineCommand("parleyRateLimit", { lua: SLIDING_WINDOW_SCRIPT })
  // ioredis emits connection errors as events; without a listener they would crash the process.
  redis.on("error", () => {})
  const scripted = redis as unknown as ScriptedRedis

  let usingFallback = false
  let sequence = 0
  const switchTo = (fallback: boolean, reason?: unknown) => {
    if (fallback === usingFallback) return
    usingFallback = fallback
    if (fallback) {
      logger.warn(
        { err: reason instanceof Error ? { message: reason.message } : undefined },
        "rate limiter: Redis unreachable, counting in memory on this instance",
      )
    } else logger.info("rate limiter: Redis reachable again, counting in Redis")
    options.onFallbackChange(fallback)
  }

  const keyOf = (subject: string, limit: string) => `${options.keyPrefix}{${subject}}:${limit}`

  return {
    redis,
    get usingFallback() {
      return usingFallback
    },
    check: async (request: RateRequest): Promise<RateDecision> => {
      if (redis.status !== "ready") {
        switchTo(true, new Error(`connection ${redis.status}`))
        return options.fallback.check(request)
      }
      const keys = [keyOf(request.subject, "general")]
      const perKey = [limits.generalPerWindow]
      if (request.heavy) {
        keys.push(keyOf(request.subject, "heavy"))
        perKey.push(limits.heavyPerWindow)
      }
      sequence = (sequence + 1) % Number.MAX_SAFE_INTEGER
      let reply: ScriptReply
      try {
        reply = await scripted.parleyRateLimit(
          keys.length,
          ...keys,
          limits.windowMs,
          `${options.instanceId}:${sequence}`,
          ...perKey,
        )
      } catch (error) {
        switchTo(true, error)
        return options.fallback.check(request)
      }
      switchTo(false)
      const states: Array<LimitState> = []
      for (let i = 0; i < keys.length; i++) {
        states.push({
          limit: Number(reply[1 + i * 3]),
          remaining: Number(reply[2 + i * 3]),
          resetMs: Number(reply[3 + i * 3]),
        })
      }
      return decide(states, Number(reply[0]) === 1)
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
      redis.disconnect()
    },
  }
}

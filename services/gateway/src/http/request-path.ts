/**
 * The one service in front of the gateway's request path (see README.md: plain code for speed).
 * Its Layer builds the path's parts once — the keep-alive pools, the identity client and the key
 * cache, the rate limiter (Redis, with its in-memory fallback), key-usage notes, the counter and the
 * pipeline — and the rest of the gateway reaches them through this service: Fastify gets `handle`.
 */
import type { InternalSecret, ParleyLogger, ReadinessCheck } from "@parley/platform"
import { Context, Effect, Layer } from "effect"
import type { FastifyReply, FastifyRequest } from "fastify"
import { makeAuthenticator } from "../auth/authenticate.ts"
import { makeIdentityClient } from "../auth/identity-client.ts"
import { type KeyCache, makeKeyCache } from "../auth/key-cache.ts"
import { type KeyUsageRecorder, makeKeyUsageRecorder } from "../bus/key-usage.ts"
import { GatewayMetrics } from "../metrics.ts"
import { makeForwarder } from "../proxy/forward.ts"
import { makeUpstreams, type ServiceTargets } from "../proxy/upstreams.ts"
import { makeRequestCounter } from "../ratelimit/count.ts"
import { makeMemoryRateLimiter } from "../ratelimit/memory-limiter.ts"
import { DEFAULT_RATE_LIMITS, type RateLimiter, type RateLimits } from "../ratelimit/policy.ts"
import { makeRedisRateLimiter, type RedisRateLimiter } from "../ratelimit/redis-limiter.ts"
import { makePipeline } from "./pipeline.ts"

const REDIS_STARTUP_WAIT_MS = 2_000

export interface RequestPathOptions {
  readonly services: ServiceTargets
  readonly internalSecret: InternalSecret
  /** `PARLEY_PUBLIC_URL`: its origin is the only one session requests may come from. */
  readonly publicUrl: string
  readonly logger: ParleyLogger
  readonly redisUrl?: string | undefined
  readonly redisKeyPrefix?: string | undefined
  readonly redisCommandTimeoutMs?: number | undefined
  readonly rateLimits?: Partial<RateLimits> | undefined
  readonly keyCacheTtlMs?: number | undefined
}

export class RequestPath extends Context.Service<
  RequestPath,
  {
    /** Fastify's one handler of every forwarded route. */
    readonly handle: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>
    /** Counts an unauthenticated request of the gateway's own routes (docs, console, widget) by client IP. */
    readonly countByIp: (request: FastifyRequest, reply: FastifyReply) => Promise<void>
    /** The cache the bus's key changes evict. */
    readonly keys: KeyCache
    /** Key usage noted per request, published by `app.ts`'s flush. */
    readonly usage: KeyUsageRecorder
    /** The probes of what the path depends on: identity, and Redis (optional) when configured. */
    readonly readiness: ReadonlyArray<ReadinessCheck>
    /** Whether rate limits are being counted in memory right now (no Redis, or Redis unreachable). */
    readonly limiterInMemory: () => boolean
  }
>()("@parley/gateway/RequestPath") {
  /** The path, its pools and its Redis client released when the Layer's scope closes. */
  static readonly layer = (options: RequestPathOptions) =>
    Layer.effect(
      RequestPath,
      Effect.gen(function* () {
        const { logger } = options
        const gatewayMetrics = yield* GatewayMetrics
        const limits: RateLimits = { ...DEFAULT_RATE_LIMITS, ...options.rateLimits }
        const upstreams = yield* Effect.acquireRelease(
          Effect.sync(() => makeUpstreams(options.services)),
          (u) => Effect.promise(() => u.close()),
        )
        const identity = makeIdentityClient({
          pool: upstreams.pool("identity"),
          internalSecret: options.internalSecret,
        })
        const keys = makeKeyCache({
          identity,
          ttlMs: options.keyCacheTtlMs ?? 60_000,
          onLookup: (outcome) => gatewayMetrics.keyLookups.inc({ outcome }),
        })

        const memoryLimiter = makeMemoryRateLimiter(limits)
        const sweeper = setInterval(() => memoryLimiter.sweep(), limits.windowMs)
        sweeper.unref()
        yield* Effect.addFinalizer(() => Effect.sync(() => clearInterval(sweeper)))

        let redisLimiter: RedisRateLimiter | undefined
        if (options.redisUrl !== undefined) {
          const redisUrl = options.redisUrl
          redisLimiter = yield* Effect.acquireRelease(
            Effect.sync(() =>
              makeRedisRateLimiter({
                redisUrl,
                limits,
                keyPrefix: options.redisKeyPrefix ?? "parley:ratelimit:",
                fallback: memoryLimiter,
                logger,
                onFallbackChange: (active) => gatewayMetrics.limiterFallback.set(active ? 1 : 0),
                ...(options.redisCommandTimeoutMs === undefined
                  ? {}
                  : { commandTimeoutMs: options.redisCommandTimeoutMs }),
              }),
            ),
            (limiter) => Effect.promise(() => limiter.close()),
          )
          // Start counting in Redis from the first request when it is there; if it is down, serve anyway.
          const limiter = redisLimiter
          const connected = yield* Effect.promise(() => limiter.connected(REDIS_STARTUP_WAIT_MS))
          if (!connected) logger.warn("rate limiter: Redis not reachable at start, counting in memory until it is")
        } else {
          logger.info("rate limiter: no REDIS_URL, counting in memory on this instance")
        }
        const limiter: RateLimiter = redisLimiter ?? memoryLimiter

        const readiness: Array<ReadinessCheck> = [
          {
            name: "identity",
            check: async () => {
              const response = await upstreams.pool("identity").request({ method: "GET", path: "/health/live" })
              await response.body.dump()
              if (response.statusCode !== 200) throw new Error(`identity answered ${response.statusCode}`)
            },
          },
        ]
        if (redisLimiter !== undefined) {
          // Optional (docs/contract.md §3: the gateway keeps serving without Redis): its state shows in
          // the body, not in the status, and is read from the limiter's breaker, so a hung Redis cannot
          // make the probe itself wait.
          const shared = redisLimiter
          readiness.push({
            name: "redis",
            optional: true,
            check: () => {
              if (shared.usingFallback) throw new Error("Redis unreachable: counting in memory")
            },
          })
        }

        const usage = makeKeyUsageRecorder()
        const count = makeRequestCounter({ limiter, limits, metrics: gatewayMetrics })
        const handle = makePipeline({
          authenticator: makeAuthenticator({
            keys,
            identity,
            csrf: { publicOrigin: new URL(options.publicUrl).origin },
          }),
          count,
          forwarder: makeForwarder(upstreams, gatewayMetrics, options.internalSecret),
          usage,
        })
        const inMemory = redisLimiter
        return RequestPath.of({
          handle,
          countByIp: (request, reply) => count(reply, `ip:${request.ip}`, false),
          keys,
          usage,
          readiness,
          limiterInMemory: () => inMemory === undefined || inMemory.usingFallback,
        })
      }),
    )
}

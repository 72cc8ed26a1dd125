/**
 * `makeGatewayApp`: the gateway built from its dependencies — service URLs, an optional Redis, the
 * Bus — for `main.ts`, `standalone` and tests. It builds two Fastify servers (the public edge and an
 * internal one for `/metrics`) without listening, follows key changes on the bus and flushes key
 * usage, all tied to the caller's Scope: closing it closes the servers, the pools and Redis.
 */
import { randomUUID } from "node:crypto"
import { Bus, type BusError, defineService, type ServiceApp } from "@parley/bus"
import { gatewayRoutes } from "@parley/contracts"
import {
  type InternalSecret,
  makeHttpServer,
  makeMetricsServer,
  makeServiceMetrics,
  type ParleyLogger,
  type ReadinessCheck,
  refuseUndeclaredRoutes,
  type ServiceMetrics,
} from "@parley/platform"
import { Config, Duration, Effect, Schedule, type Scope } from "effect"
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify"
import { makeAuthenticator } from "./auth/authenticate.ts"
import { makeIdentityClient } from "./auth/identity-client.ts"
import { makeKeyCache } from "./auth/key-cache.ts"
import { followKeyChanges } from "./bus/key-changes.ts"
import { makeKeyUsageRecorder } from "./bus/key-usage.ts"
import { GatewayConfig, GatewayServiceUrls } from "./config.ts"
import { registerDocsRoutes } from "./docs/routes.ts"
import { makePipeline } from "./http/pipeline.ts"
import { makeGatewayMetrics } from "./metrics.ts"
import { makeForwarder } from "./proxy/forward.ts"
import { makeUpstreams, type ServiceTargets } from "./proxy/upstreams.ts"
import { makeRequestCounter } from "./ratelimit/count.ts"
import { makeMemoryRateLimiter } from "./ratelimit/memory-limiter.ts"
import { DEFAULT_RATE_LIMITS, type RateLimiter, type RateLimits } from "./ratelimit/policy.ts"
import { makeRedisRateLimiter, type RedisRateLimiter } from "./ratelimit/redis-limiter.ts"
import { loadConsoleFiles, registerConsoleRoutes } from "./web/console.ts"
import { registerWidgetRoutes } from "./web/widget.ts"

export { InProcessDispatcher } from "./proxy/in-process.ts"
export type { ServiceTargets } from "./proxy/upstreams.ts"

export interface GatewayOptions {
  /** Each service's base URL, or a dispatcher reaching it in this process. */
  readonly services: ServiceTargets
  readonly internalSecret: InternalSecret
  /** `PARLEY_PUBLIC_URL`: its origin is the only one session requests may come from. */
  readonly publicUrl: string
  readonly logger: ParleyLogger
  /** Without it, rate limits are counted in this instance's memory. */
  readonly redisUrl?: string | undefined
  /** Prefix of the limiter's Redis keys (default `parley:ratelimit:`); tests use a unique one. */
  readonly redisKeyPrefix?: string
  readonly redisCommandTimeoutMs?: number
  readonly rateLimits?: Partial<RateLimits>
  /** Safety-net TTL of cached keys (default 60 s); eviction comes from the bus. */
  readonly keyCacheTtlMs?: number
  /** How often key usage is published (default 60 s). */
  readonly keyUsageFlushMs?: number
  /**
   * Addresses and CIDRs of the proxies in front, whose `X-Forwarded-For` is believed
   * (`PARLEY_GATEWAY_TRUSTED_PROXIES`, see `trusted-proxies.ts`); none by default.
   */
  readonly trustedProxies?: ReadonlyArray<string>
  /** Names this instance's consumer group; unique per process by default. */
  readonly instanceId?: string
  readonly metrics?: ServiceMetrics
  /** The console's build (default: `@parley/console`'s `dist/`); without one, `/console/` is 404. */
  readonly consoleDir?: string
  /** The chat widget's build output (default: `@parley/widget`'s `dist/`). */
  readonly widgetDir?: string
}

export interface GatewayApp extends ServiceApp {
  /** The public edge (PARLEY_PORT). */
  readonly http: FastifyInstance
  /** `/metrics` and health probes, on the internal port (PARLEY_GATEWAY_METRICS_PORT). */
  readonly metricsHttp: FastifyInstance
  readonly metrics: ServiceMetrics
  readonly instanceId: string
  /** Whether rate limits are being counted in memory right now (no Redis, or Redis unreachable). */
  readonly limiterInMemory: () => boolean
  /** Publishes noted key usage now (the timer does it every `keyUsageFlushMs`). */
  readonly flushKeyUsage: Effect.Effect<void, never, Bus>
}

const REDIS_STARTUP_WAIT_MS = 2_000

const ALL_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const

export const makeGatewayApp = (options: GatewayOptions): Effect.Effect<GatewayApp, BusError, Bus | Scope.Scope> =>
  Effect.gen(function* () {
    const instanceId = options.instanceId ?? randomUUID()
    const logger = options.logger
    const limits: RateLimits = { ...DEFAULT_RATE_LIMITS, ...options.rateLimits }
    const metrics = options.metrics ?? makeServiceMetrics("gateway")
    const gatewayMetrics = makeGatewayMetrics(metrics)

    const upstreams = yield* Effect.acquireRelease(
      Effect.sync(() => makeUpstreams(options.services)),
      (u) => Effect.promise(() => u.close()),
    )
    const identity = makeIdentityClient({ pool: upstreams.pool("identity"), internalSecret: options.internalSecret })
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
            instanceId,
            fallback: memoryLimiter,
            logger,
            onFallbackChange: (active) => gatewayMetrics.limiterFallback.set(active ? 1 : 0),
            ...(options.redisCommandTimeoutMs === undefined ? {} : { commandTimeoutMs: options.redisCommandTimeoutMs }),
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

    const usage = makeKeyUsageRecorder()
    const bus = yield* Bus
    const flushKeyUsage = usage.flush
    yield* Effect.forkScoped(
      flushKeyUsage.pipe(
        Effect.provideService(Bus, bus),
        Effect.repeat(Schedule.spaced(Duration.millis(options.keyUsageFlushMs ?? 60_000))),
      ),
    )
    // Notes taken since the last flush are published on the way out.
    yield* Effect.addFinalizer(() => flushKeyUsage.pipe(Effect.provideService(Bus, bus)))
    yield* followKeyChanges(keys, instanceId, () => gatewayMetrics.keyChanges.inc())

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
      // Optional (docs/contract.md §3: the gateway keeps serving without Redis): its state shows in the
      // body, not in the status, and is read from the limiter's breaker, so a hung Redis cannot make
      // the probe itself wait.
      const shared = redisLimiter
      readiness.push({
        name: "redis",
        optional: true,
        check: () => {
          if (shared.usingFallback) throw new Error("Redis unreachable: counting in memory")
        },
      })
    }

    const app = makeHttpServer({
      service: "gateway",
      logger,
      metrics,
      exposeMetrics: false,
      readiness,
      // Fastify's `trustProxy` with a list: the client is the right-most address not in it.
      trustProxy:
        options.trustedProxies !== undefined && options.trustedProxies.length > 0 ? [...options.trustedProxies] : false,
    })
    // The gateway reads bodies itself (it forwards the bytes, not a re-serialised value): every
    // body arrives as the client's stream; the pipeline checks its type, size and JSON.
    app.removeAllContentTypeParsers()
    app.addContentTypeParser("*", (_request, payload, done) => done(null, payload))

    const count = makeRequestCounter({ limiter, limits, metrics: gatewayMetrics })
    const pipeline = makePipeline({
      authenticator: makeAuthenticator({ keys, identity, csrf: { publicOrigin: new URL(options.publicUrl).origin } }),
      count,
      forwarder: makeForwarder(upstreams, gatewayMetrics, options.internalSecret),
      usage,
    })
    app.route({ method: [...ALL_METHODS], url: "/api/*", handler: pipeline })
    app.route({ method: [...ALL_METHODS], url: "/channels/*", handler: pipeline })
    app.route({ method: [...ALL_METHODS], url: "/channels", handler: pipeline })
    app.route({ method: [...ALL_METHODS], url: "/api", handler: pipeline })
    // Past the forwarding routes above (the services' mounts, their routes declared by each
    // service), the gateway serves only what `gatewayRoutes` declares.
    refuseUndeclaredRoutes(app, gatewayRoutes)
    // The OpenAPI document and its page (docs/contract.md §11), served by the gateway itself: not
    // authenticated, so counted per client IP as every unauthenticated request is (§3).
    const countByIp = (request: FastifyRequest, reply: FastifyReply) => count(reply, `ip:${request.ip}`, false)
    registerDocsRoutes(app, { publicUrl: options.publicUrl, count: countByIp })
    // The console (docs/contract.md §14): its files, counted per client IP like the docs.
    const consoleFiles = yield* Effect.promise(() => loadConsoleFiles(options.consoleDir, logger))
    if (consoleFiles !== undefined) registerConsoleRoutes(app, { files: consoleFiles, count: countByIp })
    // The chat widget (§15): the loader and the panel's hashed files, likewise counted per client IP.
    yield* Effect.promise(() => registerWidgetRoutes(app, { dir: options.widgetDir, logger, count: countByIp }))

    const metricsApp = makeMetricsServer({ service: "gateway", logger, metrics, readiness })
    yield* Effect.addFinalizer(() => Effect.promise(() => Promise.all([app.close(), metricsApp.close()])))

    return {
      http: app,
      metricsHttp: metricsApp,
      metrics,
      instanceId,
      limiterInMemory: () => redisLimiter === undefined || redisLimiter.usingFallback,
      flushKeyUsage,
    }
  })

/** The gateway's options as its config says (`services`: where each service is). */
export const gatewayOptions = (
  config: GatewayConfig,
  services: ServiceTargets,
  logger: ParleyLogger,
): GatewayOptions => ({
  services,
  internalSecret: config.internalSecret,
  publicUrl: config.publicUrl,
  logger,
  redisUrl: config.redisUrl,
  rateLimits: { generalPerWindow: config.generalPerMin, heavyPerWindow: config.heavyPerMin },
  trustedProxies: config.trustedProxies,
  ...(config.instanceId === undefined ? {} : { instanceId: config.instanceId }),
})

/** The gateway alone (`main.ts`): the services at their URLs, the bus only (no Postgres on Kafka). */
export const gatewayService = defineService({
  name: "gateway",
  infrastructure: { kind: "bus" },
  config: Config.all([GatewayConfig, GatewayServiceUrls]).pipe(
    Config.map(([config, services]) => ({ ...config, services })),
  ),
  make: (config, logger) => makeGatewayApp(gatewayOptions(config, config.services, logger)),
})

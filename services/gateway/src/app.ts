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
  refuseUndeclaredRoutes,
  type ServiceMetrics,
} from "@parley/platform"
import { Config, Context, Duration, Effect, Layer, Schedule, type Scope } from "effect"
import type { FastifyInstance } from "fastify"
import { followKeyChanges } from "./bus/key-changes.ts"
import { GatewayConfig, GatewayServiceUrls } from "./config.ts"
import { registerDocsRoutes } from "./docs/routes.ts"
import { RequestPath } from "./http/request-path.ts"
import { GatewayMetrics } from "./metrics.ts"
import type { ServiceTargets } from "./proxy/upstreams.ts"
import type { RateLimits } from "./ratelimit/policy.ts"
import { loadConsoleFiles, registerConsoleRoutes } from "./web/console.ts"
import { loadWidgetFiles, registerWidgetRoutes } from "./web/widget.ts"

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

const ALL_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const

export const makeGatewayApp = (options: GatewayOptions): Effect.Effect<GatewayApp, BusError, Bus | Scope.Scope> =>
  Effect.gen(function* () {
    const instanceId = options.instanceId ?? randomUUID()
    const logger = options.logger
    const metrics = options.metrics ?? makeServiceMetrics("gateway")
    // The front ends' files are read, with the compressed forms their builds wrote, while the rest
    // is built; one build after the other (`loadStaticFiles`: a build without those forms is
    // compressed here, off the main thread, one encoder at a time to keep the memory down).
    const consoleLoad = loadConsoleFiles(options.consoleDir, logger)
    const widgetLoad = consoleLoad.then(() => loadWidgetFiles(options.widgetDir, logger))
    // Awaited below; a failure before then is not an unhandled rejection.
    widgetLoad.catch(() => undefined)
    // The request path is plain code for speed (http/README.md), reached through its one service.
    const services = RequestPath.layer(options).pipe(Layer.provideMerge(GatewayMetrics.layer(metrics)))
    const context = yield* Layer.build(services)
    const path = Context.get(context, RequestPath)
    const gatewayMetrics = Context.get(context, GatewayMetrics)

    const bus = yield* Bus
    const flushKeyUsage = path.usage.flush
    yield* Effect.forkScoped(
      flushKeyUsage.pipe(
        Effect.provideService(Bus, bus),
        Effect.repeat(Schedule.spaced(Duration.millis(options.keyUsageFlushMs ?? 60_000))),
      ),
    )
    // Notes taken since the last flush are published on the way out.
    yield* Effect.addFinalizer(() => flushKeyUsage.pipe(Effect.provideService(Bus, bus)))
    yield* followKeyChanges(path.keys, instanceId, () => gatewayMetrics.keyChanges.inc())
    const readiness = path.readiness

    const app = makeHttpServer({
      service: "gateway",
      logger,
      metrics,
      exposeMetrics: false,
      readiness,
      // Fastify's `trustProxy` with a list: the client is the right-most address not in it.
      trustProxy:
        options.trustedProxies !== undefined && options.trustedProxies.length > 0 ? [...options.trustedProxies] : false,
      // The access line names the client (behind trusted proxies, the address they forwarded).
      logClientIp: true,
    })
    // The gateway reads bodies itself (it forwards the bytes, not a re-serialised value): every
    // body arrives as the client's stream; the pipeline checks its type, size and JSON.
    app.removeAllContentTypeParsers()
    app.addContentTypeParser("*", (_request, payload, done) => done(null, payload))

    const pipeline = path.handle
    app.route({ method: [...ALL_METHODS], url: "/api/*", handler: pipeline })
    app.route({ method: [...ALL_METHODS], url: "/channels/*", handler: pipeline })
    app.route({ method: [...ALL_METHODS], url: "/channels", handler: pipeline })
    app.route({ method: [...ALL_METHODS], url: "/api", handler: pipeline })
    // Past the forwarding routes above (the services' mounts, their routes declared by each
    // service), the gateway serves only what `gatewayRoutes` declares.
    refuseUndeclaredRoutes(app, gatewayRoutes)
    // The OpenAPI document and its page (docs/contract.md §11), served by the gateway itself: not
    // authenticated, so counted per client IP as every unauthenticated request is (§3).
    const countByIp = path.countByIp
    registerDocsRoutes(app, { publicUrl: options.publicUrl, count: countByIp })
    // The console (docs/contract.md §14): its files, counted per client IP like the docs.
    const consoleFiles = yield* Effect.promise(() => consoleLoad)
    if (consoleFiles !== undefined) registerConsoleRoutes(app, { files: consoleFiles, count: countByIp })
    // The chat widget (§15): the loader and the panel's hashed files, likewise counted per client IP.
    yield* Effect.promise(() => registerWidgetRoutes(app, { files: widgetLoad, logger, count: countByIp }))

    const metricsApp = makeMetricsServer({ service: "gateway", logger, metrics, readiness })
    yield* Effect.addFinalizer(() => Effect.promise(() => Promise.all([app.close(), metricsApp.close()])))

    return {
      http: app,
      metricsHttp: metricsApp,
      metrics,
      instanceId,
      limiterInMemory: path.limiterInMemory,
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

/**
 * The embedded default: every Parley service in one process — identity, the webhook registry, the
 * dispatcher, messaging, the assistant and, in front, the gateway on `PARLEY_PORT` — on one Postgres
 * (an embedded PostgreSQL server unless `DATABASE_URL`) and one bus (single-node unless `KAFKA_BROKERS`).
 */

import { existsSync } from "node:fs"
import type { AddressInfo } from "node:net"
import { join, resolve } from "node:path"
import { InfrastructureConfig, infrastructureLayer } from "@parley/bus"
import { Database } from "@parley/db"
import { gatewayOptions, makeGatewayApp } from "@parley/gateway"
import { GatewayConfig } from "@parley/gateway/config"
import {
  type EnvRecord,
  loadConfig,
  makeLogger,
  makeMetricsServer,
  type ParleyLogger,
  pinoLoggerLayer,
  startTracing,
} from "@parley/platform"
import { Context, Effect, Layer, type Scope } from "effect"
import { databaseIdentity } from "./bootstrap.ts"
import { StandaloneConfig } from "./config.ts"
import { serviceEnvironment } from "./environment.ts"
import { combinedMetrics } from "./metrics.ts"
import { type LoadedSecrets, type LoadedVerifyToken, loadOrCreateSecrets, loadOrCreateVerifyToken } from "./secrets.ts"
import { startInternalServices } from "./services.ts"

export interface RunningStandalone {
  /** The gateway's public base URL. */
  readonly url: string
  /** `PARLEY_PUBLIC_URL`: where browsers reach Parley (the console's sessions accept only that origin). */
  readonly publicUrl: string
  /** The internal metrics server's base URL (loopback). */
  readonly metricsUrl: string
  readonly dataDir: string
  readonly secrets: LoadedSecrets
  /** The verify token generated because `PARLEY_CLOUD_VERIFY_TOKEN` was unset (else `undefined`). */
  readonly verifyToken: LoadedVerifyToken | undefined
  /** The environment the services were configured from (generated secrets included). */
  readonly env: EnvRecord
  readonly embeddedDatabase: boolean
  /** Which database this is (`databaseIdentity`): the demo organization's marker names it. */
  readonly database: string
}

/** With Kafka, the schema whose outbox every service of this process appends to. */
export const STANDALONE_OUTBOX_SCHEMA = "parley_standalone"

/**
 * Every service of the process shares this pool (the bus has its own): enough connections for the
 * request handlers and consumers of all of them to keep the server busy on a small machine
 * (`DATABASE_POOL_MAX` sets another). Five since issue #28 (sixteen, then eight): each connection
 * is a server process of 8–10 MB under load. On the 2-core reference machine the e2e benchmark,
 * three rounds beside eight connections (and the bus's five, now three), delivered 476 / 575 / 608
 * messages per second against 469 / 497 / 667 at the same CPU per message (3,885 against 4,140 µs,
 * median), while the server's memory under load fell from 118–122 to 101–102 MB.
 */
const DATABASE_POOL = 5

const address = (server: { address(): unknown }): string => {
  const { address, port, family } = server.address() as AddressInfo
  return `http://${family === "IPv6" ? `[${address}]` : address}:${port}`
}

export const startStandalone = (env: EnvRecord): Effect.Effect<RunningStandalone, unknown, Scope.Scope> =>
  Effect.gen(function* () {
    const config = yield* loadConfig(StandaloneConfig, env)
    const logger = makeLogger({ service: "standalone", level: config.logLevel })
    return yield* startWith(config, env, logger).pipe(Effect.provide(pinoLoggerLayer(logger)))
  })

const startWith = (config: StandaloneConfig, env: EnvRecord, startLogger: ParleyLogger) =>
  Effect.gen(function* () {
    const dataDir = resolve(config.dataDir)
    // Before any server or consumer is made (they instrument themselves only if it is on).
    yield* Effect.acquireRelease(
      Effect.promise(() => startTracing("parley", env, startLogger)),
      (stop) => Effect.promise(stop),
    )
    const secrets = yield* Effect.promise(() => loadOrCreateSecrets(dataDir))
    // One access line per request: the gateway's. The services it hands requests to in this
    // process log everything else as usual.
    const loggerFor = (service: string) =>
      makeLogger({ service, level: config.logLevel, accessLog: service === "gateway" || service === "standalone" })
    const logger = loggerFor("standalone")
    const verifyToken =
      (env.PARLEY_CLOUD_VERIFY_TOKEN ?? "").trim() === ""
        ? yield* Effect.promise(() => loadOrCreateVerifyToken(dataDir))
        : undefined
    const servicesEnv = serviceEnvironment(env, secrets.secrets, dataDir, {
      ...(verifyToken === undefined ? {} : { cloudVerifyToken: verifyToken.token }),
    })

    const infrastructureConfig = yield* loadConfig(InfrastructureConfig, servicesEnv)
    const infrastructure = yield* Layer.build(
      infrastructureLayer(
        { kind: "outbox", schema: STANDALONE_OUTBOX_SCHEMA },
        "parley-standalone",
        infrastructureConfig,
        {
          maxConnections: DATABASE_POOL,
        },
      ),
    )
    const database = yield* Effect.promise(() => databaseIdentity(Context.get(infrastructure, Database).sql))
    if (config.databaseUrl === undefined && existsSync(join(dataDir, "pg"))) {
      logger.warn(
        `${join(dataDir, "pg")} holds the PGlite database of earlier Parley versions; it is no longer read ` +
          `(the embedded PostgreSQL keeps its data in ${join(dataDir, "postgres")}): delete it once you no longer need it`,
      )
    }
    const internal = yield* startInternalServices(servicesEnv).pipe(Effect.provideContext(infrastructure))

    // The gateway in front, its services in this process. One process, one gateway: a stable
    // consumer group, so restarts leave no abandoned groups that would hold back the single-node
    // bus's retention of key changes.
    const gatewayConfig = yield* loadConfig(GatewayConfig, servicesEnv)
    const gateway = yield* makeGatewayApp({
      ...gatewayOptions(gatewayConfig, internal.targets, loggerFor("gateway")),
      instanceId: "standalone",
    }).pipe(Effect.provideContext(infrastructure))

    const metricsServer = makeMetricsServer({
      service: "standalone",
      logger,
      metrics: combinedMetrics([gateway.metrics, ...internal.metrics]),
    })
    yield* Effect.addFinalizer(() => Effect.promise(() => metricsServer.close()))
    yield* Effect.promise(() => metricsServer.listen({ host: "127.0.0.1", port: config.metricsPort }))
    yield* Effect.promise(() => gateway.http.listen({ host: config.host, port: config.port }))

    return {
      url: address(gateway.http.server),
      publicUrl: gatewayConfig.publicUrl,
      metricsUrl: address(metricsServer.server),
      dataDir,
      secrets,
      verifyToken,
      env: servicesEnv,
      embeddedDatabase: config.databaseUrl === undefined,
      database,
    } satisfies RunningStandalone
  })

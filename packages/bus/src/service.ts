/**
 * The one shape of a Parley service and the one way to run it. A service is a definition — its
 * config (decoded once), what it runs on, how it is built — exported from its `app.ts`; every
 * `main.ts` is `runService(definition)`, and `standalone` builds every definition in one process
 * the same way (`configure`, then `make`), without an adapter per service.
 */
import type { RouteDeclaration, ServiceName, ServiceRoutes } from "@parley/contracts"
import {
  type EnvRecord,
  type HttpServer,
  jsonFailureReport,
  type LoggerOptions,
  type LogLevelName,
  loadConfig,
  makeLogger,
  type ParleyLogger,
  pinoLoggerLayer,
  runMain,
  startTracing,
} from "@parley/platform"
import { type Config, Effect, type Scope } from "effect"
import { InfrastructureConfig, type InfrastructureNeed, infrastructureLayer, type Provided } from "./infrastructure.ts"

/** What building a service answers: its HTTP server (its routes, or only health and metrics), not listening yet. */
export interface ServiceApp<R = never> {
  readonly http: HttpServer
  /** A second server for `/metrics` and the probes, on an internal port (the gateway). */
  readonly metricsHttp?: HttpServer
  /**
   * Work that starts once `http` listens: the dispatcher answers its probes while it joins its
   * consumer groups, which on Kafka can take the length of a dead member's session.
   */
  readonly start?: Effect.Effect<void, unknown, R | Scope.Scope>
}

/** The route declarations of a service the gateway forwards to. */
type BehindTheGateway = ServiceRoutes<Readonly<Record<string, RouteDeclaration>>, ServiceName>

/** What every service's config has: where it listens and how much it logs. */
export interface ServiceConfig {
  readonly host: string
  readonly port: number
  readonly logLevel: LogLevelName
  /** Where `metricsHttp` listens, for a service that has one. */
  readonly metricsHost?: string
  readonly metricsPort?: number
}

/** A service's config, decoded from an environment, its logger, and the Effect that builds it. */
export interface ConfiguredService<R> {
  readonly config: ServiceConfig
  readonly logger: ParleyLogger
  /** Builds the service (its Effect logs go to `logger`); released with the Scope. */
  readonly make: Effect.Effect<ServiceApp<R>, unknown, R | Scope.Scope>
}

export interface ServiceDefinition<N extends InfrastructureNeed = InfrastructureNeed> {
  /** `webhook-registry`: names its logs, metrics and Kafka client. */
  readonly name: string
  /** Its route declarations, for a service behind the gateway (`routes.service` names it there). */
  readonly routes?: BehindTheGateway
  readonly infrastructure: N
  /**
   * Decodes the service's config from `env` (default: the process environment), once. `logging`
   * adjusts its logger: in `npm start` the gateway writes the one access line per request and has
   * the process's own metrics.
   */
  readonly configure: (
    env?: EnvRecord,
    logging?: Pick<LoggerOptions, "accessLog" | "processMetrics">,
  ) => Effect.Effect<ConfiguredService<Provided<N>>, Config.ConfigError>
}

export interface ServiceDefinitionOptions<C extends ServiceConfig, N extends InfrastructureNeed> {
  readonly name: string
  readonly routes?: BehindTheGateway
  readonly infrastructure: N
  readonly config: Config.Config<C>
  /** Builds the service; everything it starts is released when the Scope closes. */
  readonly make: (
    config: C,
    logger: ParleyLogger,
  ) => Effect.Effect<ServiceApp<Provided<N>>, unknown, Provided<N> | Scope.Scope>
}

export const defineService = <C extends ServiceConfig, const N extends InfrastructureNeed>(
  options: ServiceDefinitionOptions<C, N>,
): ServiceDefinition<N> => ({
  name: options.name,
  ...(options.routes === undefined ? {} : { routes: options.routes }),
  infrastructure: options.infrastructure,
  configure: (env, logging) =>
    Effect.map(loadConfig(options.config, env), (config) => {
      const logger = makeLogger({ ...logging, service: options.name, level: config.logLevel })
      return { config, logger, make: options.make(config, logger).pipe(Effect.provide(pinoLoggerLayer(logger))) }
    }),
})

/** Listens; the service closes its servers itself when its Scope closes. */
const listen = (http: HttpServer, host: string, port: number) => Effect.promise(() => http.listen({ host, port }))

/**
 * Runs a service as the process: its infrastructure from the environment, the service built and
 * listening, its `start` work, until SIGINT or SIGTERM closes everything in order (servers drain,
 * consumers commit and leave their groups, pools end).
 */
export const runService = <N extends InfrastructureNeed>(service: ServiceDefinition<N>): void =>
  runMain(
    Effect.gen(function* () {
      const infrastructure = yield* loadConfig(InfrastructureConfig)
      const { config, logger, make } = yield* service.configure()
      const program = Effect.gen(function* () {
        // Before the servers and consumers are made: they instrument themselves only if it is on.
        yield* Effect.acquireRelease(
          Effect.promise(() => startTracing(service.name, process.env, logger)),
          (stop) => Effect.promise(stop),
        )
        const app = yield* make
        const address = yield* listen(app.http, config.host, config.port)
        const metricsAddress =
          app.metricsHttp === undefined || config.metricsPort === undefined
            ? undefined
            : yield* listen(app.metricsHttp, config.metricsHost ?? config.host, config.metricsPort)
        logger.info(
          { address, ...(metricsAddress === undefined ? {} : { metricsAddress }) },
          `${service.name} listening`,
        )
        if (app.start !== undefined) yield* app.start
        return yield* Effect.never
      })
      return yield* program.pipe(
        Effect.scoped,
        Effect.provide(infrastructureLayer(service.infrastructure, service.name, infrastructure)),
        Effect.provide(pinoLoggerLayer(logger)),
      )
    }),
    // A deployed service's failure is one JSON line like its other logs (docs: "Operating Parley").
    { report: jsonFailureReport(service.name) },
  )

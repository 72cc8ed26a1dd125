/**
 * Runs the gateway alone: config from the environment, the bus (Kafka when KAFKA_BROKERS is set,
 * else the single-node bus in DATABASE_URL's Postgres or the embedded one), Redis when REDIS_URL is
 * set; the public edge listens on PARLEY_HOST:PARLEY_PORT and `/metrics` on
 * PARLEY_GATEWAY_METRICS_HOST:PARLEY_GATEWAY_METRICS_PORT.
 */
import { type Bus, KafkaBus, SingleNodeBus } from "@parley/bus"
import { Database, databaseUrl } from "@parley/db"
import { loadConfig, makeLogger, pinoLoggerLayer, runMain } from "@parley/platform"
import { Effect, Layer } from "effect"
import { makeGatewayApp } from "./app.ts"
import { GatewayConfig, GatewayServiceUrls } from "./config.ts"

const program = Effect.gen(function* () {
  const config = yield* loadConfig(GatewayConfig)
  const services = yield* loadConfig(GatewayServiceUrls)
  const logger = makeLogger({ service: "gateway", level: config.logLevel })
  // The gateway only publishes (KeyUsed) and follows (KeyChanged): it needs no outbox of its own,
  // hence not `serviceInfrastructure` — on Kafka it runs without Postgres at all.
  const bus: Layer.Layer<Bus, unknown> =
    config.kafkaBrokers === undefined
      ? Layer.unwrap(
          Effect.map(databaseUrl({ url: config.databaseUrl, dataDir: config.dataDir }), (url) =>
            SingleNodeBus.layer().pipe(Layer.provide(Database.layer({ url }))),
          ),
        )
      : KafkaBus.layer({ brokers: [...config.kafkaBrokers], clientId: "gateway" })
  const server = Effect.gen(function* () {
    const gateway = yield* makeGatewayApp({
      services,
      internalSecret: config.internalSecret,
      publicUrl: config.publicUrl,
      logger,
      redisUrl: config.redisUrl,
      rateLimits: { generalPerWindow: config.generalPerMin, heavyPerWindow: config.heavyPerMin },
      trustProxy: config.trustProxy,
      ...(config.instanceId === undefined ? {} : { instanceId: config.instanceId }),
    })
    const address = yield* Effect.promise(() => gateway.app.listen({ host: config.host, port: config.port }))
    const metricsAddress = yield* Effect.promise(() =>
      gateway.metricsApp.listen({ host: config.metricsHost, port: config.metricsPort }),
    )
    logger.info({ address, metricsAddress }, "gateway listening")
    return yield* Effect.never
  })
  return yield* server.pipe(Effect.scoped, Effect.provide(bus), Effect.provide(pinoLoggerLayer(logger)))
})

// SIGTERM/SIGINT close the Scope: the servers drain, noted key usage is published, Redis and the
// pools close, and the consumer leaves its group before the process exits.
runMain(program)

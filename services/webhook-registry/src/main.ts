/**
 * Runs the webhook registry alone: config from the environment, Postgres, the bus (Kafka with an
 * outbox relay when KAFKA_BROKERS is set, else the single-node bus on the same Postgres), then
 * listens on PARLEY_WEBHOOK_REGISTRY_PORT.
 */
import { KafkaBus, SingleNodeBus } from "@parley/bus"
import { Database } from "@parley/db"
import { loadConfig, makeLogger, pinoLoggerLayer } from "@parley/platform"
import { Effect, Fiber, Layer, Redacted } from "effect"
import { makeWebhookRegistryApp } from "./app.ts"
import { WebhookRegistryConfig } from "./config.ts"

const SCHEMA = "webhook_registry"

const program = Effect.gen(function* () {
  const config = yield* loadConfig(WebhookRegistryConfig)
  const logger = makeLogger({ service: "webhook-registry", level: config.logLevel })
  const database = Database.layer({ url: config.databaseUrl })
  const bus =
    config.kafkaBrokers === undefined
      ? SingleNodeBus.layer()
      : KafkaBus.outboxLayer({ schema: SCHEMA }).pipe(
          Layer.provideMerge(
            KafkaBus.layer({
              brokers: config.kafkaBrokers,
              clientId: "webhook-registry",
              idempotent: config.kafkaIdempotent,
            }),
          ),
        )
  const server = Effect.gen(function* () {
    const app = yield* makeWebhookRegistryApp({
      logger,
      secretKey: Redacted.value(config.secretKey),
      internalSecret: config.internalSecret,
      allowPrivate: config.allowPrivate,
      schema: SCHEMA,
    })
    yield* Effect.promise(() => app.listen({ host: "0.0.0.0", port: config.port }))
    return yield* Effect.never
  })
  return yield* server.pipe(
    Effect.scoped,
    Effect.provide(bus.pipe(Layer.provideMerge(database))),
    Effect.provide(pinoLoggerLayer(logger)),
  )
})

const fiber = Effect.runFork(program.pipe(Effect.orDie))
// On SIGTERM/SIGINT interrupt the program: the Scope closes, so in-flight work finishes, consumers
// commit and leave their groups, and the pool ends, before the process exits.
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => {
    Effect.runFork(Fiber.interrupt(fiber))
  })
}

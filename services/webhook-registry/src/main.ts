/**
 * Runs the webhook registry alone: config from the environment, Postgres, the bus (Kafka with an
 * outbox relay when KAFKA_BROKERS is set, else the single-node bus on the same Postgres), then
 * listens on PARLEY_WEBHOOK_REGISTRY_HOST (else PARLEY_HOST) : PARLEY_WEBHOOK_REGISTRY_PORT.
 */
import { serviceInfrastructure } from "@parley/bus"
import { loadConfig, makeLogger, pinoLoggerLayer, runMain } from "@parley/platform"
import { Effect, Redacted } from "effect"
import { makeWebhookRegistryApp, WEBHOOK_REGISTRY_SCHEMA } from "./app.ts"
import { WebhookRegistryConfig } from "./config.ts"

const program = Effect.gen(function* () {
  const config = yield* loadConfig(WebhookRegistryConfig)
  const logger = makeLogger({ service: "webhook-registry", level: config.logLevel })
  const infrastructure = serviceInfrastructure({
    schema: WEBHOOK_REGISTRY_SCHEMA,
    clientId: "webhook-registry",
    databaseUrl: config.databaseUrl,
    kafkaBrokers: config.kafkaBrokers,
  })
  const server = Effect.gen(function* () {
    const app = yield* makeWebhookRegistryApp({
      logger,
      secretKey: Redacted.value(config.secretKey),
      internalSecret: config.internalSecret,
      allowPrivate: config.allowPrivate,
    })
    const address = yield* Effect.promise(() => app.listen({ host: config.host, port: config.port }))
    logger.info({ address }, "webhook registry listening")
    return yield* Effect.never
  })
  return yield* server.pipe(Effect.scoped, Effect.provide(infrastructure), Effect.provide(pinoLoggerLayer(logger)))
})

// SIGTERM/SIGINT close the Scope: in-flight work finishes, consumers commit and leave their groups,
// and the pool ends before the process exits.
runMain(program)

/**
 * Runs identity alone: config from the environment, Postgres, the bus (Kafka when KAFKA_BROKERS is
 * set, else the single-node bus on the same Postgres), then listens on PARLEY_IDENTITY_PORT.
 */
import { BusLive } from "@parley/bus"
import { Database } from "@parley/db"
import { loadConfig, makeLogger, pinoLoggerLayer } from "@parley/platform"
import { Effect, Fiber, Layer } from "effect"
import { IDENTITY_SCHEMA, makeIdentityApp } from "./app.ts"
import { IdentityConfig } from "./config.ts"

const program = Effect.gen(function* () {
  const config = yield* loadConfig(IdentityConfig)
  const logger = makeLogger({ service: "identity", level: config.logLevel })
  const infrastructure = BusLive({
    schema: IDENTITY_SCHEMA,
    kafka: config.kafkaBrokers === undefined ? undefined : { brokers: config.kafkaBrokers, clientId: "identity" },
  }).pipe(Layer.provideMerge(Database.layer({ url: config.databaseUrl })))
  const server = Effect.gen(function* () {
    const { app } = yield* makeIdentityApp({
      logger,
      internalSecret: config.internalSecret,
      operatorToken: config.operatorToken,
      publicUrl: config.publicUrl,
    })
    const address = yield* Effect.promise(() => app.listen({ host: config.host, port: config.port }))
    logger.info({ address }, "identity listening")
    return yield* Effect.never
  })
  return yield* server.pipe(Effect.scoped, Effect.provide(infrastructure), Effect.provide(pinoLoggerLayer(logger)))
})

const fiber = Effect.runFork(program.pipe(Effect.orDie))
// On SIGTERM/SIGINT interrupt the program: the Scope closes, so the server drains, the consumer
// commits and leaves its group, and the pool ends, before the process exits.
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => {
    Effect.runFork(Fiber.interrupt(fiber))
  })
}

/**
 * Runs identity alone: config from the environment, Postgres, the bus (Kafka when KAFKA_BROKERS is
 * set, else the single-node bus on the same Postgres), then listens on PARLEY_IDENTITY_PORT.
 */
import { serviceInfrastructure } from "@parley/bus"
import { loadConfig, makeLogger, pinoLoggerLayer, runMain } from "@parley/platform"
import { Effect } from "effect"
import { IDENTITY_SCHEMA, makeIdentityApp } from "./app.ts"
import { IdentityConfig } from "./config.ts"

const program = Effect.gen(function* () {
  const config = yield* loadConfig(IdentityConfig)
  const logger = makeLogger({ service: "identity", level: config.logLevel })
  const infrastructure = serviceInfrastructure({
    schema: IDENTITY_SCHEMA,
    clientId: "identity",
    databaseUrl: config.databaseUrl,
    kafkaBrokers: config.kafkaBrokers,
  })
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

runMain(program)

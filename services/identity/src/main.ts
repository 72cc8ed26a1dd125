/**
 * Runs identity alone: config from the environment, Postgres, the bus (Kafka when KAFKA_BROKERS is
 * set, else the single-node bus on the same Postgres), then listens on PARLEY_IDENTITY_PORT.
 */
import { KafkaBus, OutboxRelay, SingleNodeBus } from "@parley/bus"
import { Database } from "@parley/db"
import { loadConfig, makeLogger, pinoLoggerLayer } from "@parley/platform"
import { Effect, Layer } from "effect"
import { IDENTITY_SCHEMA, makeIdentityApp } from "./app.ts"
import { IdentityConfig } from "./config.ts"

const program = Effect.gen(function* () {
  const config = yield* loadConfig(IdentityConfig)
  const logger = makeLogger({ service: "identity", level: config.logLevel })
  const database = Database.layer({ url: config.databaseUrl })
  const bus =
    config.kafkaBrokers === undefined
      ? SingleNodeBus.layer()
      : Layer.merge(KafkaBus.layer({ brokers: config.kafkaBrokers }), OutboxRelay.layer({ schema: IDENTITY_SCHEMA }))
  const server = Effect.gen(function* () {
    const { app } = yield* makeIdentityApp({
      logger,
      internalSecret: config.internalSecret,
      operatorToken: config.operatorToken,
      publicUrl: config.publicUrl,
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

Effect.runFork(program.pipe(Effect.orDie))

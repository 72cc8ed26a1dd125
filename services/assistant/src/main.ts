/**
 * Runs the assistant alone: config from the environment, Postgres, the bus (Kafka when
 * KAFKA_BROKERS is set, else the single-node bus on the same Postgres), then listens on
 * PARLEY_ASSISTANT_PORT.
 */
import { BusLive } from "@parley/bus"
import { Database } from "@parley/db"
import { loadConfig, makeLogger, pinoLoggerLayer } from "@parley/platform"
import { Effect, Layer } from "effect"
import { ASSISTANT_SCHEMA, makeAssistantApp } from "./app.ts"
import { AssistantConfig } from "./config.ts"

const program = Effect.gen(function* () {
  const config = yield* loadConfig(AssistantConfig)
  const logger = makeLogger({ service: "assistant", level: config.logLevel })
  const infrastructure = BusLive({
    schema: ASSISTANT_SCHEMA,
    kafka: config.kafkaBrokers === undefined ? undefined : { brokers: config.kafkaBrokers, clientId: "assistant" },
  }).pipe(Layer.provideMerge(Database.layer({ url: config.databaseUrl })))
  const server = Effect.gen(function* () {
    const { app } = yield* makeAssistantApp({ logger, internalSecret: config.internalSecret, llm: config.llm })
    const address = yield* Effect.promise(() => app.listen({ host: config.host, port: config.port }))
    logger.info({ address }, "assistant listening")
    return yield* Effect.never
  })
  return yield* server.pipe(Effect.scoped, Effect.provide(infrastructure), Effect.provide(pinoLoggerLayer(logger)))
})

Effect.runFork(program.pipe(Effect.orDie))

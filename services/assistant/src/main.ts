/**
 * Runs the assistant alone: config from the environment, its Postgres and the bus (Kafka when
 * KAFKA_BROKERS is set, else the single-node bus in the same Postgres), listening on
 * PARLEY_ASSISTANT_HOST:PARLEY_ASSISTANT_PORT.
 */
import { serviceInfrastructure } from "@parley/bus"
import { loadConfig, makeLogger, pinoLoggerLayer, runMain } from "@parley/platform"
import { Effect } from "effect"
import { ASSISTANT_SCHEMA, makeAssistantApp } from "./app.ts"
import { AssistantConfig } from "./config.ts"

const program = Effect.gen(function* () {
  const config = yield* loadConfig(AssistantConfig)
  const logger = makeLogger({ service: "assistant", level: config.logLevel })
  const infrastructure = serviceInfrastructure({
    schema: ASSISTANT_SCHEMA,
    clientId: "assistant",
    databaseUrl: config.databaseUrl,
    kafkaBrokers: config.kafkaBrokers,
  })
  const server = Effect.gen(function* () {
    const { app } = yield* makeAssistantApp({ logger, internalSecret: config.internalSecret, llm: config.llm })
    const address = yield* Effect.promise(() => app.listen({ host: config.host, port: config.port }))
    logger.info({ address }, "assistant listening")
    return yield* Effect.never
  })
  return yield* server.pipe(Effect.scoped, Effect.provide(infrastructure), Effect.provide(pinoLoggerLayer(logger)))
})

runMain(program)

/**
 * Runs messaging alone: config from the environment, its Postgres (embedded under PARLEY_DATA_DIR
 * without DATABASE_URL) and the bus (Kafka when KAFKA_BROKERS is set, else the single-node bus in the
 * same Postgres), listening on PARLEY_MESSAGING_HOST:PARLEY_MESSAGING_PORT. A stop signal closes the
 * Scope: the server drains, the campaign worker finishes the batch in hand (claimed recipients get
 * their outcome recorded), the reply consumer commits and leaves its group, then the pool ends.
 */
import { serviceInfrastructure } from "@parley/bus"
import { loadConfig, makeLogger, pinoLoggerLayer, runMain } from "@parley/platform"
import { Effect } from "effect"
import { MESSAGING_SCHEMA, makeMessagingApp } from "./app.ts"
import { MessagingConfig } from "./config.ts"

const program = Effect.gen(function* () {
  const config = yield* loadConfig(MessagingConfig)
  const logger = makeLogger({ service: "messaging", level: config.logLevel })
  const infrastructure = serviceInfrastructure({
    schema: MESSAGING_SCHEMA,
    clientId: "messaging",
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    kafkaBrokers: config.kafkaBrokers,
  })
  const serve = Effect.gen(function* () {
    const { http } = yield* makeMessagingApp({ config, logger })
    const address = yield* Effect.promise(() => http.listen({ port: config.port, host: config.host }))
    logger.info({ address }, "messaging listening")
    return yield* Effect.never
  })
  return yield* serve.pipe(Effect.scoped, Effect.provide(infrastructure), Effect.provide(pinoLoggerLayer(logger)))
})

runMain(program)

import { BusLive } from "@parley/bus"
import { Database } from "@parley/db"
import { makeLogger, pinoLoggerLayer } from "@parley/platform"
import { Effect, Fiber, Layer, Option } from "effect"
import { makeMessagingApp, migrateMessaging } from "./app.ts"
import { MessagingConfig } from "./config.ts"

/**
 * The messaging service on its own: Postgres (or the embedded one), the bus (Kafka when
 * KAFKA_BROKERS is set, else single-node on Postgres), migrations before anything consumes.
 */
const program = Effect.gen(function* () {
  const config = yield* MessagingConfig
  const logger = makeLogger({ service: "messaging" })
  const database = Database.layer({ url: Option.getOrUndefined(config.databaseUrl), dataDir: config.dataDir })
  const migrated = Layer.effectDiscard(migrateMessaging).pipe(Layer.provideMerge(database))
  const brokers = Option.match(config.kafkaBrokers, {
    onNone: () => [],
    onSome: (list) =>
      list
        .split(",")
        .map((b) => b.trim())
        .filter((b) => b !== ""),
  })
  const bus = BusLive({ schema: "messaging", kafka: { brokers, clientId: "messaging" } })
  const infrastructure = bus.pipe(Layer.provideMerge(migrated))
  const serve = Effect.gen(function* () {
    const { http } = yield* makeMessagingApp({ config, logger })
    yield* Effect.promise(() => http.listen({ port: config.port, host: config.host }))
    yield* Effect.logInfo(`messaging listening on ${config.host}:${config.port}`)
    return yield* Effect.never
  })
  return yield* serve.pipe(Effect.scoped, Effect.provide(infrastructure), Effect.provide(pinoLoggerLayer(logger)))
})

const fiber = Effect.runFork(program.pipe(Effect.orDie))
// On SIGTERM/SIGINT interrupt the program: the Scope closes, so the server drains, the campaign
// worker finishes the batch in hand (claimed recipients get their outcome recorded), the reply
// consumer commits and leaves its group, and the pool ends, before the process exits.
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => {
    Effect.runFork(Fiber.interrupt(fiber))
  })
}

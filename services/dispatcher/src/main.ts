/**
 * Runs the dispatcher alone: config from the environment, Postgres, the bus (Kafka when
 * KAFKA_BROKERS is set, else the single-node bus on the same Postgres), the consumers, and a
 * health and metrics server on PARLEY_DISPATCHER_PORT.
 */
import { KafkaBus, SingleNodeBus } from "@parley/bus"
import { Database } from "@parley/db"
import { loadConfig, makeHttpServer, makeLogger, pinoLoggerLayer } from "@parley/platform"
import { Effect, Fiber, Layer, Option, Redacted } from "effect"
import { makeDispatcher } from "./app.ts"
import { DispatcherConfig } from "./config.ts"
import type { AttemptDelays } from "./schedule.ts"

const parseSchedule = (text: string | undefined): AttemptDelays | undefined => {
  if (text === undefined) return undefined
  const [first, second, third] = text.split(",").map((part) => Number.parseInt(part, 10))
  if ([first, second, third].some((n) => n === undefined || !Number.isFinite(n) || n < 0)) {
    throw new Error("PARLEY_DISPATCH_SCHEDULE_MS must be three non-negative integers: 0,5000,10000")
  }
  return [first as number, second as number, third as number]
}

const program = Effect.gen(function* () {
  const config = yield* loadConfig(DispatcherConfig)
  const logger = makeLogger({ service: "dispatcher", level: config.logLevel })
  const database = Database.layer({ url: config.databaseUrl })
  const bus =
    config.kafkaBrokers === undefined
      ? SingleNodeBus.layer()
      : KafkaBus.layer({
          brokers: config.kafkaBrokers,
          clientId: "dispatcher",
          idempotent: config.kafkaIdempotent,
          ...(Option.isSome(config.kafkaFetchMaxWaitMs) ? { maxWaitTimeMs: config.kafkaFetchMaxWaitMs.value } : {}),
          ...(Option.isSome(config.kafkaSessionTimeoutMs)
            ? { sessionTimeoutMs: config.kafkaSessionTimeoutMs.value }
            : {}),
        })
  const schedule = parseSchedule(config.schedule)
  const running = Effect.gen(function* () {
    const { sql } = yield* Database
    let consuming = false
    // Up before the consumers: joining a Kafka group can wait out a dead member's session.
    const health = makeHttpServer({
      service: "dispatcher",
      logger,
      readiness: [
        { name: "postgres", check: () => sql`select 1` },
        {
          name: "consumers",
          check: () => {
            if (!consuming) throw new Error("consumers not started yet")
          },
        },
      ],
    })
    yield* Effect.acquireRelease(
      Effect.promise(() => health.listen({ host: "0.0.0.0", port: config.port })),
      () => Effect.promise(() => health.close()),
    )
    yield* makeDispatcher({
      secretKey: Redacted.value(config.secretKey),
      allowPrivate: config.allowPrivate,
      ...(schedule === undefined ? {} : { schedule }),
    })
    consuming = true
    return yield* Effect.never
  })
  return yield* running.pipe(
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

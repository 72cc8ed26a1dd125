import { Database, runOutboxRelay } from "@parley/db"
import { type Duration, Effect, Layer } from "effect"
import { Bus } from "./Bus.ts"

/**
 * Publishes the rows services appended to `<schema>.outbox` (the Kafka mode's OutboxWriter) on the
 * bus, at least once and in order per key; see `runOutboxRelay` in @parley/db.
 */
export const OutboxRelay = {
  layer: (options: {
    readonly schema: string
    readonly batchSize?: number
    readonly pollInterval?: Duration.Input
  }): Layer.Layer<never, never, Database | Bus> =>
    Layer.effectDiscard(
      Effect.gen(function* () {
        const { sql } = yield* Database
        const bus = yield* Bus
        yield* Effect.forkScoped(
          runOutboxRelay({
            sql,
            schema: options.schema,
            ...(options.batchSize === undefined ? {} : { batchSize: options.batchSize }),
            ...(options.pollInterval === undefined ? {} : { pollInterval: options.pollInterval }),
            publish: (rows) =>
              bus.publish(
                rows.map((row) => ({ topic: row.topic, key: row.key, value: row.value, headers: row.headers })),
              ),
          }),
        )
      }),
    ),
} as const

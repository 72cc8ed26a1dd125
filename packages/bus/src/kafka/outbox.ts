import { Database, notifyOutbox, quoteIdentifier, runOutboxRelay } from "@parley/db"
import { Effect, Layer } from "effect"
import { Bus, OutboxWriter } from "../Bus.ts"

export interface KafkaOutboxOptions {
  /** The service's own schema; its migrations create `<schema>.outbox` (`outboxTableSql`). */
  readonly schema: string
}

/**
 * Kafka's transactional outbox: `append` inserts into `<schema>.outbox` inside the caller's
 * transaction (so records exist iff it commits), and a relay fiber publishes and deletes the rows
 * for as long as the layer lives. Needs the Bus (to publish) and the Database.
 */
export const outboxLayer = (options: KafkaOutboxOptions): Layer.Layer<OutboxWriter, never, Bus | Database> =>
  Layer.effect(
    OutboxWriter,
    Effect.gen(function* () {
      const { sql, embedded } = yield* Database
      const bus = yield* Bus
      const table = `${quoteIdentifier(options.schema)}.outbox`
      yield* Effect.forkScoped(
        runOutboxRelay({
          sql,
          embedded,
          schema: options.schema,
          publish: (rows) =>
            bus.publish(
              rows.map((row) => ({ topic: row.topic, key: row.key, value: row.value, headers: row.headers })),
            ),
        }),
      )
      return OutboxWriter.of({
        append: (tx, records) =>
          records.length === 0
            ? Effect.void
            : Effect.promise(async () => {
                const rows = records.map((r) => ({
                  topic: r.topic,
                  key: r.key,
                  value: r.value,
                  headers: r.headers ?? {},
                }))
                // Sent as text: a JS string bound to a jsonb parameter would be encoded as a JSON string.
                await tx.unsafe(
                  `insert into ${table} (topic, key, value, headers)
                   select topic, key, value, headers
                   from jsonb_to_recordset($1::text::jsonb) as r(topic text, key text, value text, headers jsonb)`,
                  [JSON.stringify(rows)],
                )
                notifyOutbox(sql, options.schema)
              }),
      })
    }),
  )

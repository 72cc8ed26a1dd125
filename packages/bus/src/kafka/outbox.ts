import { type Database, quoteIdentifier } from "@parley/db"
import { Effect, Layer } from "effect"
import { type Bus, OutboxWriter } from "../Bus.ts"
import { OutboxRelay } from "../OutboxRelay.ts"

export interface KafkaOutboxOptions {
  /** The service's own schema; its migrations create `<schema>.outbox` (`outboxTableSql`). */
  readonly schema: string
}

/**
 * Kafka's transactional outbox: `append` inserts into `<schema>.outbox` inside the caller's
 * transaction (so records exist iff it commits), and `OutboxRelay` publishes and deletes the rows for
 * as long as the layer lives. Needs the Bus (to publish) and the Database.
 */
export const outboxLayer = (options: KafkaOutboxOptions): Layer.Layer<OutboxWriter, never, Bus | Database> =>
  Layer.merge(outboxWriterLayer(options), OutboxRelay.layer({ schema: options.schema }))

/** The writer alone, for processes that leave relaying to another instance. */
export const outboxWriterLayer = (options: KafkaOutboxOptions): Layer.Layer<OutboxWriter> =>
  Layer.sync(OutboxWriter, () => {
    const table = `${quoteIdentifier(options.schema)}.outbox`
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
            }),
    })
  })

import { Database, migrate, quoteIdentifier } from "@parley/db"
import { Effect, Layer } from "effect"
import { type Bus, OutboxWriter } from "../Bus.ts"
import { tracedOutbox } from "../tracing.ts"
import { OutboxRelay } from "./relay.ts"
import { outboxTableSql } from "./table.ts"

export interface OutboxOptions {
  /** The schema of `<schema>.outbox`: the service's own (or standalone's one for the whole process). */
  readonly schema: string
}

/**
 * The transactional outbox on Kafka: `<schema>.outbox` created if missing, an `OutboxWriter` whose
 * `append` inserts into it inside the caller's transaction (so records exist iff it commits), and
 * the relay that publishes and deletes the rows for as long as the layer lives. (On the single-node
 * bus the log is the outbox: `SingleNodeBus.layer` provides the writer.)
 */
export const outboxLayer = (options: OutboxOptions): Layer.Layer<OutboxWriter, never, Bus | Database> =>
  Layer.merge(outboxWriterLayer(options), OutboxRelay.layer({ schema: options.schema })).pipe(
    Layer.provide(outboxTable(options)),
  )

/** Creates `<schema>.outbox` (idempotent; recorded in the schema's migrations as `outbox`). */
const outboxTable = (options: OutboxOptions): Layer.Layer<never, never, Database> =>
  Layer.effectDiscard(
    Effect.gen(function* () {
      const { sql } = yield* Database
      yield* migrate({
        sql,
        schema: options.schema,
        migrations: [{ id: "outbox", sql: outboxTableSql(options.schema) }],
      })
    }),
  )

/** The writer alone, for processes that leave relaying to another instance. */
export const outboxWriterLayer = (options: OutboxOptions): Layer.Layer<OutboxWriter> =>
  Layer.sync(OutboxWriter, () => {
    const table = `${quoteIdentifier(options.schema)}.outbox`
    return OutboxWriter.of(
      tracedOutbox({
        direct: false,
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
      }),
    )
  })

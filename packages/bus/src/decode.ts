import { type BusValueError, decodeBusValue } from "@parley/contracts"
import { Effect, type Schema } from "effect"
import type { BusRecord } from "./Bus.ts"

// biome-ignore lint/suspicious/noExplicitAny: any codec whose encoded side is JSON-compatible
type Codec = Schema.Codec<any, any, never, never>

/**
 * A consumer's handler that first decodes each record's value by `schema` (its issues all at once).
 * A record that does not decode is logged — topic, partition, offset and the issues, never the value
 * — and skipped: no version of the consumer could ever read it, and retrying it would hold its
 * partition for good.
 */
export const decodeOrSkip = <S extends Codec, E, R>(
  schema: S,
  handle: (value: S["Type"], record: BusRecord) => Effect.Effect<void, E, R>,
): ((record: BusRecord) => Effect.Effect<void, E, R>) => {
  const decode = decodeBusValue(schema)
  const skip = (record: BusRecord) => (error: BusValueError) =>
    Effect.logError(`skipping an undecodable ${error.schema} record`, {
      topic: record.topic,
      partition: record.partition,
      offset: String(record.offset),
      issues: error.issues,
    })
  return (record) =>
    decode(record.value).pipe(
      Effect.matchEffect({ onFailure: skip(record), onSuccess: (value) => handle(value, record) }),
    )
}

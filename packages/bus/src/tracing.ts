/**
 * Trace context on bus records (docs/contract.md §18): a record appended or published inside a trace
 * carries the W3C `traceparent` (and `tracestate`) of the span that produced it as record headers
 * — Kafka record headers, the single-node log's `headers` column, the outbox's — and each record a
 * consumer handles is a CONSUMER span, child of that context, inside which the handler runs (so
 * what it publishes and calls continues the trace). Both wrappers are applied where a bus is made;
 * without tracing they cost one branch per call.
 */
import {
  currentTraceHeaders,
  endSpan,
  extractContext,
  Otel,
  startSpan,
  tracingEnabled,
  withTraceContext,
} from "@parley/platform"
import { Effect, Exit } from "effect"
import type { Bus, BusRecord, OutboxWriter, OutgoingRecord } from "./Bus.ts"

type BusService = Bus["Service"]
type OutboxService = OutboxWriter["Service"]

/** The records with the current span's context added where a record has none of its own. */
const withTraceHeaders = (records: ReadonlyArray<OutgoingRecord>) =>
  Effect.map(currentTraceHeaders, (trace): ReadonlyArray<OutgoingRecord> => {
    if (trace.traceparent === undefined) return records
    return records.map((record) =>
      record.headers?.traceparent === undefined ? { ...record, headers: { ...record.headers, ...trace } } : record,
    )
  })

/** Runs `handle` for a record as a CONSUMER span continuing the record's trace. */
export const traceHandler =
  <E, R>(groupId: string, handle: (record: BusRecord) => Effect.Effect<void, E, R>) =>
  (record: BusRecord): Effect.Effect<void, E, R> => {
    if (!tracingEnabled()) return handle(record)
    return Effect.suspend(() => {
      const started = startSpan(
        `${record.topic} process`,
        {
          kind: Otel.SpanKind.CONSUMER,
          attributes: {
            "messaging.operation.type": "process",
            "messaging.destination.name": record.topic,
            "messaging.destination.partition.id": String(record.partition),
            "messaging.consumer.group.name": groupId,
            "messaging.kafka.offset": Number(record.offset),
          },
        },
        extractContext(record.headers),
      )
      return withTraceContext(handle(record), started?.context).pipe(
        Effect.onExit((exit) =>
          Effect.sync(() => {
            if (started !== undefined) endSpan(started.span, Exit.isFailure(exit) ? exit.cause : undefined)
          }),
        ),
      )
    })
  }

/** A bus whose records carry the publisher's trace and whose handlers run in their record's. */
export const tracedBus = (bus: BusService): BusService => ({
  publish: (records) =>
    tracingEnabled()
      ? Effect.flatMap(withTraceHeaders(records), (traced) => bus.publish(traced))
      : bus.publish(records),
  subscribe: (options, handle) => bus.subscribe(options, traceHandler(options.groupId, handle)),
})

/** An outbox whose records carry the appender's trace, kept until the relay publishes them. */
export const tracedOutbox = (outbox: OutboxService): OutboxService => ({
  direct: outbox.direct,
  append: (tx, records) =>
    tracingEnabled()
      ? Effect.flatMap(withTraceHeaders(records), (traced) => outbox.append(tx, traced))
      : outbox.append(tx, records),
})

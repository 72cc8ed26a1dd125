import { Bus, type BusRecord } from "@parley/bus"
import { AttemptRecord, DeliveryRecord, decodeBusValue, Topics } from "@parley/contracts"
import { Database } from "@parley/db"
import { Effect } from "effect"
import { recordAttempt, recordDelivery } from "./delivery-log.ts"

/** A record that does not decode is logged and skipped: retrying it could never succeed. */
const decodeOrSkip =
  <A>(decode: (value: string) => Effect.Effect<A, unknown>, then: (value: A) => Effect.Effect<void, unknown>) =>
  (record: BusRecord): Effect.Effect<void, unknown> =>
    decode(record.value).pipe(
      Effect.matchEffect({
        onFailure: (error) =>
          Effect.logError("skipping a record that does not decode", {
            topic: record.topic,
            offset: String(record.offset),
            error: String(error),
          }),
        onSuccess: then,
      }),
    )

/**
 * Keeps the delivery log from the dispatcher's topics: every first attempt's envelope from
 * `parley.dispatch.deliveries.v1` (for redeliver and replay) and every attempt's outcome from
 * `parley.dispatch.attempts.v1`. Both writes are idempotent, so redelivered records change nothing.
 */
export const runDeliveryLogConsumers = (schema: string, groupPrefix: string) =>
  Effect.gen(function* () {
    const bus = yield* Bus
    const { sql } = yield* Database
    yield* bus.subscribe(
      { groupId: `${groupPrefix}deliveries`, topics: [Topics.dispatchDeliveries], window: 256 },
      decodeOrSkip(decodeBusValue(DeliveryRecord), (delivery) =>
        Effect.tryPromise(() => recordDelivery(sql, schema, delivery, JSON.stringify(delivery.data))),
      ),
    )
    yield* bus.subscribe(
      { groupId: `${groupPrefix}attempts`, topics: [Topics.dispatchAttempts], window: 1 },
      decodeOrSkip(decodeBusValue(AttemptRecord), (attempt) =>
        Effect.tryPromise(() => recordAttempt(sql, schema, attempt)),
      ),
    )
  })

import { Bus, decodeOrSkip } from "@parley/bus"
import { AttemptRecord, DeliveryRecord, Topics } from "@parley/contracts"
import { Database, makeGroupCommit } from "@parley/db"
import { Effect } from "effect"
import { recordAttempts, recordDelivery } from "../deliveries/delivery-log.ts"

/**
 * Keeps the delivery log from the dispatcher's topics: every attempt's outcome from
 * `parley.dispatch.attempts.v1`, and each delivery's envelope (for redeliver and replay) from its
 * first attempt there — or, for a redeliver or replay, from `parley.dispatch.deliveries.v1`, where
 * it is queued (a dispatcher of an earlier version queued every delivery there too). Every write is
 * idempotent, so redelivered records change nothing.
 */
export const runDeliveryLogConsumers = (schema: string, groupPrefix: string) =>
  Effect.gen(function* () {
    const bus = yield* Bus
    const { sql } = yield* Database
    yield* bus.subscribe(
      { groupId: `${groupPrefix}deliveries`, topics: [Topics.dispatchDeliveries], window: 256 },
      decodeOrSkip(DeliveryRecord, (delivery) =>
        Effect.tryPromise(() => recordDelivery(sql, schema, delivery, JSON.stringify(delivery.data))),
      ),
    )
    // Attempts are recorded in batches: every handler's attempt joins the transaction being formed.
    // One batch at a time: two would update the same webhooks' rows in whatever order they came.
    const attempts = yield* makeGroupCommit(
      (tx, batch: ReadonlyArray<AttemptRecord>) =>
        Effect.tryPromise(() => recordAttempts(tx, schema, batch)).pipe(Effect.as(batch.map(() => undefined))),
      { maxConcurrent: 1, maxBatch: 500 },
    )
    yield* bus.subscribe(
      { groupId: `${groupPrefix}attempts`, topics: [Topics.dispatchAttempts], window: 512 },
      decodeOrSkip(AttemptRecord, (attempt) => attempts.submit(attempt)),
    )
  })

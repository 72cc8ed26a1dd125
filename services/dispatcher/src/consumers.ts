import { Bus, type BusRecord, type OutgoingRecord } from "@parley/bus"
import {
  DeliveryRecord,
  decodeBusValue,
  EventRecord,
  EventTopics,
  encodeBusValue,
  isoTimestamp,
  Topics,
  WebhookChanged,
} from "@parley/contracts"
import { Effect } from "effect"
import { type AttemptContext, attemptDelivery, recordsOf } from "./attempt.ts"
import type { AttemptLog } from "./attempt-log.ts"
import { deliveryIdFor } from "./delivery-id.ts"
import { DirectoryCacheMs, type DispatchTarget, type WebhookDirectory } from "./webhook-directory.ts"
import type { WebhookLimiter } from "./webhook-limiter.ts"

export interface DispatcherParts {
  readonly directory: WebhookDirectory
  readonly attemptLog: AttemptLog
  /** Publishes through a group commit shared by every handler of this process. */
  readonly publish: (records: ReadonlyArray<OutgoingRecord>) => Promise<void>
  /** `deliveryId/attempt` of the attempts running in this process. */
  readonly running: Set<string>
  readonly limiter: WebhookLimiter
  readonly attempts: AttemptContext
  /** How long a delivery for a saturated webhook is parked on the delay topic before it is tried. */
  readonly parkMs: number
  readonly groupPrefix: string
  /** Records in flight per partition of the event and delivery topics: large, so slow endpoints block no one. */
  readonly deliveryWindow: number
}

/** A record that does not decode is logged and skipped: retrying it could never succeed. */
const decodeOrSkip =
  <A>(decode: (value: string) => Effect.Effect<A, unknown>, then: (value: A) => Effect.Effect<void, unknown>) =>
  (record: BusRecord): Effect.Effect<void, unknown> =>
    decode(record.value).pipe(
      Effect.matchEffect({
        onFailure: (error) =>
          Effect.logError("skipping a record that does not decode", {
            topic: record.topic,
            partition: record.partition,
            offset: String(record.offset),
            error: String(error),
          }),
        onSuccess: then,
      }),
    )

/** Keeps the projection of webhooks current from `parley.registry.webhooks.v1`. */
export const projectWebhooks = (parts: DispatcherParts) =>
  Effect.gen(function* () {
    const bus = yield* Bus
    return yield* bus.subscribe(
      { groupId: `${parts.groupPrefix}projection`, topics: [Topics.registryWebhooks], window: 64 },
      decodeOrSkip(decodeBusValue(WebhookChanged), (change) => Effect.promise(() => parts.directory.apply(change))),
    )
  })

/**
 * One delivery per subscribed, enabled webhook of the event's organization, with an id derived from
 * (event, webhook) so a repeated fan-out reuses it — and its first attempt made right here. The
 * event's position is committed once every one of its deliveries has made its first attempt (and
 * published what it led to) or been parked, so a crash repeats the fan-out and the attempt log
 * tells which attempts were already made. Handing each delivery to a topic of its own first cost
 * an append, a fetch and a decode per delivery — a third of the dispatcher's CPU on the single-node
 * bus and a fetch wait of latency on Kafka (test/bench/dispatcher).
 */
export const fanOutEvents = (parts: DispatcherParts) =>
  Effect.gen(function* () {
    const bus = yield* Bus
    return yield* bus.subscribe(
      { groupId: `${parts.groupPrefix}fanout`, topics: EventTopics, window: parts.deliveryWindow },
      decodeOrSkip(decodeBusValue(EventRecord), (event) =>
        Effect.tryPromise(async () => {
          const targets = await parts.directory.subscribers(event.orgId, event.event)
          if (targets.length === 0) return
          const notBefore = isoTimestamp(Date.now())
          await Promise.all(
            targets.map((target) =>
              deliver(
                parts,
                {
                  ...event,
                  deliveryId: deliveryIdFor(event.eventId, target.webhookId),
                  webhookId: target.webhookId,
                  attempt: 1,
                  notBefore,
                  reason: "event",
                } as DeliveryRecord,
                target,
              ),
            ),
          )
        }),
      ),
    )
  })

// The attempt path below is plain async code inside one Effect.tryPromise per record: it runs for
// every delivery, and as a chain of Effects each step cost a fiber suspension of its own.

/**
 * One attempt of a delivery, unless this process made it before a crash (then the records it led
 * to are published again); a webhook that is saturated gets the record parked on the delay topic
 * (no attempt is made or counted), so its backlog never fills the window.
 */
const attemptOnce = async (parts: DispatcherParts, delivery: DeliveryRecord, target: DispatchTarget) => {
  const made = await parts.attemptLog.find(delivery.deliveryId, delivery.attempt)
  if (made !== undefined) return parts.publish(made.records ?? recordsOf(delivery, made.outcome))
  const run = await parts.limiter.tryRun(
    delivery.webhookId,
    () => attemptDelivery(parts.attempts, delivery, target),
    (outcome) => !outcome.ok,
  )
  if (run.saturated) {
    const parked = { ...delivery, notBefore: isoTimestamp(Date.now() + parts.parkMs) }
    return parts.publish([
      { topic: Topics.dispatchRetry5s, key: delivery.webhookId, value: encodeBusValue(DeliveryRecord, parked) },
    ])
  }
  await parts.attemptLog.record(delivery.deliveryId, delivery.attempt, run.value)
  await parts.publish(recordsOf(delivery, run.value))
}

/** An attempt of a delivery to its webhook as it is now, unless a twin of it is running here. */
const deliver = async (parts: DispatcherParts, delivery: DeliveryRecord, target: DispatchTarget) => {
  // A record published twice (a republish after a crash) whose twin is running here: it publishes.
  const key = `${delivery.deliveryId}/${delivery.attempt}`
  if (parts.running.has(key)) return
  parts.running.add(key)
  try {
    await attemptOnce(parts, delivery, target)
  } finally {
    parts.running.delete(key)
  }
}

/** How long a queued delivery waits for the projection to learn of a webhook it has never seen. */
export const UnknownWebhookWaitMs = 30_000

/**
 * The webhook of a queued delivery as it is now, undefined when it was deleted. The registry
 * queues a delivery only for a webhook it holds, but the change that made it known travels on
 * another topic, read by another consumer: a test event sent right after the webhook's creation
 * can arrive first. So an unknown webhook is looked up again (each lookup ends the cache's entry,
 * `DirectoryCacheMs`) for up to `UnknownWebhookWaitMs`; still unknown then, the caller drops the
 * delivery and says so in the log.
 */
const targetOf = async (
  parts: DispatcherParts,
  delivery: DeliveryRecord,
): Promise<DispatchTarget | "deleted" | "unknown"> => {
  const deadline = Date.now() + UnknownWebhookWaitMs
  for (;;) {
    const found = await parts.directory.lookup(delivery.webhookId)
    if (found !== "unknown" || Date.now() >= deadline) return found
    await new Promise((resolve) => setTimeout(resolve, DirectoryCacheMs))
  }
}

/**
 * Attempts deliveries from the delay topics and from the deliveries topic (an administrator's
 * redeliver or replay): a record waits until its `notBefore`, then makes its attempt within its
 * webhook's bound.
 */
export const deliverDeliveries = (parts: DispatcherParts, topic: string, name: string) =>
  Effect.gen(function* () {
    const bus = yield* Bus
    return yield* bus.subscribe(
      { groupId: `${parts.groupPrefix}${name}`, topics: [topic], window: parts.deliveryWindow },
      decodeOrSkip(decodeBusValue(DeliveryRecord), (delivery) =>
        Effect.gen(function* () {
          const wait = Date.parse(delivery.notBefore) - Date.now()
          if (wait > 0) yield* Effect.sleep(wait)
          const unknown = yield* Effect.tryPromise(async () => {
            const target = await targetOf(parts, delivery)
            if (target === "unknown") return true
            // Deleted or disabled since: nothing is sent and nothing stays queued for it. A test
            // delivery goes to its webhook enabled or not (CONTRACT.md §5), deleted aside.
            if (target !== "deleted" && (target.enabled || delivery.test === true))
              await deliver(parts, delivery, target)
            return false
          })
          if (unknown) {
            yield* Effect.logWarning("dropping a delivery of a webhook this dispatcher has never learnt of", {
              deliveryId: delivery.deliveryId,
              webhookId: delivery.webhookId,
            })
          }
        }),
      ),
    )
  })

/**
 * Starts every consumer of the dispatcher; they run until the surrounding Scope closes. They join
 * their groups together: on Kafka each join waits out the broker's initial rebalance delay (3 s by
 * default), and one after another the five made the dispatcher ~15 s late to become ready.
 */
export const runDispatcherConsumers = (parts: DispatcherParts) =>
  Effect.gen(function* () {
    yield* Effect.all(
      [
        projectWebhooks(parts),
        fanOutEvents(parts),
        deliverDeliveries(parts, Topics.dispatchDeliveries, "deliveries"),
        deliverDeliveries(parts, Topics.dispatchRetry5s, "retry-5s"),
        deliverDeliveries(parts, Topics.dispatchRetry10s, "retry-10s"),
      ],
      { concurrency: "unbounded", discard: true },
    )
  })

import { Bus, decodeOrSkip } from "@parley/bus"
import { DeliveryRecord, EventRecord, EventTopics, isoTimestamp, Topics, WebhookChanged } from "@parley/contracts"
import { Effect } from "effect"
import { Deliveries } from "../delivery/deliveries.ts"
import { deliveryIdFor } from "../delivery/delivery-id.ts"
import {
  DirectoryCacheMs,
  type DispatchTarget,
  isDeliverableTo,
  WebhookDirectory,
} from "../webhooks/webhook-directory.ts"

interface DispatcherParts extends ConsumerOptions {
  readonly directory: WebhookDirectory["Service"]
  /** Makes each attempt within its webhook's share, or parks it (docs/design.md §3.3). */
  readonly runner: Deliveries["Service"]
}

export interface ConsumerOptions {
  readonly groupPrefix: string
  /** Records in flight per partition of the event and deliveries topics. */
  readonly deliveryWindow: number
  /**
   * Records in flight per partition of the delay topics, most of them waiting for their `notBefore`:
   * a partition keeps its retries on time up to this many per gap (2,048 per 10 s ≈ 200/s).
   */
  readonly delayWindow: number
}

/** Keeps the projection of webhooks current from `parley.registry.webhooks.v1`. */
export const projectWebhooks = (parts: DispatcherParts) =>
  Effect.gen(function* () {
    const bus = yield* Bus
    return yield* bus.subscribe(
      { groupId: `${parts.groupPrefix}projection`, topics: [Topics.registryWebhooks], window: 64 },
      decodeOrSkip(WebhookChanged, (change) => Effect.promise(() => parts.directory.apply(change))),
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
      decodeOrSkip(EventRecord, (event) =>
        Effect.tryPromise(async () => {
          const targets = await parts.directory.subscribers(event.orgId, event.event)
          if (targets.length === 0) return
          const notBefore = isoTimestamp(Date.now())
          await Promise.all(
            targets.map((target) =>
              parts.runner.deliver(
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

/** How long a queued delivery waits for the projection to learn of a webhook it has never seen. */
export const UnknownWebhookWaitMs = 30_000

/**
 * The webhook of a queued delivery as it is now, `"deleted"`, or `"unknown"`. The registry queues a
 * delivery only for a webhook it holds, but the change that made it known travels on another topic,
 * read by another consumer: a test event sent right after the webhook's creation can arrive first.
 * So an unknown webhook is looked up again (each lookup ends the cache's entry, `DirectoryCacheMs`)
 * for up to `UnknownWebhookWaitMs`; still unknown then, the caller drops the delivery and says so.
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
export const deliverDeliveries = (parts: DispatcherParts, topic: string, name: string, window: number) =>
  Effect.gen(function* () {
    const bus = yield* Bus
    return yield* bus.subscribe(
      { groupId: `${parts.groupPrefix}${name}`, topics: [topic], window },
      decodeOrSkip(DeliveryRecord, (delivery) =>
        Effect.gen(function* () {
          const wait = Date.parse(delivery.notBefore) - Date.now()
          if (wait > 0) yield* Effect.sleep(wait)
          const unknown = yield* Effect.tryPromise(async () => {
            const target = await targetOf(parts, delivery)
            if (target === "unknown") return true
            // Deleted or disabled since: nothing is sent and nothing stays queued for it. A test
            // delivery goes to its webhook enabled or not (docs/contract.md §5), deleted aside.
            const live = target === "deleted" ? undefined : target
            if (isDeliverableTo(live, delivery)) await parts.runner.deliver(delivery, live)
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
export const runDispatcherConsumers = (options: ConsumerOptions) =>
  Effect.gen(function* () {
    const parts: DispatcherParts = { ...options, directory: yield* WebhookDirectory, runner: yield* Deliveries }
    yield* Effect.all(
      [
        projectWebhooks(parts),
        fanOutEvents(parts),
        deliverDeliveries(parts, Topics.dispatchDeliveries, "deliveries", parts.deliveryWindow),
        deliverDeliveries(parts, Topics.dispatchRetry5s, "retry-5s", parts.delayWindow),
        deliverDeliveries(parts, Topics.dispatchRetry10s, "retry-10s", parts.delayWindow),
      ],
      { concurrency: "unbounded", discard: true },
    )
  })

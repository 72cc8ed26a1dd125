import type { OutgoingRecord } from "@parley/bus"
import type { DeliveryRecord } from "@parley/contracts"
import { outsideTrace, withActiveTrace } from "@parley/platform"
import { Effect } from "effect"
import type { DeliveryObserver } from "../metrics.ts"
import { type DispatchTarget, isDeliverableTo, type WebhookDirectory } from "../webhooks/webhook-directory.ts"
import { type AttemptContext, attemptDelivery, recordsOf } from "./attempt.ts"
import type { AttemptLog, LoggedOutcome } from "./attempt-log.ts"
import type { ParkedDeliveries } from "./parked-deliveries.ts"
import {
  type AttemptClass,
  classOf,
  type Slot,
  type WebhookShares,
  type WebhookSharesOptions,
} from "./webhook-shares.ts"

export interface AttemptRunnerParts {
  readonly directory: Pick<WebhookDirectory["Service"], "target">
  readonly attemptLog: AttemptLog
  readonly parked: ParkedDeliveries
  /** Publishes through a group commit shared by every handler of this process. */
  readonly publish: (records: ReadonlyArray<OutgoingRecord>) => Promise<void>
  /**
   * Logs an attempt's outcome and publishes the records it leads to, in that order: once the log
   * holds the attempt, a redelivered record publishes from it instead of making the attempt again.
   */
  readonly settle: (logged: LoggedOutcome, records: ReadonlyArray<OutgoingRecord>) => Promise<void>
  readonly attempts: AttemptContext
  /** Runs a log effect (the runner is plain async code; logging goes through the service's logger). */
  readonly log: (effect: Effect.Effect<void>) => void
  /** Told of each attempt made and each delivery parked (the service's metrics); none in some tests. */
  readonly observe?: DeliveryObserver | undefined
}

const keyOf = (delivery: { readonly deliveryId: string; readonly attempt: number }) =>
  `${delivery.deliveryId}/${delivery.attempt}`
const laneOf = (webhookId: string, attemptClass: AttemptClass) => `${attemptClass}:${webhookId}`

/**
 * Makes the attempts of deliveries within each webhook's share (docs/design.md §3.3). A delivery from a
 * bus record starts at once when its webhook has a free place, waits briefly for one while the
 * webhook answers promptly, and is otherwise parked durably (`ParkedDeliveries`), so the record's
 * partition moves on and commits. A webhook's parked deliveries are claimed back as its places free
 * — retries before first attempts —, and every other free place while deliveries also wait in memory.
 *
 * The path runs for every delivery, so it is plain async code (a chain of Effects cost a fiber
 * suspension per step: test/bench/dispatcher).
 */
export class AttemptRunner {
  readonly #parts: AttemptRunnerParts
  readonly shares: WebhookShares
  /** `deliveryId/attempt` of the attempts running in this process (a twin record is dropped). */
  readonly #running = new Set<string>()
  /** Lanes this process believes have parked deliveries (set when parking or sweeping). */
  readonly #parkedLanes = new Set<string>()
  /** Lanes whose claim is under way; `true` when another drain was asked for meanwhile. */
  readonly #draining = new Map<string, boolean>()
  /** Parked deliveries claimed by this process and not finished. */
  readonly #claimed = new Map<string, { readonly deliveryId: string; readonly attempt: number }>()
  #stopping = false

  constructor(
    parts: AttemptRunnerParts,
    makeShares: (lanes: Pick<WebhookSharesOptions, "onFree" | "hasParked">) => WebhookShares,
  ) {
    this.#parts = parts
    this.shares = makeShares({
      hasParked: (webhookId, attemptClass) => this.#parkedLanes.has(laneOf(webhookId, attemptClass)),
      onFree: (webhookId, attemptClass) => {
        if (this.#parkedLanes.has(laneOf(webhookId, attemptClass))) this.#drain(webhookId, attemptClass)
      },
    })
  }

  /** One attempt of a delivery from a bus record; resolves once it was made and published, or parked. */
  async deliver(delivery: DeliveryRecord, target: DispatchTarget): Promise<void> {
    const key = keyOf(delivery)
    // A record published twice (a republish after a crash) whose twin is running here: it publishes.
    if (this.#running.has(key)) return
    this.#running.add(key)
    try {
      const parts = this.#parts
      const made = await parts.attemptLog.find(delivery.deliveryId, delivery.attempt)
      if (made !== undefined) return await parts.publish(made.records ?? recordsOf(delivery, made.outcome))
      const attemptClass = classOf(delivery.attempt)
      const slot = await this.shares.acquire(delivery.webhookId, attemptClass)
      if (slot === undefined) {
        await parts.parked.park(delivery)
        parts.observe?.parked(delivery)
        this.#parkedLanes.add(laneOf(delivery.webhookId, attemptClass))
        this.#drain(delivery.webhookId, attemptClass)
        return
      }
      await this.#attempt(delivery, target, slot)
    } finally {
      this.#running.delete(key)
    }
  }

  /** Marks lanes with parked deliveries (found by a sweep, maybe parked by another process) and drains them. */
  adopt(work: ReadonlyArray<{ readonly webhookId: string; readonly attemptClass: AttemptClass }>): void {
    for (const { webhookId, attemptClass } of work) {
      this.#parkedLanes.add(laneOf(webhookId, attemptClass))
      this.#drain(webhookId, attemptClass)
    }
  }

  /** Whether this process knows of parked deliveries not yet finished. */
  get hasParkedWork(): boolean {
    return this.#parkedLanes.size > 0 || this.#claimed.size > 0
  }

  /** Gives back the claims of parked deliveries still running (a graceful stop), so nobody waits out their lease. */
  async releaseClaims(): Promise<void> {
    this.#stopping = true
    await this.#parts.parked.unclaim([...this.#claimed.values()])
  }

  async #attempt(delivery: DeliveryRecord, target: DispatchTarget, slot: Slot): Promise<void> {
    const parts = this.#parts
    let outcome: Awaited<ReturnType<typeof attemptDelivery>>
    try {
      outcome = await attemptDelivery(parts.attempts, delivery, target)
    } finally {
      slot.release()
    }
    parts.observe?.attempted(delivery, outcome)
    // Through a group commit shared by every handler: each record says its own trace.
    await parts.settle(
      { deliveryId: delivery.deliveryId, attempt: delivery.attempt, outcome },
      withActiveTrace(recordsOf(delivery, outcome)),
    )
  }

  /** Claims as many of the lane's parked deliveries as it has free places, until none are left. */
  #drain(webhookId: string, attemptClass: AttemptClass): void {
    const lane = laneOf(webhookId, attemptClass)
    if (this.#stopping) return
    if (this.#draining.has(lane)) {
      this.#draining.set(lane, true)
      return
    }
    this.#draining.set(lane, false)
    // Parked deliveries kept no trace context: their attempts are not the triggering delivery's.
    void outsideTrace(async () => {
      try {
        for (let again = true; again; again = this.#draining.get(lane) === true) {
          this.#draining.set(lane, false)
          const slots: Array<Slot> = []
          for (let slot = this.shares.tryAcquire(webhookId, attemptClass); slot !== undefined; ) {
            slots.push(slot)
            slot = this.shares.tryAcquire(webhookId, attemptClass)
          }
          if (slots.length === 0) return
          let claimed: Array<DeliveryRecord> = []
          try {
            claimed = await this.#parts.parked.claim(webhookId, attemptClass, slots.length)
          } catch (error) {
            // The sweep finds the lane again.
            this.#parts.log(Effect.logWarning("claiming parked deliveries failed", { webhookId, error: String(error) }))
            this.#parkedLanes.delete(lane)
          }
          // Fewer than asked: the queue is empty (or the rest is another process's), so deliveries of
          // this class start directly again. Cleared before the spare places are released, so that
          // their release does not ask for another drain.
          if (claimed.length < slots.length) this.#parkedLanes.delete(lane)
          for (const spare of slots.splice(claimed.length)) spare.release()
          for (const [i, delivery] of claimed.entries()) void this.#runClaimed(delivery, slots[i] as Slot)
        }
      } finally {
        this.#draining.delete(lane)
      }
    })
  }

  async #runClaimed(delivery: DeliveryRecord, slot: Slot): Promise<void> {
    const parts = this.#parts
    const key = keyOf(delivery)
    if (this.#running.has(key)) {
      // Its twin from the bus runs here: it either makes the attempt or parks it again (into this row).
      slot.release()
      await parts.parked.unclaim([delivery]).catch(() => undefined)
      return
    }
    this.#running.add(key)
    this.#claimed.set(key, { deliveryId: delivery.deliveryId, attempt: delivery.attempt })
    try {
      const made = await parts.attemptLog.find(delivery.deliveryId, delivery.attempt)
      if (made !== undefined) {
        slot.release()
        await parts.publish(made.records ?? recordsOf(delivery, made.outcome))
      } else {
        const target = await parts.directory.target(delivery.webhookId)
        if (!isDeliverableTo(target, delivery)) {
          // Deleted or disabled since it was parked: nothing is sent and nothing stays queued for it
          // (a test delivery goes to its webhook enabled or not, docs/contract.md §5).
          slot.release()
        } else {
          await this.#attempt(delivery, target, slot)
        }
      }
      await parts.parked.remove(delivery.deliveryId, delivery.attempt)
    } catch (error) {
      slot.release()
      // Stopping: the database or bus closed under an attempt still running; the claim was given back.
      if (this.#stopping) return
      parts.log(
        Effect.logWarning("a parked delivery's attempt failed to complete; it stays parked", {
          deliveryId: delivery.deliveryId,
          attempt: delivery.attempt,
          error: String(error),
        }),
      )
      await parts.parked.unclaim([delivery]).catch(() => undefined)
    } finally {
      this.#running.delete(key)
      this.#claimed.delete(key)
    }
  }
}

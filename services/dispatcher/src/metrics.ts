import type { DeliveryRecord } from "@parley/contracts"
import { LATENCY_BUCKETS_SECONDS, type ServiceMetrics } from "@parley/platform"
import type { AttemptOutcome } from "./delivery/attempt.ts"

/**
 * What an operator alerts on (docs/contract.md §11): attempts by number and outcome, their duration,
 * deliveries that failed their last attempt, and deliveries parked because their webhook's share was
 * full (a slow or dead endpoint). Plain counters, called from the plain-async attempt path.
 */
export interface DeliveryObserver {
  readonly attempted: (delivery: DeliveryRecord, outcome: AttemptOutcome) => void
  readonly parked: (delivery: DeliveryRecord) => void
}

export const deliveryObserver = (metrics: ServiceMetrics): DeliveryObserver => {
  const attempts = metrics.counter({
    name: "parley_dispatcher_attempts_total",
    help: "Webhook delivery attempts made, by attempt number (1–3) and outcome (success, failed)",
    labelNames: ["attempt", "outcome"],
  })
  const duration = metrics.histogram({
    name: "parley_dispatcher_attempt_duration_seconds",
    help: "How long a webhook delivery attempt took, by outcome (success, failed); a timeout is 10 s",
    labelNames: ["outcome"],
    buckets: LATENCY_BUCKETS_SECONDS,
  })
  const exhausted = metrics.counter({
    name: "parley_dispatcher_deliveries_failed_total",
    help: "Webhook deliveries whose last attempt failed (no attempt left): the receiver never got them",
  })
  const parked = metrics.counter({
    name: "parley_dispatcher_deliveries_parked_total",
    help: "Deliveries parked because their webhook's share of attempts was full (a slow or failing endpoint)",
  })
  return {
    attempted: (delivery, outcome) => {
      const result = outcome.ok ? "success" : "failed"
      attempts.inc({ attempt: String(delivery.attempt), outcome: result })
      duration.observe({ outcome: result }, outcome.durationMs / 1_000)
      if (!outcome.ok && outcome.retryAt === null) exhausted.inc()
    },
    parked: () => parked.inc(),
  }
}

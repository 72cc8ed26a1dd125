import type { OutgoingRecord } from "@parley/bus"
import {
  type AttemptRecord,
  AttemptRecord as AttemptRecordSchema,
  type DeliveryRecord,
  DeliveryRecord as DeliveryRecordSchema,
  encodeBusValue,
  isoTimestamp,
  Topics,
} from "@parley/contracts"
import type { EgressClient } from "@parley/egress"
import { deliverySignature } from "@parley/platform"
import { envelopeBody } from "./envelope.ts"
import { type AttemptDelays, retryTopicFor } from "./schedule.ts"
import type { DispatchTarget } from "./webhook-directory.ts"

export interface AttemptContext {
  readonly egress: EgressClient
  readonly userAgent: string
  readonly schedule: AttemptDelays
  readonly openSecret: (sealed: string) => string
  readonly now?: () => number
}

/**
 * Makes one attempt of a delivery and answers the bus records it leads to: always the attempt's
 * `AttemptRecord`, and, when it failed and attempts remain, the delivery again on the delay topic of
 * the next attempt. The caller publishes both before committing its position, so a crash in between
 * repeats the attempt with the same delivery id and attempt number — never skips or adds one.
 */
export const attemptDelivery = async (
  context: AttemptContext,
  delivery: DeliveryRecord,
  target: DispatchTarget,
): Promise<{ readonly ok: boolean; readonly records: ReadonlyArray<OutgoingRecord> }> => {
  const now = context.now ?? Date.now
  const body = envelopeBody(delivery)
  const attemptedAt = now()
  const result = await context.egress.send({
    url: target.url,
    method: "POST",
    body,
    headers: {
      "content-type": "application/json",
      "user-agent": context.userAgent,
      "x-service-event": delivery.event,
      "x-service-signature": deliverySignature(body, context.openSecret(target.sealedSecret)),
      "x-service-delivery": delivery.deliveryId,
      "x-service-attempt": String(delivery.attempt),
    },
  })
  const attempt: AttemptRecord = {
    deliveryId: delivery.deliveryId,
    webhookId: delivery.webhookId,
    orgId: delivery.orgId,
    eventId: delivery.eventId,
    event: delivery.event,
    attempt: delivery.attempt,
    status: result.ok ? "success" : "failed",
    responseStatus: result.status,
    error: result.ok ? null : (result.error ?? `HTTP ${result.status}`),
    durationMs: Math.max(0, Math.round(result.durationMs)),
    attemptedAt: isoTimestamp(attemptedAt),
    // The registry keeps a delivery's envelope (for redeliver and replay) from its first attempt.
    ...(delivery.attempt === 1
      ? {
          envelope: {
            timestamp: delivery.timestamp,
            data: delivery.data as Record<string, unknown>,
            reason: delivery.reason,
          },
        }
      : {}),
  }
  const records: Array<OutgoingRecord> = [
    { topic: Topics.dispatchAttempts, key: delivery.webhookId, value: encodeBusValue(AttemptRecordSchema, attempt) },
  ]
  if (!result.ok && delivery.attempt < 3) {
    const next = (delivery.attempt + 1) as 2 | 3
    const retry = {
      ...delivery,
      attempt: next,
      notBefore: isoTimestamp(now() + (next === 2 ? context.schedule[1] : context.schedule[2])),
    }
    records.push({
      topic: retryTopicFor(next),
      key: delivery.webhookId,
      value: encodeBusValue(DeliveryRecordSchema, retry as DeliveryRecord),
    })
  }
  return { ok: result.ok, records }
}

import type { OutgoingRecord } from "@parley/bus"
import {
  type AttemptRecord,
  AttemptRecord as AttemptRecordSchema,
  type DeliveryRecord,
  DeliveryRecord as DeliveryRecordSchema,
  encodeBusValue,
  isoTimestamp,
  MaxLoggedResponseChars,
  Topics,
} from "@parley/contracts"
import type { EgressClient } from "@parley/egress"
import { Otel, tracedCall } from "@parley/platform"
import { signatureHeaders } from "../signing/signing.ts"
import type { DispatchTarget } from "../webhooks/webhook-directory.ts"
import { envelopeBody } from "./envelope.ts"
import { type AttemptDelays, retryTopicFor } from "./schedule.ts"

export interface AttemptContext {
  readonly egress: EgressClient
  readonly userAgent: string
  readonly schedule: AttemptDelays
  readonly now?: () => number
}

/**
 * What came of one attempt, all the bus records it leads to are built from: small enough to keep in
 * the attempt log, so a delivery seen again after a crash republishes exactly the same records.
 */
export interface AttemptOutcome {
  readonly ok: boolean
  readonly responseStatus: number | null
  readonly error: string | null
  readonly durationMs: number
  /** What a failing receiver answered (the egress reads at most 64 KiB; a 2xx body is not read). */
  readonly responseBody?: string
  /** When the attempt started, ms since the epoch. */
  readonly attemptedAt: number
  /** When the next attempt is due (a failure with attempts left), ms since the epoch; else null. */
  readonly retryAt: number | null
}

/**
 * Makes one attempt of a delivery. The caller records the outcome and publishes its records
 * (`recordsOf`) before committing its position, so a crash in between repeats the attempt with the
 * same delivery id and attempt number — never skips or adds one.
 */
export const attemptDelivery = async (
  context: AttemptContext,
  delivery: DeliveryRecord,
  target: DispatchTarget,
): Promise<AttemptOutcome> => {
  const now = context.now ?? Date.now
  const body = envelopeBody(delivery)
  const attemptedAt = now()
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "user-agent": context.userAgent,
    "x-service-event": delivery.event,
    "x-service-delivery": delivery.deliveryId,
    "x-service-attempt": String(delivery.attempt),
    ...signatureHeaders(target.keys, delivery.deliveryId, body, attemptedAt),
  }
  if (delivery.test === true) headers["x-service-test"] = "true"
  // The attempt is a CLIENT span of its own, whose traceparent the receiver gets (tracing on).
  const result = await tracedCall(
    `webhook POST attempt ${delivery.attempt}`,
    headers,
    {
      "http.request.method": "POST",
      "parley.delivery_id": delivery.deliveryId,
      "parley.webhook_id": delivery.webhookId,
      "parley.event": delivery.event,
      "parley.attempt": delivery.attempt,
    },
    async (span) => {
      const sent = await context.egress.send({ url: target.url, method: "POST", body, headers })
      if (sent.status !== null) span?.setAttribute("http.response.status_code", sent.status)
      if (!sent.ok) span?.setStatus({ code: Otel.SpanStatusCode.ERROR, message: sent.error ?? `HTTP ${sent.status}` })
      return sent
    },
  )
  const retries = !result.ok && delivery.attempt < 3
  return {
    ok: result.ok,
    responseStatus: result.status,
    error: result.ok ? null : (result.error ?? `HTTP ${result.status}`),
    durationMs: Math.max(0, Math.round(result.durationMs)),
    ...(result.body === null || result.body === ""
      ? {}
      : { responseBody: result.body.slice(0, MaxLoggedResponseChars) }),
    attemptedAt,
    retryAt: retries ? now() + (delivery.attempt === 1 ? context.schedule[1] : context.schedule[2]) : null,
  }
}

/**
 * The bus records an attempt leads to: always its `AttemptRecord` (on attempt 1 with the envelope,
 * which the registry keeps for redelivery), and, when it failed and attempts remain, the delivery
 * again on the delay topic of the next attempt.
 */
export const recordsOf = (delivery: DeliveryRecord, outcome: AttemptOutcome): ReadonlyArray<OutgoingRecord> => {
  const attempt: AttemptRecord = {
    deliveryId: delivery.deliveryId,
    webhookId: delivery.webhookId,
    orgId: delivery.orgId,
    eventId: delivery.eventId,
    event: delivery.event,
    attempt: delivery.attempt,
    status: outcome.ok ? "success" : "failed",
    responseStatus: outcome.responseStatus,
    error: outcome.error,
    durationMs: outcome.durationMs,
    attemptedAt: isoTimestamp(outcome.attemptedAt),
    ...(outcome.responseBody === undefined ? {} : { responseBody: outcome.responseBody }),
    ...(delivery.attempt === 1
      ? {
          envelope: {
            timestamp: delivery.timestamp,
            data: delivery.data as Record<string, unknown>,
            reason: delivery.reason,
            ...(delivery.test === true ? { test: true as const } : {}),
          },
        }
      : {}),
  }
  const records: Array<OutgoingRecord> = [
    { topic: Topics.dispatchAttempts, key: delivery.webhookId, value: encodeBusValue(AttemptRecordSchema, attempt) },
  ]
  if (outcome.retryAt !== null && delivery.attempt < 3) {
    const next = (delivery.attempt + 1) as 2 | 3
    const retry = { ...delivery, attempt: next, notBefore: isoTimestamp(outcome.retryAt) }
    records.push({
      topic: retryTopicFor(next),
      key: delivery.webhookId,
      value: encodeBusValue(DeliveryRecordSchema, retry as DeliveryRecord),
    })
  }
  return records
}

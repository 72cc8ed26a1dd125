import type { OutgoingRecord } from "@parley/bus"
import {
  type Attempt,
  type AttemptDetail,
  type AttemptRecord,
  DeliveryId,
  DeliveryRecord,
  EventCatalogue,
  type EventId,
  type EventName,
  encodeBusValue,
  envelopeBodyOf,
  isoTimestamp,
  type OrgId,
  Topics,
  type WebhookId,
} from "@parley/contracts"
import { newId, pagePosition } from "@parley/platform"
import { Schema } from "effect"
import type postgres from "postgres"

/**
 * The registry's record of deliveries and attempts: the envelope of every delivery (so it can be
 * sent again), every attempt (idempotent per delivery and attempt number), and the webhook's
 * delivery status derived from them.
 */

export interface DeliveryRow {
  readonly delivery_id: DeliveryId
  readonly webhook_id: WebhookId
  readonly org_id: OrgId
  readonly event_id: EventId
  readonly event: EventName
  readonly event_timestamp: string
  readonly data: string
  /** A test delivery or a redelivery or replay of one: its attempts carry `X-Service-Test: true`. */
  readonly test: boolean
}

/** What the log keeps of a delivery: whose it is, its event and why it exists (the data apart). */
export type LoggedDelivery = Pick<
  DeliveryRecord,
  "deliveryId" | "webhookId" | "orgId" | "eventId" | "event" | "timestamp" | "reason" | "test"
>

/** Keeps the envelopes of deliveries (their data as JSON text), each the first time it is seen. */
const recordEnvelopes = async (
  sql: postgres.Sql | postgres.TransactionSql,
  schema: string,
  envelopes: ReadonlyArray<LoggedDelivery & { readonly data: string }>,
) => {
  if (envelopes.length === 0) return
  await sql`
    insert into ${sql(schema)}.deliveries
      (delivery_id, webhook_id, org_id, event_id, event, event_timestamp, event_at, data, reason, test)
    select e."deliveryId", e."webhookId", e."orgId", e."eventId", e.event, e.timestamp, e.timestamp::timestamptz,
           e.data, e.reason, coalesce(e.test, false)
    from jsonb_to_recordset(${JSON.stringify(envelopes)}::text::jsonb) as e(
      "deliveryId" text, "webhookId" text, "orgId" text, "eventId" text, event text, timestamp text, data text,
      reason text, test boolean)
    on conflict (delivery_id) do nothing`
}

/** Keeps the envelope of a delivery the first time it is seen. */
export const recordDelivery = (sql: postgres.Sql, schema: string, delivery: LoggedDelivery, data: string) =>
  recordEnvelopes(sql, schema, [
    {
      deliveryId: delivery.deliveryId,
      webhookId: delivery.webhookId,
      orgId: delivery.orgId,
      eventId: delivery.eventId,
      event: delivery.event,
      timestamp: delivery.timestamp,
      reason: delivery.reason,
      ...(delivery.test === true ? { test: true as const } : {}),
      data,
    },
  ])

/**
 * Records a batch of attempts in the caller's transaction, each once (by delivery id and attempt
 * number), with the envelopes the first attempts carry. Only newly recorded attempts count: each
 * failure adds one to its webhook's `failureCount`, and the last-delivery fields follow the most
 * recent attempt by time, whatever order the attempts arrive in. One statement for the envelopes,
 * one for the attempts and the webhooks they update, however many attempts: the dispatcher makes
 * thousands a second.
 */
export const recordAttempts = async (
  tx: postgres.TransactionSql,
  schema: string,
  attempts: ReadonlyArray<AttemptRecord>,
): Promise<void> => {
  const envelopes = attempts.flatMap((attempt) =>
    attempt.envelope === undefined
      ? []
      : [
          {
            deliveryId: attempt.deliveryId,
            webhookId: attempt.webhookId,
            orgId: attempt.orgId,
            eventId: attempt.eventId,
            event: attempt.event,
            timestamp: attempt.envelope.timestamp,
            data: JSON.stringify(attempt.envelope.data),
            reason: attempt.envelope.reason,
            ...(attempt.envelope.test === true ? { test: true as const } : {}),
          },
        ],
  )
  await recordEnvelopes(tx, schema, envelopes)
  // Arrays, not jsonb_to_recordset: the planner knows how many rows an array holds, while it takes a
  // set-returning function for 100 rows, and so updated the webhooks by a hash join over a
  // sequential scan of all of them rather than a primary-key lookup for each.
  await tx`
    with inserted as (
      insert into ${tx(schema)}.attempts
        (delivery_id, attempt, webhook_id, org_id, event_id, event, status, response_status, error, duration_ms,
         attempted_at, response_body)
      select * from unnest(
        ${attempts.map((a) => a.deliveryId)}::text[], ${attempts.map((a) => a.attempt)}::int[],
        ${attempts.map((a) => a.webhookId)}::text[], ${attempts.map((a) => a.orgId)}::text[],
        ${attempts.map((a) => a.eventId)}::text[], ${attempts.map((a) => a.event)}::text[],
        ${attempts.map((a) => a.status)}::text[], ${attempts.map((a) => a.responseStatus)}::int[],
        ${attempts.map((a) => a.error)}::text[], ${attempts.map((a) => a.durationMs)}::int[],
        ${attempts.map((a) => a.attemptedAt)}::timestamptz[], ${attempts.map((a) => a.responseBody ?? null)}::text[])
      on conflict (delivery_id, attempt) do nothing
      returning webhook_id, status, response_status, attempted_at
    ),
    outcome as (
      select webhook_id,
             count(*) filter (where status = 'failed') as failed,
             (array_agg(status order by attempted_at desc))[1] as status,
             (array_agg(response_status order by attempted_at desc))[1] as response_status,
             max(attempted_at) as attempted_at
      from inserted group by webhook_id
    )
    update ${tx(schema)}.webhooks w set
      failure_count = w.failure_count + o.failed,
      last_delivery_status = case when w.last_delivery_at is null or w.last_delivery_at <= o.attempted_at
                                  then o.status else w.last_delivery_status end,
      last_response_status = case when w.last_delivery_at is null or w.last_delivery_at <= o.attempted_at
                                  then o.response_status else w.last_response_status end,
      last_delivery_at = greatest(w.last_delivery_at, o.attempted_at)
    from outcome o
    where w.id = o.webhook_id`
}

interface AttemptRow {
  readonly delivery_id: DeliveryId
  readonly event_id: EventId
  readonly event: EventName
  readonly attempt: number
  readonly status: "success" | "failed"
  readonly response_status: number | null
  readonly error: string | null
  readonly duration_ms: number
  readonly attempted_at: Date
  readonly seq: bigint
  /** Of the attempt's delivery; null for an attempt whose delivery was not recorded. */
  readonly reason: Attempt["reason"] | null
  readonly test: boolean | null
}

const toAttempt = (row: AttemptRow): Attempt => ({
  deliveryId: row.delivery_id,
  eventId: row.event_id,
  event: row.event,
  attempt: row.attempt,
  status: row.status,
  responseStatus: row.response_status,
  error: row.error,
  durationMs: row.duration_ms,
  attemptedAt: isoTimestamp(row.attempted_at),
  reason: row.reason ?? "event",
  test: row.test ?? false,
})

const encodeCursor = (row: AttemptRow): string =>
  Buffer.from(`${row.attempted_at.toISOString()}|${row.seq}`).toString("base64url")

/**
 * The position after which a page continues, or undefined when the cursor is not one of ours. The
 * log's cursors keep their own form (`<ISO time>|<seq>`, so cursors survive a rolling upgrade) but
 * are read like every list's (`pagePosition`): a real instant Postgres can hold, a seq that fits a
 * bigint — a year 0000, a seq of 23 digits or a year +275760 reached Postgres and answered 500.
 */
export const decodeCursor = (cursor: string): { at: Date; seq: bigint } | undefined => {
  const parts = Buffer.from(cursor, "base64url").toString("utf8").split("|")
  if (parts.length !== 2) return undefined
  const position = pagePosition(parts[0], parts[1], "sequence")
  if (position === undefined) return undefined
  return { at: position.instant, seq: BigInt(position.key) }
}

/** A page of a webhook's attempts, newest first. */
export const listAttempts = async (
  sql: postgres.Sql,
  schema: string,
  webhookId: string,
  options: { limit: number; after?: { at: Date; seq: bigint }; status?: "success" | "failed" },
) => {
  const rows = await sql<Array<AttemptRow>>`
    select a.delivery_id, a.event_id, a.event, a.attempt, a.status, a.response_status, a.error, a.duration_ms,
           a.attempted_at, a.seq, d.reason, d.test
    from ${sql(schema)}.attempts a
    left join ${sql(schema)}.deliveries d on d.delivery_id = a.delivery_id
    where a.webhook_id = ${webhookId}
      ${options.status === undefined ? sql`` : sql`and a.status = ${options.status}`}
      ${options.after === undefined ? sql`` : sql`and (a.attempted_at, a.seq) < (${options.after.at}, ${String(options.after.seq)}::bigint)`}
    order by a.attempted_at desc, a.seq desc
    limit ${options.limit + 1}`
  const page = rows.slice(0, options.limit)
  const last = page.at(-1)
  return {
    data: page.map(toAttempt),
    nextCursor: rows.length > options.limit && last !== undefined ? encodeCursor(last) : null,
  }
}

/**
 * One attempt of a webhook in full, or undefined: the body sent rebuilt from the delivery's kept
 * envelope (the same bytes, `envelopeBodyOf`), the headers that do not change between signings, and
 * the response kept. Signatures are made per attempt and not kept; the secret is never read here.
 */
export const findAttempt = async (
  sql: postgres.Sql,
  schema: string,
  webhookId: string,
  deliveryId: string,
  attempt: number,
): Promise<AttemptDetail | undefined> => {
  const [row] = await sql<
    Array<
      AttemptRow & {
        readonly response_body: string | null
        readonly event_timestamp: string | null
        readonly data: string | null
      }
    >
  >`
    select a.delivery_id, a.event_id, a.event, a.attempt, a.status, a.response_status, a.error, a.duration_ms,
           a.attempted_at, a.seq, a.response_body, d.reason, d.test, d.event_timestamp, d.data
    from ${sql(schema)}.attempts a
    left join ${sql(schema)}.deliveries d on d.delivery_id = a.delivery_id
    where a.webhook_id = ${webhookId} and a.delivery_id = ${deliveryId} and a.attempt = ${attempt}`
  if (row === undefined) return undefined
  const listed = toAttempt(row)
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "x-service-event": listed.event,
    "x-service-delivery": listed.deliveryId,
    "x-service-attempt": String(listed.attempt),
    "webhook-id": listed.deliveryId,
  }
  if (listed.test) headers["x-service-test"] = "true"
  return {
    ...listed,
    request: {
      headers,
      body:
        row.data === null || row.event_timestamp === null
          ? null
          : envelopeBodyOf(row.event, row.event_timestamp, row.data),
    },
    response: { status: row.response_status, body: row.response_body },
  }
}

/**
 * A delivery record from its parts as JSON has them: a stored envelope's data is typed only by its
 * event, so the record is decoded (the encoding that follows would refuse the same mismatches).
 */
const decodeDeliveryRecord = Schema.decodeUnknownSync(DeliveryRecord)

/**
 * A new delivery (new id, attempt 1) of a recorded delivery's envelope, as a bus record; a test
 * delivery's stays a test delivery.
 */
export const redeliveryOf = (
  row: DeliveryRow,
  reason: "redeliver" | "replay",
): { id: DeliveryId; record: OutgoingRecord } => {
  const id = DeliveryId.make(newId("dlv"))
  const record = decodeDeliveryRecord({
    deliveryId: id,
    webhookId: row.webhook_id,
    orgId: row.org_id,
    eventId: row.event_id,
    event: row.event,
    timestamp: row.event_timestamp,
    data: JSON.parse(row.data) as unknown,
    attempt: 1,
    notBefore: isoTimestamp(Date.now()),
    reason,
    ...(row.test ? { test: true } : {}),
  })
  return {
    id,
    record: { topic: Topics.dispatchDeliveries, key: row.webhook_id, value: encodeBusValue(DeliveryRecord, record) },
  }
}

/**
 * A test delivery (docs/contract.md §5): the catalogue's sample `data` of `event`, timestamped now, to
 * this webhook only — the dispatcher attempts it whether the webhook subscribes to the event or is
 * enabled, and every attempt of it (retries, redeliveries, replays) carries `X-Service-Test: true`.
 */
export const testDeliveryOf = (
  webhook: { readonly id: WebhookId; readonly org_id: OrgId },
  event: EventName,
): { id: DeliveryId; record: OutgoingRecord } => {
  const id = DeliveryId.make(newId("dlv"))
  const now = isoTimestamp(Date.now())
  const sample = EventCatalogue.find((entry) => entry.name === event)?.sample
  const record = decodeDeliveryRecord({
    deliveryId: id,
    webhookId: webhook.id,
    orgId: webhook.org_id,
    eventId: newId("evt"),
    event,
    timestamp: now,
    data: sample,
    attempt: 1,
    notBefore: now,
    reason: "test",
    test: true,
  })
  return {
    id,
    record: { topic: Topics.dispatchDeliveries, key: webhook.id, value: encodeBusValue(DeliveryRecord, record) },
  }
}

/** docs/contract.md §5: a replay queues at most this many deliveries. */
export const MaxReplay = 10_000

/**
 * Deliveries of a webhook whose event happened in [since, until), oldest first, at most MaxReplay;
 * with `failedOnly`, those whose latest attempt failed. Only deliveries made for events and test
 * deliveries count, so a replay never multiplies earlier redeliveries.
 */
export const deliveriesToReplay = (
  sql: postgres.Sql,
  schema: string,
  webhookId: string,
  window: { since: Date; until: Date; failedOnly: boolean },
) =>
  sql<Array<DeliveryRow>>`
    select d.delivery_id, d.webhook_id, d.org_id, d.event_id, d.event, d.event_timestamp, d.data, d.test
    from ${sql(schema)}.deliveries d
    where d.webhook_id = ${webhookId} and d.reason in ('event', 'test')
      and d.event_at >= ${window.since} and d.event_at < ${window.until}
      ${
        window.failedOnly
          ? sql`and (select a.status from ${sql(schema)}.attempts a where a.delivery_id = d.delivery_id
                     order by a.attempt desc limit 1) = 'failed'`
          : sql``
      }
    order by d.event_at, d.delivery_id
    limit ${MaxReplay}`

/** The recorded delivery of a webhook, or undefined. */
export const findDelivery = async (sql: postgres.Sql, schema: string, webhookId: string, deliveryId: string) => {
  const [row] = await sql<Array<DeliveryRow>>`
    select delivery_id, webhook_id, org_id, event_id, event, event_timestamp, data, test
    from ${sql(schema)}.deliveries where delivery_id = ${deliveryId} and webhook_id = ${webhookId}`
  return row
}

/** Attempts and deliveries older than this are deleted (docs/contract.md §6: kept 30 days). */
export const RetentionDays = 30

export const deleteExpired = async (sql: postgres.Sql, schema: string, now = new Date()) => {
  const cutoff = new Date(now.getTime() - RetentionDays * 24 * 60 * 60 * 1000)
  const attempts = await sql`delete from ${sql(schema)}.attempts where attempted_at < ${cutoff}`
  const deliveries = await sql`delete from ${sql(schema)}.deliveries where created_at < ${cutoff}`
  return { attempts: attempts.count, deliveries: deliveries.count }
}

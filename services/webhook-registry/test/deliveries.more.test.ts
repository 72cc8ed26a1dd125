/**
 * The delivery log beyond deliveries.test.ts: the status filter with paging, the default page size,
 * attempts without a response, the dispatcher's view of redeliveries (read through the bus), and
 * the edges of a replay window.
 */
import {
  AttemptRecord,
  DeliveryId,
  DeliveryRecord,
  decodeBusValue,
  EventId,
  encodeBusValue,
  type OrgId,
  Topics,
  type WebhookId,
} from "@parley/contracts"
import { newId } from "@parley/platform"
import { eventually } from "@parley/platform/testing"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Tap, tapTopic } from "./bus-tap.ts"
import { makeRegistryHarness, newOrg, type RegistryHarness } from "./harness.ts"

let harness: RegistryHarness
let deliveriesTap: Tap
beforeAll(async () => {
  harness = await makeRegistryHarness()
  deliveriesTap = await tapTopic(harness, "parley.dispatch.deliveries.v1")
})
afterAll(async () => {
  await deliveriesTap?.close()
  await harness?.close()
})

const createWebhook = async (org: OrgId): Promise<WebhookId> =>
  (
    await harness.request({ method: "POST", url: "/api/org/webhooks", org, payload: { url: "http://127.0.0.1:9/x" } })
  ).json().id

const delivery = (org: OrgId, webhookId: WebhookId, at: Date): DeliveryRecord => ({
  deliveryId: DeliveryId.make(newId("dlv")),
  webhookId,
  orgId: org,
  eventId: EventId.make(newId("evt")),
  event: "lead.updated",
  timestamp: at.toISOString(),
  data: { phone: "14155550100", name: "Grace", type: "QUOTE", booking: null },
  attempt: 1,
  notBefore: at.toISOString(),
  reason: "event",
})

type Outcome = { status: "success" | "failed"; responseStatus: number | null; error: string | null }
const ok: Outcome = { status: "success", responseStatus: 204, error: null }
const http500: Outcome = { status: "failed", responseStatus: 500, error: "HTTP 500" }
const timeout: Outcome = { status: "failed", responseStatus: null, error: "timeout" }

const attemptOf = (d: DeliveryRecord, attempt: 1 | 2 | 3, outcome: Outcome, at: Date): AttemptRecord => ({
  deliveryId: d.deliveryId,
  webhookId: d.webhookId,
  orgId: d.orgId,
  eventId: d.eventId,
  event: d.event,
  attempt,
  ...outcome,
  durationMs: 10_000,
  attemptedAt: at.toISOString(),
})

const publishDeliveries = (records: ReadonlyArray<DeliveryRecord>) =>
  harness.publish(
    records.map((d) => ({
      topic: Topics.dispatchDeliveries,
      key: d.webhookId,
      value: encodeBusValue(DeliveryRecord, d),
    })),
  )
const publishAttempts = (records: ReadonlyArray<AttemptRecord>) =>
  harness.publish(
    records.map((a) => ({ topic: Topics.dispatchAttempts, key: a.webhookId, value: encodeBusValue(AttemptRecord, a) })),
  )

const get = (org: OrgId, url: string) => harness.request({ method: "GET", url, org, role: "member" })
const post = (org: OrgId, url: string, payload?: object) =>
  harness.request({ method: "POST", url, org, ...(payload === undefined ? {} : { payload }) })

const countAttempts = async (webhookId: string) =>
  (await harness.db.sql`select count(*)::int as n from webhook_registry.attempts where webhook_id = ${webhookId}`)[0]
    ?.n as number
const countDeliveries = async (webhookId: string) =>
  (await harness.db.sql`select count(*)::int as n from webhook_registry.deliveries where webhook_id = ${webhookId}`)[0]
    ?.n as number

/** The deliveries the dispatcher would read for a webhook, decoded. */
const queuedFor = (webhookId: string) =>
  Promise.all(
    deliveriesTap.records
      .filter((record) => record.key === webhookId)
      .map((record) => Effect.runPromise(decodeBusValue(DeliveryRecord)(record.value))),
  )

describe("listing attempts", () => {
  it("answers an attempt that got no response with responseStatus null and its error, and says so on the webhook", async () => {
    const org = newOrg()
    const webhookId = await createWebhook(org)
    const d = delivery(org, webhookId, new Date())
    const t0 = Date.now()
    await publishAttempts([attemptOf(d, 1, ok, new Date(t0)), attemptOf(d, 2, timeout, new Date(t0 + 1_000))])
    await eventually(async () => expect(await countAttempts(webhookId)).toBe(2))
    const page = (await get(org, `/api/org/webhooks/${webhookId}/deliveries`)).json()
    expect(page).toEqual({
      data: [
        {
          deliveryId: d.deliveryId,
          eventId: d.eventId,
          event: "lead.updated",
          attempt: 2,
          status: "failed",
          responseStatus: null,
          error: "timeout",
          durationMs: 10_000,
          attemptedAt: new Date(t0 + 1_000).toISOString(),
          reason: "event",
          test: false,
        },
        {
          deliveryId: d.deliveryId,
          eventId: d.eventId,
          event: "lead.updated",
          attempt: 1,
          status: "success",
          responseStatus: 204,
          error: null,
          durationMs: 10_000,
          attemptedAt: new Date(t0).toISOString(),
          reason: "event",
          test: false,
        },
      ],
      nextCursor: null,
    })
    expect((await get(org, `/api/org/webhooks/${webhookId}`)).json()).toMatchObject({
      lastDeliveryStatus: "failed",
      lastResponseStatus: null,
      lastDeliveryAt: new Date(t0 + 1_000).toISOString(),
      failureCount: 1,
    })
  })

  it("keeps counting failures after a success: failureCount is never reset", async () => {
    const org = newOrg()
    const webhookId = await createWebhook(org)
    const t0 = Date.now()
    const [a, b, c] = [0, 1, 2].map((i) => delivery(org, webhookId, new Date(t0 + i)))
    await publishAttempts([
      attemptOf(a as DeliveryRecord, 1, http500, new Date(t0)),
      attemptOf(b as DeliveryRecord, 1, ok, new Date(t0 + 1_000)),
      attemptOf(c as DeliveryRecord, 1, http500, new Date(t0 + 2_000)),
    ])
    await eventually(async () =>
      expect((await get(org, `/api/org/webhooks/${webhookId}`)).json()).toMatchObject({
        failureCount: 2,
        lastDeliveryStatus: "failed",
        lastResponseStatus: 500,
      }),
    )
  })

  it("filters by status=success and pages within the filter", async () => {
    const org = newOrg()
    const webhookId = await createWebhook(org)
    const t0 = Date.now() - 60_000
    const records = Array.from({ length: 6 }, (_, i) =>
      attemptOf(delivery(org, webhookId, new Date(t0)), 1, i % 3 === 0 ? http500 : ok, new Date(t0 + i * 1_000)),
    )
    await publishAttempts(records)
    await eventually(async () => expect(await countAttempts(webhookId)).toBe(6))
    const successes = records.filter((r) => r.status === "success").reverse()
    const first = (await get(org, `/api/org/webhooks/${webhookId}/deliveries?status=success&limit=3`)).json()
    expect(first.data.map((a: { deliveryId: string }) => a.deliveryId)).toEqual(
      successes.slice(0, 3).map((r) => r.deliveryId),
    )
    expect(first.nextCursor).toBeTypeOf("string")
    const second = (
      await get(org, `/api/org/webhooks/${webhookId}/deliveries?status=success&limit=3&cursor=${first.nextCursor}`)
    ).json()
    expect(second.data.map((a: { deliveryId: string }) => a.deliveryId)).toEqual([successes[3]?.deliveryId])
    expect(second.nextCursor).toBeNull()
    const failed = (await get(org, `/api/org/webhooks/${webhookId}/deliveries?status=failed`)).json()
    expect(failed.data.map((a: { attemptedAt: string }) => a.attemptedAt)).toEqual([
      records[3]?.attemptedAt,
      records[0]?.attemptedAt,
    ])
  })

  it("answers 50 attempts by default, with a cursor to the rest", async () => {
    const org = newOrg()
    const webhookId = await createWebhook(org)
    const t0 = Date.now() - 600_000
    await publishAttempts(
      Array.from({ length: 51 }, (_, i) =>
        attemptOf(delivery(org, webhookId, new Date(t0)), 1, ok, new Date(t0 + i * 1_000)),
      ),
    )
    await eventually(async () => expect(await countAttempts(webhookId)).toBe(51), { timeoutMs: 10_000 })
    const first = (await get(org, `/api/org/webhooks/${webhookId}/deliveries`)).json()
    expect(first.data).toHaveLength(50)
    expect(first.data[0].attemptedAt).toBe(new Date(t0 + 50_000).toISOString())
    const rest = (await get(org, `/api/org/webhooks/${webhookId}/deliveries?cursor=${first.nextCursor}`)).json()
    expect(rest).toEqual({
      data: [expect.objectContaining({ attemptedAt: new Date(t0).toISOString() })],
      nextCursor: null,
    })
  })

  it("shows only this webhook's attempts", async () => {
    const org = newOrg()
    const mine = await createWebhook(org)
    const other = await createWebhook(org)
    const t0 = Date.now()
    await publishAttempts([
      attemptOf(delivery(org, other, new Date(t0)), 1, ok, new Date(t0)),
      attemptOf(delivery(org, mine, new Date(t0)), 1, http500, new Date(t0)),
    ])
    await eventually(async () => expect(await countAttempts(other)).toBe(1))
    await eventually(async () => expect(await countAttempts(mine)).toBe(1))
    const page = (await get(org, `/api/org/webhooks/${mine}/deliveries`)).json()
    expect(page.data.map((a: { status: string }) => a.status)).toEqual(["failed"])
  })
})

describe("redelivering", () => {
  it("appends a DeliveryRecord for the dispatcher each time, under a new id, attempt 1, due now", async () => {
    const org = newOrg()
    const webhookId = await createWebhook(org)
    const original = delivery(org, webhookId, new Date(Date.now() - 3_600_000))
    await publishDeliveries([original])
    await eventually(async () => expect(await countDeliveries(webhookId)).toBe(1))
    const url = `/api/org/webhooks/${webhookId}/deliveries/${original.deliveryId}/redeliver`
    const before = Date.now()
    const first = await post(org, url)
    const second = await post(org, url)
    expect([first.statusCode, second.statusCode]).toEqual([202, 202])
    expect(Object.keys(first.json())).toEqual(["deliveryId"])
    const ids = [first.json().deliveryId, second.json().deliveryId]
    expect(new Set([...ids, original.deliveryId]).size).toBe(3)
    const queued = await eventually(async () => {
      const seen = (await queuedFor(webhookId)).filter((d) => ids.includes(d.deliveryId))
      expect(seen).toHaveLength(2)
      return seen
    })
    for (const again of queued) {
      expect(again).toMatchObject({
        webhookId,
        orgId: org,
        eventId: original.eventId,
        event: original.event,
        timestamp: original.timestamp,
        data: original.data,
        attempt: 1,
        reason: "redeliver",
      })
      expect(Date.parse(again.notBefore)).toBeGreaterThanOrEqual(before - 1_000)
    }
  })

  it("can redeliver a redelivery once the log has recorded it", async () => {
    const org = newOrg()
    const webhookId = await createWebhook(org)
    const original = delivery(org, webhookId, new Date())
    await publishDeliveries([original])
    await eventually(async () => expect(await countDeliveries(webhookId)).toBe(1))
    const base = `/api/org/webhooks/${webhookId}/deliveries`
    const { deliveryId } = (await post(org, `${base}/${original.deliveryId}/redeliver`)).json()
    const again = await eventually(async () => {
      const answer = await post(org, `${base}/${deliveryId}/redeliver`)
      expect(answer.statusCode).toBe(202)
      return answer.json()
    })
    const queued = await eventually(async () => {
      const found = (await queuedFor(webhookId)).find((d) => d.deliveryId === again.deliveryId)
      expect(found).toBeDefined()
      return found
    })
    expect(queued).toMatchObject({ eventId: original.eventId, data: original.data })
  })

  it.each([
    [
      "an unknown webhook",
      "/api/org/webhooks/wh_0000000000000000000000/deliveries/dlv_0000000000000000000000/redeliver",
    ],
    ["an unknown delivery", "/deliveries/dlv_0000000000000000000000/redeliver"],
  ])("answers 404 not_found for %s", async (_name, path) => {
    const org = newOrg()
    const webhookId = await createWebhook(org)
    const url = path.startsWith("/api") ? path : `/api/org/webhooks/${webhookId}${path}`
    const response = await post(org, url)
    expect(response.statusCode).toBe(404)
    expect(response.json()).toEqual({ error: "Not found", code: "not_found" })
  })
})

describe("replaying", () => {
  it("takes since inclusively and until exclusively, defaults until to now, and skips redeliveries", async () => {
    const org = newOrg()
    const webhookId = await createWebhook(org)
    const base = Date.parse("2026-10-01T00:00:00.000Z")
    const atSince = delivery(org, webhookId, new Date(base))
    const middle = delivery(org, webhookId, new Date(base + 30_000))
    const atUntil = delivery(org, webhookId, new Date(base + 60_000))
    const recent = delivery(org, webhookId, new Date(Date.now() - 1_000))
    const redelivered: DeliveryRecord = { ...delivery(org, webhookId, new Date(base + 10_000)), reason: "redeliver" }
    await publishDeliveries([atSince, middle, atUntil, recent, redelivered])
    await eventually(async () => expect(await countDeliveries(webhookId)).toBe(5))
    const url = `/api/org/webhooks/${webhookId}/replay`
    const since = new Date(base).toISOString()
    const bounded = await post(org, url, { since, until: new Date(base + 60_000).toISOString() })
    expect(bounded.statusCode).toBe(202)
    expect(bounded.json()).toEqual({ queued: 2 })
    expect((await post(org, url, { since })).json()).toEqual({ queued: 4 })
    expect((await post(org, url, { since: new Date(Date.now() + 60_000).toISOString() })).json()).toEqual({
      queued: 0,
    })
    const backwards = await post(org, url, { since, until: since })
    expect(backwards.statusCode).toBe(400)
    expect(backwards.json()).toMatchObject({
      code: "invalid_request",
      error: "Invalid request: until must be later than since",
      issues: [{ path: "until", message: "must be later than since" }],
    })
    const replayed = await eventually(async () => {
      const seen = (await queuedFor(webhookId)).filter((d) => d.reason === "replay")
      expect(seen).toHaveLength(6)
      return seen
    })
    expect(replayed.filter((d) => d.eventId === atSince.eventId)).toHaveLength(2)
    expect(replayed.filter((d) => d.eventId === atUntil.eventId)).toHaveLength(1)
    expect(replayed.filter((d) => d.eventId === redelivered.eventId)).toHaveLength(0)
  })

  it("counts a delivery with no attempt yet only when not restricted to failures", async () => {
    const org = newOrg()
    const webhookId = await createWebhook(org)
    const base = Date.parse("2026-10-02T00:00:00.000Z")
    const pending = delivery(org, webhookId, new Date(base))
    const failed = delivery(org, webhookId, new Date(base + 1_000))
    await publishDeliveries([pending, failed])
    await publishAttempts([attemptOf(failed, 1, timeout, new Date(base + 1_000))])
    await eventually(async () => expect(await countAttempts(webhookId)).toBe(1))
    await eventually(async () => expect(await countDeliveries(webhookId)).toBe(2))
    const url = `/api/org/webhooks/${webhookId}/replay`
    const window = { since: new Date(base).toISOString(), until: new Date(base + 60_000).toISOString() }
    expect((await post(org, url, { ...window, status: "failed" })).json()).toEqual({ queued: 1 })
    expect((await post(org, url, window)).json()).toEqual({ queued: 2 })
  })

  it("queues at most 10 000 deliveries, oldest first", async () => {
    const org = newOrg()
    const webhookId = await createWebhook(org)
    const base = Date.parse("2026-10-03T00:00:00.000Z")
    // 10 001 recorded deliveries, written directly: publishing them one by one would only be slower.
    await harness.db.sql`
      insert into webhook_registry.deliveries
        (delivery_id, webhook_id, org_id, event_id, event, event_timestamp, event_at, data, reason)
      select 'dlv_capcapcapcapcap' || lpad(i::text, 6, '0'), ${webhookId}, ${org}, 'evt_capcapcapcapcap' || lpad(i::text, 6, '0'),
             'lead.updated', to_char(t at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), t,
             '{"phone":"14155550100","name":"Cap","type":"QUOTE","booking":null}', 'event'
      from generate_series(0, 10000) as i, lateral (select ${new Date(base)}::timestamptz + i * interval '1 second' as t) as at`
    const response = await post(org, `/api/org/webhooks/${webhookId}/replay`, { since: new Date(base).toISOString() })
    expect(response.statusCode).toBe(202)
    expect(response.json()).toEqual({ queued: 10_000 })
    // Read from the log table itself: the records were appended in the answer's transaction.
    const rows = await harness.db.sql`
      select value from parley_bus.records where topic = ${Topics.dispatchDeliveries} and key = ${webhookId}`
    const replayed = rows.map((row) => JSON.parse(row.value as string) as { reason: string; eventId: string })
    expect(replayed.filter((d) => d.reason === "replay")).toHaveLength(10_000)
    const eventIds = new Set(replayed.map((d) => d.eventId))
    expect(eventIds.has("evt_capcapcapcapcap000000")).toBe(true)
    expect(eventIds.has("evt_capcapcapcapcap010000")).toBe(false)
  }, 30_000)

  it("answers 404 not_found to a replay of an unknown webhook", async () => {
    const response = await post(newOrg(), "/api/org/webhooks/wh_0000000000000000000000/replay", {
      since: "2026-10-01T00:00:00.000Z",
    })
    expect(response.statusCode).toBe(404)
    expect(response.json()).toEqual({ error: "Not found", code: "not_found" })
  })

  it("answers 404 not_found to the delivery log of an unknown webhook", async () => {
    const response = await get(newOrg(), "/api/org/webhooks/wh_0000000000000000000000/deliveries")
    expect(response.statusCode).toBe(404)
  })
})

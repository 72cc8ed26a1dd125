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
import { makeRegistryHarness, newOrg, type RegistryHarness } from "./harness.ts"

let harness: RegistryHarness
beforeAll(async () => {
  harness = await makeRegistryHarness()
})
afterAll(() => harness?.close())

const createWebhook = async (org: OrgId): Promise<WebhookId> =>
  (
    await harness.request({ method: "POST", url: "/api/org/webhooks", org, payload: { url: "http://127.0.0.1:9/x" } })
  ).json().id

const delivery = (org: OrgId, webhookId: WebhookId, at = new Date()): DeliveryRecord => ({
  deliveryId: DeliveryId.make(newId("dlv")),
  webhookId,
  orgId: org,
  eventId: EventId.make(newId("evt")),
  event: "lead.created",
  timestamp: at.toISOString(),
  data: {
    phone: "14155550100",
    name: "Ada",
    type: "BOOKING",
    booking: { date: "2026-12-01", time: "10:30", service: "Cut" },
  },
  attempt: 1,
  notBefore: at.toISOString(),
  reason: "event",
})

const attemptOf = (d: DeliveryRecord, attempt: 1 | 2 | 3, ok: boolean, at: Date): AttemptRecord => ({
  deliveryId: d.deliveryId,
  webhookId: d.webhookId,
  orgId: d.orgId,
  eventId: d.eventId,
  event: d.event,
  attempt,
  status: ok ? "success" : "failed",
  responseStatus: ok ? 200 : 503,
  error: ok ? null : "HTTP 503",
  durationMs: 12,
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

const webhookOf = async (org: OrgId, id: string) =>
  (await harness.request({ method: "GET", url: `/api/org/webhooks/${id}`, org, role: "member" })).json()

/** Deliveries published on the bus for a webhook after `fromOffset`, as the dispatcher would read them. */
const queuedFor = async (webhookId: string) => {
  const rows = await harness.db.sql`
    select value from parley_bus.records where topic = ${Topics.dispatchDeliveries} and key = ${webhookId} order by "offset"`
  return Promise.all(rows.map((row) => Effect.runPromise(decodeBusValue(DeliveryRecord)(row.value))))
}

describe("the delivery log", () => {
  it("records each attempt once and keeps the webhook's last status and total failures", async () => {
    const org = newOrg()
    const webhookId = await createWebhook(org)
    const d = delivery(org, webhookId)
    const t0 = Date.now()
    const attempts = [
      attemptOf(d, 1, false, new Date(t0)),
      attemptOf(d, 2, false, new Date(t0 + 5_000)),
      attemptOf(d, 3, true, new Date(t0 + 15_000)),
    ]
    // Every attempt arrives twice (at-least-once bus): counted once.
    await publishAttempts([...attempts, ...attempts])
    await eventually(async () =>
      expect(await webhookOf(org, webhookId)).toMatchObject({
        lastDeliveryStatus: "success",
        lastResponseStatus: 200,
        lastDeliveryAt: new Date(t0 + 15_000).toISOString(),
        failureCount: 2,
      }),
    )
    // An older attempt arriving late does not overwrite the latest status.
    const late = attemptOf(delivery(org, webhookId), 1, false, new Date(t0 - 60_000))
    await publishAttempts([late])
    await eventually(async () => expect((await webhookOf(org, webhookId)).failureCount).toBe(3))
    expect(await webhookOf(org, webhookId)).toMatchObject({ lastDeliveryStatus: "success", lastResponseStatus: 200 })
  })

  it("lists attempts newest first in the Attempt shape, paged with a cursor and filtered by status", async () => {
    const org = newOrg()
    const webhookId = await createWebhook(org)
    const t0 = Date.now() - 100_000
    const records = Array.from({ length: 7 }, (_, i) =>
      attemptOf(delivery(org, webhookId), 1, i % 2 === 0, new Date(t0 + i * 1_000)),
    )
    await publishAttempts(records)
    await eventually(async () => expect((await webhookOf(org, webhookId)).lastDeliveryAt).not.toBeNull())
    await eventually(async () => {
      const all = await harness.request({
        method: "GET",
        url: `/api/org/webhooks/${webhookId}/deliveries`,
        org,
        role: "member",
      })
      expect(all.json().data).toHaveLength(7)
    })
    const page1 = (
      await harness.request({ method: "GET", url: `/api/org/webhooks/${webhookId}/deliveries?limit=3`, org })
    ).json()
    expect(Object.keys(page1).sort()).toEqual(["data", "nextCursor"])
    expect(Object.keys(page1.data[0]).sort()).toEqual(
      [
        "attempt",
        "attemptedAt",
        "deliveryId",
        "durationMs",
        "error",
        "event",
        "eventId",
        "responseStatus",
        "status",
        // Beyond the contract's Attempt: why its delivery exists, and whether it was a test.
        "reason",
        "test",
      ].sort(),
    )
    expect(page1.data.map((a: { deliveryId: string }) => a.deliveryId)).toEqual(
      [records[6], records[5], records[4]].map((r) => r?.deliveryId),
    )
    const page2 = (
      await harness.request({
        method: "GET",
        url: `/api/org/webhooks/${webhookId}/deliveries?limit=3&cursor=${page1.nextCursor}`,
        org,
      })
    ).json()
    expect(page2.data.map((a: { deliveryId: string }) => a.deliveryId)).toEqual(
      [records[3], records[2], records[1]].map((r) => r?.deliveryId),
    )
    const page3 = (
      await harness.request({
        method: "GET",
        url: `/api/org/webhooks/${webhookId}/deliveries?limit=3&cursor=${page2.nextCursor}`,
        org,
      })
    ).json()
    expect(page3.data).toHaveLength(1)
    expect(page3.nextCursor).toBeNull()
    const failed = (
      await harness.request({ method: "GET", url: `/api/org/webhooks/${webhookId}/deliveries?status=failed`, org })
    ).json()
    expect(failed.data.map((a: { status: string }) => a.status)).toEqual(["failed", "failed", "failed"])
  })

  it.each(["limit=0", "limit=101", "limit=x", "status=maybe", "cursor=%%%"])("answers 400 for %s", async (query) => {
    const org = newOrg()
    const webhookId = await createWebhook(org)
    const response = await harness.request({
      method: "GET",
      url: `/api/org/webhooks/${webhookId}/deliveries?${query}`,
      org,
    })
    expect(response.statusCode).toBe(400)
    expect(response.json().code).toBe("invalid_request")
  })
})

describe("redeliver and replay", () => {
  it("redelivers a delivery as a new delivery of the same envelope", async () => {
    const org = newOrg()
    const webhookId = await createWebhook(org)
    const original = delivery(org, webhookId)
    await publishDeliveries([original])
    const url = `/api/org/webhooks/${webhookId}/deliveries/${original.deliveryId}/redeliver`
    const response = await eventually(async () => {
      const answer = await harness.request({ method: "POST", url, org })
      expect(answer.statusCode).toBe(202)
      return answer
    })
    const { deliveryId } = response.json()
    expect(deliveryId).toMatch(/^dlv_/)
    expect(deliveryId).not.toBe(original.deliveryId)
    const queued = await queuedFor(webhookId)
    const again = queued.find((d) => d.deliveryId === deliveryId)
    expect(again).toMatchObject({
      webhookId,
      eventId: original.eventId,
      event: original.event,
      timestamp: original.timestamp,
      data: original.data,
      attempt: 1,
      reason: "redeliver",
    })
  })

  it("keeps a delivery's envelope from its first attempt's record, and redelivers that envelope", async () => {
    // The dispatcher makes an event's first attempt straight from its fan-out: the envelope reaches
    // the registry only on attempt 1's record, never on the deliveries topic.
    const org = newOrg()
    const webhookId = await createWebhook(org)
    const original = delivery(org, webhookId)
    const first = {
      ...attemptOf(original, 1, false, new Date()),
      envelope: { timestamp: original.timestamp, data: original.data, reason: original.reason },
    }
    // Later attempts carry no envelope; the first, arriving twice, is kept once.
    await publishAttempts([first, attemptOf(original, 2, true, new Date()), first])
    const url = `/api/org/webhooks/${webhookId}/deliveries/${original.deliveryId}/redeliver`
    const { deliveryId } = (
      await eventually(async () => {
        const answer = await harness.request({ method: "POST", url, org })
        expect(answer.statusCode).toBe(202)
        return answer
      })
    ).json()
    expect((await queuedFor(webhookId)).find((d) => d.deliveryId === deliveryId)).toMatchObject({
      eventId: original.eventId,
      event: original.event,
      timestamp: original.timestamp,
      data: original.data,
      attempt: 1,
      reason: "redeliver",
    })
    const rows = await harness.db
      .sql`select reason from webhook_registry.deliveries where delivery_id = ${original.deliveryId}`
    expect(rows).toEqual([{ reason: "event" }])
  })

  it("answers 404 for a delivery it does not know or of another webhook", async () => {
    const org = newOrg()
    const webhookId = await createWebhook(org)
    const other = await createWebhook(org)
    const foreign = delivery(org, other)
    await publishDeliveries([foreign])
    await eventually(async () => {
      const rows = await harness.db
        .sql`select 1 from webhook_registry.deliveries where delivery_id = ${foreign.deliveryId}`
      expect(rows).toHaveLength(1)
    })
    for (const id of [foreign.deliveryId, "dlv_unknown0000000000000000"]) {
      const response = await harness.request({
        method: "POST",
        url: `/api/org/webhooks/${webhookId}/deliveries/${id}/redeliver`,
        org,
      })
      expect(response.statusCode).toBe(404)
    }
  })

  it("replays the deliveries of a window, or only those whose last attempt failed", async () => {
    const org = newOrg()
    const webhookId = await createWebhook(org)
    const base = Date.parse("2026-11-01T10:00:00.000Z")
    const inWindow = [0, 1, 2, 3].map((i) => delivery(org, webhookId, new Date(base + i * 60_000)))
    const outside = delivery(org, webhookId, new Date(base + 3_600_000))
    await publishDeliveries([...inWindow, outside])
    const [a, b, c, d] = inWindow as [DeliveryRecord, DeliveryRecord, DeliveryRecord, DeliveryRecord]
    await publishAttempts([
      attemptOf(a, 1, true, new Date(base)),
      attemptOf(b, 1, false, new Date(base)),
      attemptOf(b, 2, true, new Date(base + 5_000)),
      attemptOf(c, 1, false, new Date(base)),
      attemptOf(d, 1, false, new Date(base)),
      attemptOf(d, 2, false, new Date(base + 5_000)),
    ])
    await eventually(async () => {
      const rows = await harness.db
        .sql`select count(*)::int as n from webhook_registry.attempts where webhook_id = ${webhookId}`
      expect(rows[0]?.n).toBe(6)
      const deliveries = await harness.db
        .sql`select count(*)::int as n from webhook_registry.deliveries where webhook_id = ${webhookId}`
      expect(deliveries[0]?.n).toBe(5)
    })
    const window = { since: new Date(base).toISOString(), until: new Date(base + 30 * 60_000).toISOString() }
    const failedOnly = await harness.request({
      method: "POST",
      url: `/api/org/webhooks/${webhookId}/replay`,
      org,
      payload: { ...window, status: "failed" },
    })
    expect(failedOnly.statusCode).toBe(202)
    expect(failedOnly.json()).toEqual({ queued: 2 })
    let replayed = (await queuedFor(webhookId)).filter((q) => q.reason === "replay")
    expect(replayed.map((q) => q.eventId).sort()).toEqual([c.eventId, d.eventId].sort())
    expect(new Set(replayed.map((q) => q.deliveryId)).size).toBe(2)

    const everything = await harness.request({
      method: "POST",
      url: `/api/org/webhooks/${webhookId}/replay`,
      org,
      payload: window,
    })
    expect(everything.json()).toEqual({ queued: 4 })
    replayed = (await queuedFor(webhookId)).filter((q) => q.reason === "replay")
    expect(replayed).toHaveLength(6)
  })

  it.each([{}, { since: "yesterday" }, { since: "2026-11-01T10:00:00.000Z", status: "success" }])(
    "answers 400 to the replay body %j",
    async (payload) => {
      const org = newOrg()
      const webhookId = await createWebhook(org)
      const response = await harness.request({
        method: "POST",
        url: `/api/org/webhooks/${webhookId}/replay`,
        org,
        payload,
      })
      expect(response.statusCode).toBe(400)
    },
  )
})

describe("retention", () => {
  it("deletes attempts and deliveries older than 30 days", async () => {
    const { deleteExpired } = await import("../src/deliveries/delivery-log.ts")
    const org = newOrg()
    const webhookId = await createWebhook(org)
    const old = delivery(org, webhookId)
    const fresh = delivery(org, webhookId)
    await publishDeliveries([old, fresh])
    await publishAttempts([
      attemptOf(old, 1, true, new Date(Date.now() - 31 * 24 * 3600_000)),
      attemptOf(fresh, 1, true, new Date()),
    ])
    await eventually(async () => {
      const rows = await harness.db
        .sql`select count(*)::int as n from webhook_registry.attempts where webhook_id = ${webhookId}`
      expect(rows[0]?.n).toBe(2)
    })
    await harness.db
      .sql`update webhook_registry.deliveries set created_at = now() - interval '31 days' where delivery_id = ${old.deliveryId}`
    await deleteExpired(harness.db.sql, "webhook_registry")
    const attempts = await harness.db
      .sql`select delivery_id from webhook_registry.attempts where webhook_id = ${webhookId}`
    expect(attempts.map((r) => r.delivery_id)).toEqual([fresh.deliveryId])
    const deliveries = await harness.db
      .sql`select delivery_id from webhook_registry.deliveries where webhook_id = ${webhookId}`
    expect(deliveries.map((r) => r.delivery_id)).toEqual([fresh.deliveryId])
  })
})

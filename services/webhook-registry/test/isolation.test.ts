/**
 * Tenant isolation: another organization's webhook, with a real delivery log behind it, is answered
 * exactly as a missing one on every route, appears in no list, and is left untouched — not its row,
 * not its WebhookChanged stream, not the dispatcher's queue.
 */
import {
  AttemptRecord,
  DeliveryId,
  DeliveryRecord,
  EventId,
  encodeBusValue,
  type OrgId,
  Topics,
  type WebhookId,
} from "@parley/contracts"
import { newId } from "@parley/platform"
import { eventually } from "@parley/platform/testing"
import type { InjectOptions } from "fastify"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeRegistryHarness, newOrg, type RegistryHarness } from "./harness.ts"

let harness: RegistryHarness
const owner = newOrg()
const stranger = newOrg()
let webhookId: WebhookId
let strangersWebhookId: WebhookId
const since = "2026-11-01T00:00:00.000Z"
const eventAt = "2026-11-01T12:00:00.000Z"
const original: { current?: DeliveryRecord } = {}

beforeAll(async () => {
  harness = await makeRegistryHarness()
  const create = (org: OrgId) =>
    harness.request({ method: "POST", url: "/api/org/webhooks", org, payload: { url: "http://127.0.0.1:9/x" } })
  webhookId = (await create(owner)).json().id
  strangersWebhookId = (await create(stranger)).json().id
  const delivery: DeliveryRecord = {
    deliveryId: DeliveryId.make(newId("dlv")),
    webhookId,
    orgId: owner,
    eventId: EventId.make(newId("evt")),
    event: "lead.created",
    timestamp: eventAt,
    data: { phone: "14155550100", name: "Ada", type: "BOOKING", booking: null },
    attempt: 1,
    notBefore: eventAt,
    reason: "event",
  }
  original.current = delivery
  const attempt: AttemptRecord = {
    deliveryId: delivery.deliveryId,
    webhookId,
    orgId: owner,
    eventId: delivery.eventId,
    event: delivery.event,
    attempt: 1,
    status: "failed",
    responseStatus: 502,
    error: "HTTP 502",
    durationMs: 30,
    attemptedAt: eventAt,
  }
  await harness.publish([
    { topic: Topics.dispatchDeliveries, key: webhookId, value: encodeBusValue(DeliveryRecord, delivery) },
    { topic: Topics.dispatchAttempts, key: webhookId, value: encodeBusValue(AttemptRecord, attempt) },
  ])
  await eventually(async () => {
    const [row] = await harness.db.sql`select failure_count from webhook_registry.webhooks where id = ${webhookId}`
    expect(row?.failure_count).toBe(1)
    const deliveries = await harness.db.sql`select 1 from webhook_registry.deliveries where webhook_id = ${webhookId}`
    expect(deliveries).toHaveLength(1)
  })
})
afterAll(() => harness?.close())

/** Everything another organization could observe or change about the owner's webhook. */
const snapshot = async () => ({
  row: (await harness.db.sql`select * from webhook_registry.webhooks where id = ${webhookId}`)[0],
  busRecords: (
    await harness.db.sql`select topic, value from parley_bus.records where key = ${webhookId} order by "offset"`
  ).length,
  attempts: (
    await harness.request({ method: "GET", url: `/api/org/webhooks/${webhookId}/deliveries`, org: owner })
  ).json(),
})

const routesWithId = (): Array<[string, InjectOptions]> => {
  const deliveryId = original.current?.deliveryId
  return [
    ["read", { method: "GET", url: `/api/org/webhooks/${webhookId}` }],
    ["update", { method: "PUT", url: `/api/org/webhooks/${webhookId}`, payload: { enabled: false } }],
    [
      "update with a new secret",
      {
        method: "PUT",
        url: `/api/org/webhooks/${webhookId}`,
        payload: { secret: Buffer.alloc(32, 1).toString("base64") },
      },
    ],
    ["update with a bad body", { method: "PUT", url: `/api/org/webhooks/${webhookId}`, payload: { url: "ftp://x" } }],
    ["delete", { method: "DELETE", url: `/api/org/webhooks/${webhookId}` }],
    ["delivery log", { method: "GET", url: `/api/org/webhooks/${webhookId}/deliveries?status=failed&limit=5` }],
    ["redeliver", { method: "POST", url: `/api/org/webhooks/${webhookId}/deliveries/${deliveryId}/redeliver` }],
    ["replay", { method: "POST", url: `/api/org/webhooks/${webhookId}/replay`, payload: { since } }],
    [
      "replay of failures",
      { method: "POST", url: `/api/org/webhooks/${webhookId}/replay`, payload: { since, status: "failed" } },
    ],
    ["test event", { method: "POST", url: `/api/org/webhooks/${webhookId}/test`, payload: { event: "lead.created" } }],
    ["test event with a bad body", { method: "POST", url: `/api/org/webhooks/${webhookId}/test`, payload: {} }],
    [
      "redeliver through its own webhook",
      { method: "POST", url: `/api/org/webhooks/${strangersWebhookId}/deliveries/${deliveryId}/redeliver` },
    ],
  ]
}

describe("another organization", () => {
  it("gets 404 not_found on every route that names the webhook, and changes nothing", async () => {
    const before = await snapshot()
    expect(before.attempts.data).toHaveLength(1)
    for (const [name, call] of routesWithId()) {
      const response = await harness.request({ ...call, org: stranger, role: "admin" })
      expect(response.statusCode, name).toBe(404)
      expect(response.json(), name).toEqual({ error: "Not found", code: "not_found" })
    }
    expect(await snapshot()).toEqual(before)
  })

  it("gets the same 404 as a member on the routes a member may use", async () => {
    for (const url of [`/api/org/webhooks/${webhookId}`, `/api/org/webhooks/${webhookId}/deliveries`]) {
      const response = await harness.request({ method: "GET", url, org: stranger, role: "member" })
      expect(response.statusCode, url).toBe(404)
      expect(response.json()).toEqual({ error: "Not found", code: "not_found" })
    }
  })

  it("sees only its own webhooks in the list, and the owner only theirs", async () => {
    const theirs = await harness.request({ method: "GET", url: "/api/org/webhooks", org: stranger, role: "member" })
    expect(theirs.json().data.map((w: { id: string }) => w.id)).toEqual([strangersWebhookId])
    const mine = await harness.request({ method: "GET", url: "/api/org/webhooks", org: owner, role: "member" })
    expect(mine.json().data.map((w: { id: string }) => w.id)).toEqual([webhookId])
  })

  it("sees nothing of the owner's delivery log through its own webhook", async () => {
    const response = await harness.request({
      method: "GET",
      url: `/api/org/webhooks/${strangersWebhookId}/deliveries`,
      org: stranger,
    })
    expect(response.json()).toEqual({ data: [], nextCursor: null })
    const replay = await harness.request({
      method: "POST",
      url: `/api/org/webhooks/${strangersWebhookId}/replay`,
      org: stranger,
      payload: { since },
    })
    expect(replay.json()).toEqual({ queued: 0 })
  })

  it("leaves the owner able to use the webhook afterwards", async () => {
    const response = await harness.request({ method: "GET", url: `/api/org/webhooks/${webhookId}`, org: owner })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toMatchObject({ enabled: true, failureCount: 1, lastResponseStatus: 502 })
    const redeliver = await harness.request({
      method: "POST",
      url: `/api/org/webhooks/${webhookId}/deliveries/${original.current?.deliveryId}/redeliver`,
      org: owner,
    })
    expect(redeliver.statusCode).toBe(202)
  })
})

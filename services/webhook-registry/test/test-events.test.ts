/**
 * Test events (docs/contract.md §5): `POST /api/org/webhooks/:id/test` queues one delivery of the
 * catalogue's sample of an event for that webhook only, marked as a test — a mark its
 * redeliveries and replays keep — and the catalogue shows each event's sample.
 */
import { DeliveryRecord, decodeBusValue, EventCatalogue, type OrgId, Topics } from "@parley/contracts"
import { eventually } from "@parley/platform/testing"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Tap, tapTopic } from "./bus-tap.ts"
import { makeRegistryHarness, newOrg, type RegistryHarness } from "./harness.ts"

let harness: RegistryHarness
let tap: Tap
beforeAll(async () => {
  harness = await makeRegistryHarness()
  tap = await tapTopic(harness, Topics.dispatchDeliveries)
})
afterAll(async () => {
  await tap?.close()
  await harness?.close()
})

const createWebhook = async (org: OrgId, payload: object = {}): Promise<string> =>
  (
    await harness.request({
      method: "POST",
      url: "/api/org/webhooks",
      org,
      payload: { url: "http://127.0.0.1:9/x", ...payload },
    })
  ).json().id

const sendTest = (org: OrgId, id: string, payload: unknown, role: "admin" | "member" = "admin") =>
  harness.request({ method: "POST", url: `/api/org/webhooks/${id}/test`, org, role, payload: payload as object })

/** The delivery queued under this id, decoded as the dispatcher decodes it. */
const queued = (deliveryId: string) =>
  eventually(async () => {
    const records = await Promise.all(
      tap.records.map((record) => Effect.runPromise(decodeBusValue(DeliveryRecord)(record.value))),
    )
    const found = records.find((record) => record.deliveryId === deliveryId)
    if (found === undefined) throw new Error(`${deliveryId} not queued yet`)
    return found
  })

describe("POST /api/org/webhooks/:id/test", () => {
  it.each(EventCatalogue.map((entry) => [entry.name, entry] as const))(
    "queues one test delivery of the %s sample, timestamped now, for this webhook only",
    async (name, entry) => {
      const org = newOrg()
      // Neither subscribed to the event nor enabled: a test goes to the webhook all the same.
      const id = await createWebhook(org, { events: [name === "lead.created" ? "message.inbound" : "lead.created"] })
      await harness.request({ method: "PUT", url: `/api/org/webhooks/${id}`, org, payload: { enabled: false } })
      const before = Date.now()
      const response = await sendTest(org, id, { event: name })
      expect(response.statusCode).toBe(202)
      const { deliveryId } = response.json()
      expect(Object.keys(response.json())).toEqual(["deliveryId"])
      expect(deliveryId).toMatch(/^dlv_[0-9A-Za-z]{22}$/)
      const record = await queued(deliveryId)
      expect(record).toMatchObject({ webhookId: id, orgId: org, event: name, attempt: 1, reason: "test", test: true })
      expect(record.data).toEqual(entry.sample)
      expect(record.eventId).toMatch(/^evt_/)
      expect(Date.parse(record.timestamp)).toBeGreaterThanOrEqual(before)
      expect(Date.parse(record.timestamp)).toBeLessThanOrEqual(Date.now())
      expect(tap.records.filter((r) => r.key !== id).map((r) => JSON.parse(r.value).deliveryId)).not.toContain(
        deliveryId,
      )
    },
  )

  it("refuses a missing or unknown event with a 400 naming the field, and queues nothing", async () => {
    const org = newOrg()
    const id = await createWebhook(org)
    for (const payload of [{}, { event: "invoice.paid" }, { event: 7 }]) {
      const response = await sendTest(org, id, payload)
      expect(response.statusCode).toBe(400)
      expect(response.json()).toMatchObject({ code: "invalid_request", issues: [{ path: "event" }] })
    }
    const array = await sendTest(org, id, ["lead.created"])
    expect(array.statusCode).toBe(400)
    // The bus's log itself, where a queued delivery would be by the time the answer came.
    const logged = await harness.db.sql`
      select 1 from parley_bus.records where topic = ${Topics.dispatchDeliveries} and key = ${id}`
    expect(logged).toHaveLength(0)
  })

  it("is for administrators: a member gets 403 admin_required; an unknown webhook is 404", async () => {
    const org = newOrg()
    const id = await createWebhook(org)
    const member = await sendTest(org, id, { event: "lead.created" }, "member")
    expect(member.statusCode).toBe(403)
    expect(member.json()).toMatchObject({ code: "admin_required" })
    const missing = await sendTest(org, "wh_0000000000000000000000", { event: "lead.created" })
    expect(missing.statusCode).toBe(404)
  })

  it("a redelivery and a replay of a test delivery are test deliveries too", async () => {
    const org = newOrg()
    const id = await createWebhook(org)
    const { deliveryId } = (await sendTest(org, id, { event: "message.status" })).json()
    await eventually(async () => {
      const [row] = await harness.db.sql`
        select reason, test from webhook_registry.deliveries where delivery_id = ${deliveryId}`
      expect(row).toEqual({ reason: "test", test: true })
    })
    const redeliver = await harness.request({
      method: "POST",
      url: `/api/org/webhooks/${id}/deliveries/${deliveryId}/redeliver`,
      org,
    })
    expect(redeliver.statusCode).toBe(202)
    expect(await queued(redeliver.json().deliveryId)).toMatchObject({ reason: "redeliver", test: true })

    const replay = await harness.request({
      method: "POST",
      url: `/api/org/webhooks/${id}/replay`,
      org,
      payload: { since: new Date(Date.now() - 60_000).toISOString() },
    })
    expect(replay.json()).toEqual({ queued: 1 })
    await eventually(() => {
      const replayed = tap.records.filter((record) => record.key === id && JSON.parse(record.value).reason === "replay")
      expect(replayed.map((record) => JSON.parse(record.value))).toEqual([
        expect.objectContaining({ event: "message.status", test: true }),
      ])
    })
  })
})

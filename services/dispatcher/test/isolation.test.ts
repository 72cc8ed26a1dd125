import { eventually, type StubServer, startHttpServer } from "@parley/platform/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Harness, leadCreated, makeHarness, makeWebhook, newOrg } from "./harness.ts"

let harness: Harness
let healthy: StubServer
let unavailable: StubServer
let hung: StubServer
let dispatcher: { stop(): Promise<void> }

beforeAll(async () => {
  // One partition per topic: every delivery of the organization shares it, the worst case.
  harness = await makeHarness("single-node", { partitions: 1 })
  healthy = await startHttpServer()
  unavailable = await startHttpServer(() => ({ status: 503 }))
  hung = await startHttpServer(() => new Promise(() => {}))
  dispatcher = await harness.startDispatcher({ schedule: [0, 500, 1_000], timeoutMs: 3_000 })
})
afterAll(async () => {
  await dispatcher?.stop()
  for (const server of [healthy, unavailable, hung]) await server?.close()
  await harness?.close()
})

describe("no head-of-line blocking", () => {
  it("keeps a healthy endpoint's deliveries within a second of the event while others in its org and partition time out and fail", async () => {
    const org = newOrg()
    const webhooks = [
      makeWebhook(org, `${hung.url}/hung`),
      makeWebhook(org, `${unavailable.url}/503`),
      makeWebhook(org, `${healthy.url}/ok`),
    ]
    for (const webhook of webhooks) await harness.putWebhook(webhook)
    await eventually(async () => {
      const rows = await harness.db.sql`select 1 from dispatcher.webhooks where org_id = ${org}`
      expect(rows).toHaveLength(3)
    })
    const events = []
    const started = Date.now()
    // 120 events over about three seconds: far more than the hung endpoint's share of concurrency.
    for (let i = 0; i < 30; i++) {
      const batch = Array.from({ length: 4 }, () => leadCreated(org))
      events.push(...batch)
      await harness.publishEvents(batch)
      await eventually(() => expect(Date.now()).toBeGreaterThanOrEqual(started + (i + 1) * 100), { intervalMs: 5 })
    }
    await eventually(() => expect(healthy.requests).toHaveLength(events.length), { timeoutMs: 10_000 })
    const sentAt = new Map(events.map((event) => [event.eventId, Date.parse(event.timestamp)]))
    const lags = healthy.requests.map((request) => {
      const body = JSON.parse(request.text()) as { timestamp: string }
      return request.receivedAt - Date.parse(body.timestamp)
    })
    expect(sentAt.size).toBe(events.length)
    expect(Math.max(...lags)).toBeLessThan(1_000)
    // The others really were failing all along.
    expect(hung.requests.length).toBeGreaterThan(0)
    expect(hung.requests.length).toBeLessThanOrEqual(8 * 2)
    expect(unavailable.requests.length).toBeGreaterThan(0)
  })
})

import type { EventRecord } from "@parley/contracts"
import { eventually, type StubServer, startHttpServer } from "@parley/platform/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { deliveryIdFor } from "../src/delivery/delivery-id.ts"
import { type ChildDispatcher, startChildDispatcher } from "./child-dispatcher.ts"
import { type Harness, leadCreated, makeHarness, makeWebhook, newOrg, untilEveryDeliveryArrives } from "./harness.ts"

let harness: Harness
let receiver: StubServer
const children: Array<ChildDispatcher> = []

beforeAll(async () => {
  harness = await makeHarness("single-node")
  receiver = await startHttpServer((request) => (request.path === "/failing" ? { status: 500 } : undefined))
})
afterAll(async () => {
  for (const child of children) await child.kill()
  await receiver?.close()
  await harness?.close()
})

const start = async (scheduleMs?: string) => {
  const child = await startChildDispatcher({
    databaseUrl: harness.db.url,
    extra: harness.childEnv,
    ...(scheduleMs === undefined ? {} : { scheduleMs }),
  })
  children.push(child)
  return child
}

const requestsFor = (path: string) => receiver.requests.filter((request) => request.path === path)

describe("durability", () => {
  it("makes the remaining attempts with the same delivery id after the dispatcher is killed between attempts, and never a fourth", async () => {
    const org = newOrg()
    const webhook = makeWebhook(org, `${receiver.url}/failing`)
    await harness.putWebhook(webhook)
    const first = await start("0,3000,3000")
    await harness.projected(webhook)
    const event = leadCreated(org)
    await harness.publishEvents([event])
    await eventually(() => expect(requestsFor("/failing")).toHaveLength(1), { timeoutMs: 15_000 })
    // Killed while attempt 2 waits on the delay topic.
    // Killed only once attempt 1 is on the bus: "between attempts".
    await eventually(() => expect(harness.attempts.filter((a) => a.webhookId === webhook.webhookId)).toHaveLength(1))
    await first.kill()
    await start("0,3000,3000")
    await eventually(() => expect(requestsFor("/failing").length).toBeGreaterThanOrEqual(3), {
      timeoutMs: 40_000,
      intervalMs: 100,
    })
    const requests = requestsFor("/failing")
    expect(requests.map((r) => r.headers["x-service-attempt"])).toEqual(["1", "2", "3"])
    expect(new Set(requests.map((r) => r.headers["x-service-delivery"]))).toEqual(
      new Set([deliveryIdFor(event.eventId, webhook.webhookId)]),
    )
    const settledAt = Date.now()
    await eventually(() => expect(Date.now() - settledAt).toBeGreaterThan(7_000), { timeoutMs: 10_000 })
    expect(requestsFor("/failing")).toHaveLength(3)
  }, 90_000)

  it("delivers after a restart the deliveries it had parked for a hung webhook when it was killed", async () => {
    const org = newOrg()
    let hanging = true
    receiver.setHandler((request) => {
      if (request.path === "/failing") return { status: 500 }
      if (request.path === "/hangs-then-answers" && hanging) return new Promise(() => {})
      return undefined
    })
    const webhook = makeWebhook(org, `${receiver.url}/hangs-then-answers`)
    await harness.putWebhook(webhook)
    const first = await start()
    await harness.projected(webhook)
    const events = Array.from({ length: 40 }, () => leadCreated(org))
    await harness.publishEvents(events)
    // Eight attempts hang; everything else is parked (and the fan-out's position moves past it).
    await eventually(
      async () => {
        const [row] = await harness.db.sql<Array<{ parked: number }>>`
          select count(*)::int as parked from dispatcher.parked_deliveries where webhook_id = ${webhook.webhookId}`
        expect(row?.parked).toBe(32)
      },
      { timeoutMs: 15_000 },
    )
    await first.kill()
    hanging = false
    await start()
    const arrived = () =>
      new Set(
        requestsFor("/hangs-then-answers")
          .filter((request) => request.headers["x-service-attempt"] === "1")
          .map((request) => String(request.headers["x-service-delivery"])),
      )
    await eventually(() => expect(arrived().size).toBe(40), { timeoutMs: 30_000, intervalMs: 100 })
    expect(arrived()).toEqual(new Set(events.map((event) => deliveryIdFor(event.eventId, webhook.webhookId))))
    await eventually(async () => {
      const [row] = await harness.db.sql<Array<{ parked: number }>>`
        select count(*)::int as parked from dispatcher.parked_deliveries where webhook_id = ${webhook.webhookId}`
      expect(row?.parked).toBe(0)
    })
  }, 90_000)

  it("loses nothing when the dispatcher is killed and restarted while thousands of events stream in", async () => {
    const org = newOrg()
    const webhooks = [makeWebhook(org, `${receiver.url}/stream-a`), makeWebhook(org, `${receiver.url}/stream-b`)]
    for (const webhook of webhooks) await harness.putWebhook(webhook)
    let child = await start()
    for (const webhook of webhooks) await harness.projected(webhook)
    const events: Array<EventRecord> = []
    for (let batch = 0; batch < 20; batch++) {
      const next = Array.from({ length: 150 }, () => leadCreated(org))
      events.push(...next)
      await harness.publishEvents(next)
      if (batch === 8) {
        await child.kill()
        child = await start()
      }
    }
    const expected = await untilEveryDeliveryArrives(receiver, events, webhooks, async () => {
      const offsets = await harness.db
        .sql`select g.group_id, g.topic, g.partition, g.committed, p.next_offset from parley_bus.group_offsets g join parley_bus.partitions p using (topic, partition) where g.committed < p.next_offset order by 1,2,3`
      const leases = await harness.db
        .sql`select group_id, topic, partition, member_id, expires_at > now() as live from parley_bus.leases order by 1,2,3`
      return `${JSON.stringify(offsets, (_k, v) => (typeof v === "bigint" ? String(v) : v))}\n${JSON.stringify(leases)}\n${children.map((c) => c.output().slice(-3000)).join("\n---\n")}`
    })
    expect(expected.size).toBe(6_000)
  }, 120_000)
})

import { partitionOf } from "@parley/bus/testing"
import { type EventRecord, TopicCatalog, Topics, WebhookId } from "@parley/contracts"
import { newId } from "@parley/platform"
import { eventually, type StubServer, startHttpServer } from "@parley/platform/testing"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { deliveryIdFor } from "../src/delivery/delivery-id.ts"
import { type ChildDispatcher, startChildDispatcher } from "./child-dispatcher.ts"
import { type Harness, leadCreated, makeHarness, makeWebhook, newOrg, untilEveryDeliveryArrives } from "./harness.ts"

let harness: Harness
let receiver: StubServer
const children: Array<ChildDispatcher> = []

beforeAll(async () => {
  harness = await makeHarness("kafka")
  receiver = await startHttpServer((request) => (request.path === "/failing" ? { status: 500 } : undefined))
}, 60_000)
// Each test starts from groups with no member: the last one's dispatchers leave them as a deployment does.
afterEach(async () => {
  for (const child of children.splice(0)) await child.stop()
})
afterAll(async () => {
  for (const child of children) await child.kill()
  await receiver?.close()
  await harness?.close()
})

const requestsFor = (path: string) => receiver.requests.filter((request) => request.path === path)

const start = async (ready = true) => {
  const child = await startChildDispatcher({
    databaseUrl: harness.db.url,
    scheduleMs: "0,3000,3000",
    // A short session, so the restarted member does not wait 30 s for the killed one to time out.
    extra: { ...harness.childEnv, KAFKA_SESSION_TIMEOUT_MS: "6000", KAFKA_FETCH_MAX_WAIT_MS: "100" },
    ready,
  })
  children.push(child)
  return child
}

/** Two webhook ids on different partitions of the topics keyed by webhook. */
const distinctPartitionIds = (partitions: number): [WebhookId, WebhookId] => {
  const first = WebhookId.make(newId("wh"))
  for (;;) {
    const second = WebhookId.make(newId("wh"))
    if (partitionOf("kafka", second, partitions) !== partitionOf("kafka", first, partitions)) return [first, second]
  }
}

describe("durability on Kafka", () => {
  it("makes the remaining attempts with the same delivery id after the dispatcher is killed between attempts", async () => {
    const org = newOrg()
    const webhook = makeWebhook(org, `${receiver.url}/failing`)
    await harness.putWebhook(webhook)
    const first = await start()
    await harness.projected(webhook)
    const event = leadCreated(org)
    await harness.publishEvents([event])
    await eventually(() => expect(harness.attempts.filter((a) => a.webhookId === webhook.webhookId)).toHaveLength(1), {
      timeoutMs: 30_000,
    })
    await first.kill()
    // Not ready until the killed member's Kafka session expires; the attempts below say when it is.
    await start(false)
    await eventually(() => expect(requestsFor("/failing").length).toBeGreaterThanOrEqual(3), {
      timeoutMs: 90_000,
      intervalMs: 100,
    }).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${children.map((c) => c.output().slice(-4000)).join("\n---\n")}`)
    })
    expect(requestsFor("/failing").map((r) => r.headers["x-service-attempt"])).toEqual(["1", "2", "3"])
    expect(new Set(requestsFor("/failing").map((r) => r.headers["x-service-delivery"]))).toEqual(
      new Set([deliveryIdFor(event.eventId, webhook.webhookId)]),
    )
    const settledAt = Date.now()
    await eventually(() => expect(Date.now() - settledAt).toBeGreaterThan(7_000), { timeoutMs: 10_000 })
    expect(requestsFor("/failing")).toHaveLength(3)
  }, 180_000)

  it("loses nothing when the dispatcher is killed and restarted while thousands of events stream in", async () => {
    const org = newOrg()
    // On partitions of their own, so neither webhook's records crowd the other's (the librdkafka
    // mock drops records past 5 MiB in one partition).
    const partitions = TopicCatalog.find((topic) => topic.name === Topics.dispatchDeliveries)?.partitions ?? 1
    const [first, second] = distinctPartitionIds(partitions)
    const webhooks = [
      makeWebhook(org, `${receiver.url}/stream-a`, { webhookId: first }),
      makeWebhook(org, `${receiver.url}/stream-b`, { webhookId: second }),
    ]
    for (const webhook of webhooks) await harness.putWebhook(webhook)
    let child = await start()
    for (const webhook of webhooks) await harness.projected(webhook)
    const events: Array<EventRecord> = []
    for (let batch = 0; batch < 20; batch++) {
      const next = Array.from({ length: 150 }, () => leadCreated(org))
      events.push(...next)
      await harness.publishEvents(next)
      if (batch === 8) {
        // Only once it is delivering, so the kill lands mid-stream.
        await eventually(() => expect(requestsFor("/stream-a").length).toBeGreaterThan(0), { timeoutMs: 20_000 })
        await child.kill()
        // Not ready until the killed member's session expires; the deliveries below say when it is.
        child = await start(false)
      }
    }
    const expected = await untilEveryDeliveryArrives(receiver, events, webhooks, () =>
      children.map((c) => c.output().slice(-4000)).join("\n---\n"),
    )
    expect(expected.size).toBe(6_000)
  }, 120_000)
})

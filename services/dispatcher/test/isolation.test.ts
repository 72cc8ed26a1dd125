import { partitionOf } from "@parley/bus/testing"
import { TopicCatalog, Topics, type WebhookId } from "@parley/contracts"
import { newId } from "@parley/platform"
import { eventually, type StubServer, startHttpServer } from "@parley/platform/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type BusKind, type Harness, leadCreated, makeHarness, makeWebhook, newOrg } from "./harness.ts"

/**
 * Webhook ids that all land on one partition of the delivery and retry topics (keyed by webhook), so
 * the healthy endpoint shares every partition with the failing ones: the worst case.
 */
const coPartitionedIds = (kind: BusKind, partitions: number, count: number): Array<WebhookId> => {
  const ids: Array<WebhookId> = [newId("wh") as WebhookId]
  const target = partitionOf(kind, ids[0] as string, partitions)
  while (ids.length < count) {
    const id = newId("wh") as WebhookId
    if (partitionOf(kind, id, partitions) === target) ids.push(id)
  }
  return ids
}

describe.each(["single-node", "kafka"] as const)("on the %s bus", (kind) => {
  let harness: Harness
  let healthy: StubServer
  let unavailable: StubServer
  let hung: StubServer
  let dispatcher: { stop(): Promise<void> }

  // The single-node bus gets one partition per topic; Kafka keeps the catalogue's (the topics may be
  // shared with other tests), and the webhooks are placed on one of them instead.
  const partitions =
    kind === "single-node"
      ? 1
      : (TopicCatalog.find((topic) => topic.name === Topics.dispatchDeliveries)?.partitions ?? 1)

  beforeAll(async () => {
    harness = await makeHarness(kind, kind === "single-node" ? { partitions: 1 } : {})
    healthy = await startHttpServer()
    unavailable = await startHttpServer(() => ({ status: 503 }))
    hung = await startHttpServer(() => new Promise(() => {}))
    dispatcher = await harness.startDispatcher({ schedule: [0, 500, 1_000], timeoutMs: 3_000 })
  }, 60_000)
  afterAll(async () => {
    await dispatcher?.stop()
    for (const server of [healthy, unavailable, hung]) await server?.close()
    await harness?.close()
  })

  describe("no head-of-line blocking", () => {
    it("keeps a healthy endpoint's deliveries within a second of the event while others in its org and partition time out and fail", async () => {
      const org = newOrg()
      const [hungId, unavailableId, healthyId] = coPartitionedIds(kind, partitions, 3) as [
        WebhookId,
        WebhookId,
        WebhookId,
      ]
      const webhooks = [
        makeWebhook(org, `${hung.url}/hung`, { webhookId: hungId }),
        makeWebhook(org, `${unavailable.url}/503`, { webhookId: unavailableId }),
        makeWebhook(org, `${healthy.url}/ok`, { webhookId: healthyId }),
      ]
      for (const webhook of webhooks) await harness.putWebhook(webhook)
      for (const webhook of webhooks) await harness.projected(webhook)
      // Every consumer group of the pipeline is serving before the clock starts (on Kafka a group
      // joins some time after the dispatcher starts): one event to a healthy webhook of another org.
      const warmUp = newOrg()
      const warmUpWebhook = makeWebhook(warmUp, `${healthy.url}/warm-up`)
      await harness.putWebhook(warmUpWebhook)
      await harness.projected(warmUpWebhook)
      await harness.publishEvents([leadCreated(warmUp)])
      await eventually(() => expect(healthy.requests).toHaveLength(1), { timeoutMs: 30_000 })

      const events = []
      const started = Date.now()
      // 120 events over about three seconds: far more than the hung endpoint's share of concurrency.
      for (let i = 0; i < 30; i++) {
        const batch = Array.from({ length: 4 }, () => leadCreated(org))
        events.push(...batch)
        await harness.publishEvents(batch)
        await eventually(() => expect(Date.now()).toBeGreaterThanOrEqual(started + (i + 1) * 100), { intervalMs: 5 })
      }
      const deliveries = () => healthy.requests.filter((request) => request.path === "/ok")
      await eventually(() => expect(deliveries()).toHaveLength(events.length), { timeoutMs: 10_000 })
      const sentAt = new Map(events.map((event) => [event.eventId, Date.parse(event.timestamp)]))
      const lags = deliveries().map((request) => {
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
})

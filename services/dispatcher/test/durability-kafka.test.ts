import { eventually, type StubServer, startHttpServer } from "@parley/platform/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { deliveryIdFor } from "../src/delivery-id.ts"
import { type ChildDispatcher, startChildDispatcher } from "./child-dispatcher.ts"
import { type Harness, leadCreated, makeHarness, makeWebhook, newOrg } from "./harness.ts"

let harness: Harness
let receiver: StubServer
const children: Array<ChildDispatcher> = []

beforeAll(async () => {
  harness = await makeHarness("kafka")
  receiver = await startHttpServer(() => ({ status: 500 }))
}, 60_000)
afterAll(async () => {
  for (const child of children) await child.kill()
  await receiver?.close()
  await harness?.close()
})

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

describe("durability on Kafka", () => {
  it("makes the remaining attempts with the same delivery id after the dispatcher is killed between attempts", async () => {
    const org = newOrg()
    const webhook = makeWebhook(org, `${receiver.url}/failing`)
    await harness.putWebhook(webhook)
    const first = await start()
    const event = leadCreated(org)
    await harness.publishEvents([event])
    await eventually(() => expect(harness.attempts.filter((a) => a.webhookId === webhook.webhookId)).toHaveLength(1), {
      timeoutMs: 30_000,
    })
    await first.kill()
    // Not ready until the killed member's Kafka session expires; the attempts below say when it is.
    await start(false)
    await eventually(() => expect(receiver.requests.length).toBeGreaterThanOrEqual(3), {
      timeoutMs: 90_000,
      intervalMs: 100,
    }).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${children.map((c) => c.output().slice(-4000)).join("\n---\n")}`)
    })
    expect(receiver.requests.map((r) => r.headers["x-service-attempt"])).toEqual(["1", "2", "3"])
    expect(new Set(receiver.requests.map((r) => r.headers["x-service-delivery"]))).toEqual(
      new Set([deliveryIdFor(event.eventId, webhook.webhookId)]),
    )
    const settledAt = Date.now()
    await eventually(() => expect(Date.now() - settledAt).toBeGreaterThan(7_000), { timeoutMs: 10_000 })
    expect(receiver.requests).toHaveLength(3)
  }, 180_000)
})

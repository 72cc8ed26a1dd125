import { eventually, type StubServer, startHttpServer } from "@parley/platform/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Harness, leadCreated, makeHarness, makeWebhook, newOrg } from "./harness.ts"

let harness: Harness
let receiver: StubServer
let dispatcher: { stop(): Promise<void> }

beforeAll(async () => {
  harness = await makeHarness("single-node")
  receiver = await startHttpServer(() => ({ status: 503 }))
  // The production schedule, not a faster one.
  dispatcher = await harness.startDispatcher()
})
afterAll(async () => {
  await dispatcher?.stop()
  await receiver?.close()
  await harness?.close()
})

describe("the real attempt schedule", () => {
  it("retries about 5 s and then about 10 s after each failure, and stops at three", async () => {
    const org = newOrg()
    const webhook = makeWebhook(org, `${receiver.url}/down`)
    await harness.putWebhook(webhook)
    await harness.projected(webhook)
    await harness.publishEvents([leadCreated(org)])
    await eventually(() => expect(receiver.requests).toHaveLength(3), { timeoutMs: 25_000, intervalMs: 100 })
    const [first, second, third] = receiver.requests.map((r) => r.receivedAt) as [number, number, number]
    expect(second - first).toBeGreaterThanOrEqual(4_900)
    expect(second - first).toBeLessThan(6_500)
    expect(third - second).toBeGreaterThanOrEqual(9_900)
    expect(third - second).toBeLessThan(11_500)
    expect(receiver.requests.map((r) => r.headers["x-service-attempt"])).toEqual(["1", "2", "3"])
  }, 40_000)
})

/**
 * What every attempt carries to be verified (docs/contract.md §6): the Standard Webhooks headers beside
 * X-Service-Signature, the previous key's signature during a rotation's window, and X-Service-Test
 * on every attempt of a test delivery. Single-node bus only: the headers do not depend on the bus,
 * and both buses carry deliveries and retries in delivery.test.ts and retries.test.ts.
 */
import { DeliveryId, type DeliveryRecord, type EventId, isoTimestamp } from "@parley/contracts"
import { newId } from "@parley/platform"
import { eventually, type ReceivedRequest, type StubServer, startHttpServer } from "@parley/platform/testing"
import { sign, verify } from "@parley/webhooks"
import { sampleEventData } from "@parley/webhooks/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Harness, leadCreated, makeHarness, makeWebhook, newOrg, type TestWebhook } from "./harness.ts"

let harness: Harness
let receiver: StubServer
let dispatcher: { stop(): Promise<void> }

beforeAll(async () => {
  harness = await makeHarness("single-node")
  receiver = await startHttpServer((request) => (request.path.startsWith("/failing") ? { status: 503 } : undefined))
  dispatcher = await harness.startDispatcher({ schedule: [0, 300, 600] })
})
afterAll(async () => {
  await dispatcher?.stop()
  await receiver?.close()
  await harness?.close()
})

const register = async (webhook: TestWebhook) => {
  await harness.putWebhook(webhook)
  await harness.projected(webhook)
}
const requestsFor = (path: string) => receiver.requests.filter((request) => request.path === path)
const whsec = (secret: string) => `whsec_${Buffer.from(secret, "base64").toString("base64")}`
const signatures = (request: ReceivedRequest) => String(request.headers["webhook-signature"]).split(" ")

describe("every attempt", () => {
  it("carries webhook-id, webhook-timestamp and webhook-signature, verified by either form of the secret", async () => {
    const org = newOrg()
    const webhook = makeWebhook(org, `${receiver.url}/failing-standard`)
    await register(webhook)
    const before = Math.floor(Date.now() / 1000)
    await harness.publishEvents([leadCreated(org)])
    await eventually(() => expect(requestsFor("/failing-standard")).toHaveLength(3), { timeoutMs: 10_000 })
    const after = Math.floor(Date.now() / 1000)
    for (const request of requestsFor("/failing-standard")) {
      expect(request.headers["webhook-id"]).toBe(request.headers["x-service-delivery"])
      const signedAt = Number(request.headers["webhook-timestamp"])
      expect(signedAt).toBeGreaterThanOrEqual(before)
      expect(signedAt).toBeLessThanOrEqual(after)
      expect(Math.abs(request.receivedAt / 1000 - signedAt)).toBeLessThan(2)
      expect(signatures(request)).toEqual([expect.stringMatching(/^v1,[A-Za-z0-9+/]{43}=$/)])
      expect(request.headers["x-service-test"]).toBeUndefined()
      for (const secret of [webhook.secret, whsec(webhook.secret)]) {
        expect((await verify(request.body, request.headers, secret)).event).toBe("lead.created")
      }
      // The Standard signature is checked: one by another key does not pass on X-Service-Signature's strength.
      await expect(verify(request.body, request.headers, whsec(makeWebhook(org, "").secret))).rejects.toMatchObject({
        _tag: "InvalidSignature",
      })
    }
  })
})

describe("during a rotation's window", () => {
  it("webhook-signature carries the new key's signature and then the previous key's; X-Service-Signature the new key's only", async () => {
    const org = newOrg()
    const old = makeWebhook(org, "").secret
    const webhook = makeWebhook(org, `${receiver.url}/rotated`, {
      previousSecret: { secret: old, expiresAt: isoTimestamp(Date.now() + 86_400_000) },
    })
    await register(webhook)
    await harness.publishEvents([leadCreated(org)])
    await eventually(() => expect(requestsFor("/rotated")).toHaveLength(1))
    const [request] = requestsFor("/rotated") as [ReceivedRequest]
    expect(signatures(request)).toHaveLength(2)
    expect(request.headers["x-service-signature"]).toBe(await sign(request.body, webhook.secret))
    const [first, second] = signatures(request)
    for (const [secret, only] of [
      [webhook.secret, first],
      [old, second],
    ] as const) {
      expect((await verify(request.body, request.headers, secret)).event).toBe("lead.created")
      expect((await verify(request.body, { ...request.headers, "webhook-signature": only }, secret)).event).toBe(
        "lead.created",
      )
    }
  })

  it("the previous key signs no more once its window has ended", async () => {
    const org = newOrg()
    const webhook = makeWebhook(org, `${receiver.url}/rotation-over`, {
      previousSecret: { secret: makeWebhook(org, "").secret, expiresAt: isoTimestamp(Date.now() - 1) },
    })
    await register(webhook)
    await harness.publishEvents([leadCreated(org)])
    await eventually(() => expect(requestsFor("/rotation-over")).toHaveLength(1))
    const [request] = requestsFor("/rotation-over") as [ReceivedRequest]
    expect(signatures(request)).toHaveLength(1)
    expect((await verify(request.body, request.headers, webhook.secret)).event).toBe("lead.created")
  })
})

const testDelivery = (webhook: TestWebhook, event: "template.quality" | "lead.updated"): DeliveryRecord => {
  const now = isoTimestamp(Date.now())
  return {
    deliveryId: DeliveryId.make(newId("dlv")),
    webhookId: webhook.webhookId,
    orgId: webhook.orgId,
    eventId: newId("evt") as EventId,
    event,
    timestamp: now,
    data: sampleEventData[event],
    attempt: 1,
    notBefore: now,
    reason: "test",
    test: true,
  } as DeliveryRecord
}

describe("a test delivery", () => {
  it("that overtakes its webhook's creation (another topic, another consumer) waits for it instead of being dropped", async () => {
    const org = newOrg()
    const webhook = makeWebhook(org, `${receiver.url}/overtaken`)
    const test = testDelivery(webhook, "lead.updated")
    await harness.publishDeliveries([test])
    // The webhook becomes known a second after the delivery was queued: long after the deliveries
    // consumer read it (milliseconds on this bus), which used to drop it as a deleted webhook's.
    const queuedAt = Date.now()
    await eventually(() => expect(Date.now()).toBeGreaterThan(queuedAt + 1_000), { intervalMs: 20 })
    expect(requestsFor("/overtaken")).toHaveLength(0)
    await harness.putWebhook(webhook)
    await eventually(() => expect(requestsFor("/overtaken")).toHaveLength(1), { timeoutMs: 10_000 })
    expect(requestsFor("/overtaken")[0]?.headers["x-service-delivery"]).toBe(test.deliveryId)
  })

  it("goes to a disabled webhook not subscribed to it, and every attempt carries X-Service-Test: true", async () => {
    const org = newOrg()
    const webhook = makeWebhook(org, `${receiver.url}/failing-test`, { enabled: false, events: ["lead.created"] })
    await register(webhook)
    const test = testDelivery(webhook, "template.quality")
    const now = test.timestamp
    await harness.publishDeliveries([test])
    await eventually(() => expect(requestsFor("/failing-test")).toHaveLength(3), { timeoutMs: 10_000 })
    for (const request of requestsFor("/failing-test")) {
      expect(request.headers["x-service-test"]).toBe("true")
      expect(request.headers["x-service-delivery"]).toBe(test.deliveryId)
      expect(await verify(request.body, request.headers, webhook.secret)).toEqual({
        event: "template.quality",
        timestamp: now,
        data: sampleEventData["template.quality"],
      })
    }
    await eventually(() => {
      const attempts = harness.attempts.filter((attempt) => attempt.deliveryId === test.deliveryId)
      expect(attempts.map((attempt) => attempt.attempt)).toEqual([1, 2, 3])
      expect(attempts[0]?.envelope).toMatchObject({ reason: "test", test: true })
    })
  })
})

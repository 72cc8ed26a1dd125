import type { Resolver } from "@parley/egress"
import { eventually, type StubServer, startHttpServer } from "@parley/platform/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Harness, leadCreated, makeHarness, makeWebhook, newOrg, type TestWebhook } from "./harness.ts"

// The egress check does not depend on the bus, so one bus is enough here.
let harness: Harness
let receiver: StubServer
let dispatcher: { stop(): Promise<void> }
const lookups: Array<string> = []

/** Plays DNS: every name points at loopback, where the receiver listens. */
const toLoopback: Resolver = async (hostname) => {
  lookups.push(hostname)
  return [{ address: "127.0.0.1", family: 4 }]
}

beforeAll(async () => {
  harness = await makeHarness("single-node")
  receiver = await startHttpServer()
  dispatcher = await harness.startDispatcher({
    allowPrivate: false,
    resolver: toLoopback,
    schedule: [0, 200, 400],
    timeoutMs: 2_000,
  })
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

const attemptsOf = (webhook: TestWebhook) =>
  harness.attempts
    .filter((attempt) => attempt.webhookId === webhook.webhookId)
    .map((attempt) => [attempt.attempt, attempt.status, attempt.responseStatus, attempt.error])

const refusedThreeTimes = [
  [1, "failed", null, "blocked address"],
  [2, "failed", null, "blocked address"],
  [3, "failed", null, "blocked address"],
]

describe("with private addresses not allowed", () => {
  it("refuses at delivery a webhook whose host resolves to a loopback receiver, records every attempt failed and sends it nothing", async () => {
    const org = newOrg()
    // Accepted at registration (its name resolved public then, say); loopback by the time it is delivered.
    const webhook = makeWebhook(org, `http://receiver.test:${receiver.port}/by-name`)
    await register(webhook)
    await harness.publishEvents([leadCreated(org)])
    await eventually(() => expect(attemptsOf(webhook)).toEqual(refusedThreeTimes), { timeoutMs: 10_000 })
    expect(lookups).toContain("receiver.test")
    expect(receiver.requests).toHaveLength(0)
  })

  it("refuses at delivery an IPv4-mapped IPv6 literal of the loopback receiver by the address actually connected to", async () => {
    const org = newOrg()
    const webhook = makeWebhook(org, `http://[::ffff:127.0.0.1]:${receiver.port}/literal`)
    await register(webhook)
    await harness.publishEvents([leadCreated(org)])
    await eventually(() => expect(attemptsOf(webhook)).toEqual(refusedThreeTimes), { timeoutMs: 10_000 })
    expect(receiver.requests).toHaveLength(0)
  })
})

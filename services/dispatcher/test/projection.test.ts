import { eventually, type StubServer, startHttpServer } from "@parley/platform/testing"
import { verify } from "@parley/webhooks"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Harness, leadCreated, makeHarness, makeWebhook, newOrg, type TestWebhook } from "./harness.ts"

let harness: Harness
let receiver: StubServer
let dispatcher: { stop(): Promise<void> }

beforeAll(async () => {
  harness = await makeHarness("single-node")
  receiver = await startHttpServer()
  dispatcher = await harness.startDispatcher()
})
afterAll(async () => {
  await dispatcher?.stop()
  await receiver?.close()
  await harness?.close()
})

const requestsFor = (path: string) => receiver.requests.filter((request) => request.path === path)

/**
 * Applies a change, then — once one second has passed since it was committed, as docs/contract.md §6
 * allows — publishes one event to `target`'s organization and waits for the control webhook of that
 * organization to receive it, so that the absence of a delivery elsewhere means something.
 */
const eventOneSecondAfter = async (change: () => Promise<void>, control: TestWebhook) => {
  await change()
  const answeredAt = Date.now()
  await eventually(() => expect(Date.now()).toBeGreaterThan(answeredAt + 1_000), { intervalMs: 10 })
  const before = requestsFor(new URL(control.url).pathname).length
  await harness.publishEvents([leadCreated(control.orgId)])
  await eventually(() => expect(requestsFor(new URL(control.url).pathname)).toHaveLength(before + 1))
}

describe("a webhook change applies to events more than one second after it", () => {
  it("applies creation, disabling, enabling, rotation, re-subscription, a new URL and deletion", async () => {
    const org = newOrg()
    const control = makeWebhook(org, `${receiver.url}/control`)
    await harness.putWebhook(control)
    const webhook = makeWebhook(org, `${receiver.url}/changing`)

    await eventOneSecondAfter(() => harness.putWebhook(webhook), control)
    await eventually(() => expect(requestsFor("/changing")).toHaveLength(1))

    webhook.enabled = false
    webhook.version++
    await eventOneSecondAfter(() => harness.putWebhook(webhook), control)
    expect(requestsFor("/changing")).toHaveLength(1)

    webhook.enabled = true
    webhook.version++
    await eventOneSecondAfter(() => harness.putWebhook(webhook), control)
    await eventually(() => expect(requestsFor("/changing")).toHaveLength(2))

    const rotated = { ...webhook, secret: Buffer.alloc(32, 9).toString("base64"), version: webhook.version + 1 }
    await eventOneSecondAfter(() => harness.putWebhook(rotated), control)
    await eventually(() => expect(requestsFor("/changing")).toHaveLength(3))
    const last = requestsFor("/changing").at(-1)
    if (last === undefined) throw new Error("no delivery after rotation")
    await expect(verify(last.body, last.headers, rotated.secret)).resolves.toMatchObject({ event: "lead.created" })
    await expect(verify(last.body, last.headers, webhook.secret)).rejects.toBeDefined()

    const unsubscribed = { ...rotated, events: ["message.inbound" as const], version: rotated.version + 1 }
    await eventOneSecondAfter(() => harness.putWebhook(unsubscribed), control)
    expect(requestsFor("/changing")).toHaveLength(3)

    const moved = {
      ...unsubscribed,
      url: `${receiver.url}/moved`,
      events: ["lead.created" as const],
      version: unsubscribed.version + 1,
    }
    await eventOneSecondAfter(() => harness.putWebhook(moved), control)
    await eventually(() => expect(requestsFor("/moved")).toHaveLength(1))
    expect(requestsFor("/changing")).toHaveLength(3)

    await eventOneSecondAfter(() => harness.putWebhook({ ...moved, version: moved.version + 1 }, true), control)
    expect(requestsFor("/moved")).toHaveLength(1)
  })

  it("ignores a change older than the one it holds", async () => {
    const org = newOrg()
    const control = makeWebhook(org, `${receiver.url}/control-2`)
    await harness.putWebhook(control)
    const webhook = makeWebhook(org, `${receiver.url}/versioned`, { version: 5 })
    await harness.putWebhook(webhook)
    await eventOneSecondAfter(() => harness.putWebhook({ ...webhook, enabled: false, version: 4 }), control)
    await eventually(() => expect(requestsFor("/versioned")).toHaveLength(1))
  })
})

/**
 * Real deliveries of `npm start`'s composition, verified as receivers verify them (docs/contract.md §5,
 * §6, §12): with the `standardwebhooks` npm package (any Standard Webhooks library would do) and
 * with @parley/webhooks. Both refuse a tampered body, a wrong secret, and the same request replayed
 * more than five minutes later; across a secret rotation a receiver on either key keeps verifying.
 */
import { randomBytes } from "node:crypto"
import { eventually, type ReceivedRequest, type StubServer, startHttpServer } from "@parley/platform/testing"
import { sign } from "@parley/webhooks"
import { sampleEventData } from "@parley/webhooks/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { parleyAt, standardAt } from "./support/receiver-clock.ts"
import { type MintedKey, type System, startSystem, type Tenant } from "./support/system.ts"

let system: System
let receiver: StubServer
let tenant: Tenant
let key: MintedKey
let webhook: { id: string; secret: string; signingSecret: string }

beforeAll(async () => {
  receiver = await startHttpServer(() => ({ status: 204 }))
  system = await startSystem()
  tenant = await system.createTenant()
  key = await tenant.mintKey()
  const created = await key.client.post("/api/org/webhooks", {
    url: `${receiver.url}/standard`,
    events: ["lead.created"],
  })
  expect(created.status, created.text).toBe(201)
  webhook = created.body
}, 60_000)

afterAll(async () => {
  await system?.close()
  await receiver?.close()
})

const headersOf = (request: ReceivedRequest): Record<string, string> =>
  Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]))

const arrival = (matches: (request: ReceivedRequest) => boolean, what: string) =>
  eventually(
    () => {
      const found = receiver.requests.find(matches)
      if (found === undefined) throw new Error(`${what} has not arrived yet`)
      return found
    },
    { timeoutMs: 20_000 },
  )

/** A test event (POST /api/org/webhooks/:id/test): a real delivery through the dispatcher. */
const testEvent = async (event: string) => {
  const answer = await key.client.post(`/api/org/webhooks/${webhook.id}/test`, { event })
  expect(answer.status, answer.text).toBe(202)
  const deliveryId = answer.body.deliveryId as string
  return arrival((r) => r.headers["x-service-delivery"] === deliveryId, `test delivery ${deliveryId}`)
}

const otherSecret = () => `whsec_${randomBytes(32).toString("base64")}`

/** Both libraries on one delivery, at the receiver's `nowMs`. */
const judge = async (request: ReceivedRequest, secret: string, nowMs = Date.now(), body = request.text()) => ({
  standardwebhooks: standardAt(nowMs, secret, body, headersOf(request)),
  parley: await parleyAt(nowMs, secret, body, request.headers),
})

describe("a real delivery", () => {
  it("verifies with standardwebhooks and @parley/webhooks; both refuse it tampered, under another secret, or five minutes on", async () => {
    // A test event of an event the webhook is not subscribed to. Once it has arrived the dispatcher
    // knows the webhook (a test event waits for that; an event is not delivered to a webhook the
    // dispatcher learns of later), so the event below is sure to be delivered.
    const test = await testEvent("template.status")
    expect(test.headers["x-service-test"]).toBe("true")
    expect(test.json()).toMatchObject({ event: "template.status", data: sampleEventData["template.status"] })
    // An event that happened: a widget visitor leaves a number, the assistant records a lead.
    const widget = await tenant.mintKey(["chat:write"])
    const chat = await widget.client.post("/api/public/chat", {
      message: "Hi, this is Ada Lovelace, please call me back on +44 20 7946 0958",
    })
    expect(chat.status, chat.text).toBe(200)
    const lead = await arrival((r) => r.headers["x-service-event"] === "lead.created", "the lead.created delivery")
    expect(lead.headers["x-service-test"]).toBeUndefined()

    for (const request of [lead, test]) {
      expect(request.headers["webhook-id"]).toBe(request.headers["x-service-delivery"])
      expect(Math.abs(Number(request.headers["webhook-timestamp"]) - request.receivedAt / 1000)).toBeLessThan(5)

      const authentic = await judge(request, webhook.signingSecret)
      expect(authentic.standardwebhooks).toEqual({ accepted: true, value: request.json() })
      expect(authentic.parley).toEqual({ accepted: true, value: request.json() })
      // @parley/webhooks takes the secret as registered too.
      expect((await parleyAt(Date.now(), webhook.secret, request.body, request.headers)).accepted).toBe(true)

      const tampered = await judge(request, webhook.signingSecret, Date.now(), request.text().replace("}", " }"))
      expect(tampered).toEqual({
        standardwebhooks: { accepted: false, why: "No matching signature found" },
        parley: { accepted: false, why: "InvalidSignature" },
      })
      expect(await judge(request, otherSecret())).toEqual({
        standardwebhooks: { accepted: false, why: "No matching signature found" },
        parley: { accepted: false, why: "InvalidSignature" },
      })
      const replayedLater = Number(request.headers["webhook-timestamp"]) * 1000 + 5 * 60_000 + 1_000
      expect(await judge(request, webhook.signingSecret, replayedLater)).toEqual({
        standardwebhooks: { accepted: false, why: "Message timestamp too old" },
        parley: { accepted: false, why: "TimestampOutsideTolerance" },
      })
    }
  }, 60_000)
})

describe("a secret rotation", () => {
  it("keeps deliveries verifying for receivers on the new key and on the previous one", async () => {
    const previous = webhook
    const next = randomBytes(32).toString("base64url")
    const rotated = await key.client.put(`/api/org/webhooks/${webhook.id}`, { secret: next })
    expect(rotated.status, rotated.text).toBe(200)
    expect(rotated.body).not.toHaveProperty("secret")
    // The rotation applies within a second (docs/contract.md §6): test events until one is signed by both keys.
    const delivery = await eventually(
      async () => {
        const request = await testEvent("lead.created")
        expect(String(request.headers["webhook-signature"]).split(" ")).toHaveLength(2)
        return request
      },
      { timeoutMs: 20_000 },
    )
    for (const secret of [`whsec_${Buffer.from(next, "base64url").toString("base64")}`, previous.signingSecret]) {
      const verdict = await judge(delivery, secret)
      expect(verdict.standardwebhooks.accepted).toBe(true)
      expect(verdict.parley.accepted).toBe(true)
    }
    // X-Service-Signature is the new key's alone, keyed with the secret string as registered.
    expect(delivery.headers["x-service-signature"]).toBe(await sign(delivery.body, next))
    expect(delivery.headers["x-service-signature"]).not.toBe(await sign(delivery.body, previous.secret))
  }, 60_000)
})

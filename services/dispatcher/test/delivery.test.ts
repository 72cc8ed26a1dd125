import { Topics } from "@parley/contracts"
import { eventually, type StubServer, startHttpServer } from "@parley/platform/testing"
import { DeliveryHeaders, verify } from "@parley/webhooks"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { UserAgent } from "../src/app.ts"
import { deliveryIdFor } from "../src/delivery/delivery-id.ts"
import { type Harness, leadCreated, makeHarness, makeWebhook, newOrg } from "./harness.ts"

describe.each(["single-node", "kafka"] as const)("on the %s bus", (kind) => {
  let harness: Harness
  let receiver: StubServer
  let dispatcher: { stop(): Promise<void> }

  beforeAll(async () => {
    harness = await makeHarness(kind)
    receiver = await startHttpServer()
    dispatcher = await harness.startDispatcher()
  })
  afterAll(async () => {
    await dispatcher?.stop()
    await receiver?.close()
    await harness?.close()
  })

  /** Waits until the dispatcher's projection holds the webhook. */
  const requestsFor = (path: string) => receiver.requests.filter((request) => request.path === path)

  describe("delivery", () => {
    it("posts the envelope signed over the exact bytes sent, which @parley/webhooks verifies", async () => {
      const org = newOrg()
      const webhook = makeWebhook(org, `${receiver.url}/signed`)
      await harness.putWebhook(webhook)
      await harness.projected(webhook)
      await harness.publishEvents([leadCreated(org)])
      await eventually(() => expect(requestsFor("/signed")).toHaveLength(1))
      const [request] = requestsFor("/signed")
      if (request === undefined) throw new Error("no request")
      const envelope = await verify(request.body, request.headers, webhook.secret)
      expect(envelope.event).toBe("lead.created")
      expect(Object.keys(JSON.parse(request.text()))).toEqual(["event", "timestamp", "data"])
      expect(request.headers["content-type"]).toBe("application/json")
      expect(request.headers["user-agent"]).toBe(UserAgent)
      expect(request.headers[DeliveryHeaders.event.toLowerCase()]).toBe("lead.created")
      expect(request.headers[DeliveryHeaders.attempt.toLowerCase()]).toBe("1")
      expect(request.headers[DeliveryHeaders.signature.toLowerCase()]).toMatch(/^sha256=[0-9a-f]{64}$/)
    })

    it("uses a delivery id derived from the event and the webhook, and records a successful attempt", async () => {
      const org = newOrg()
      const webhook = makeWebhook(org, `${receiver.url}/ids`)
      await harness.putWebhook(webhook)
      await harness.projected(webhook)
      const event = leadCreated(org)
      await harness.publishEvents([event])
      const expectedId = deliveryIdFor(event.eventId, webhook.webhookId)
      await eventually(() =>
        expect(requestsFor("/ids").map((r) => r.headers["x-service-delivery"])).toEqual([expectedId]),
      )
      const attempt = await eventually(() => {
        const found = harness.attempts.find((a) => a.deliveryId === expectedId)
        if (found === undefined) throw new Error("no attempt yet")
        return found
      })
      expect(attempt).toMatchObject({
        webhookId: webhook.webhookId,
        eventId: event.eventId,
        event: "lead.created",
        attempt: 1,
        status: "success",
        responseStatus: 200,
        error: null,
      })
      if (kind === "single-node") {
        // The attempt's log row and the record it published committed together (one transaction).
        const rows = await harness.db.sql<Array<{ logged: string; published: string }>>`
          select l.xmin::text as logged, r.xmin::text as published
          from dispatcher.attempt_log l, parley_bus.records r
          where l.delivery_id = ${expectedId} and r.topic = ${Topics.dispatchAttempts}
            and r.value like ${`%${expectedId}%`}`
        expect(rows).toHaveLength(1)
        expect(rows[0]?.logged).toBe(rows[0]?.published)
      }
    })

    it("sends nothing to a disabled webhook, nor to one not subscribed to the event", async () => {
      const org = newOrg()
      const disabled = makeWebhook(org, `${receiver.url}/disabled`, { enabled: false })
      const other = makeWebhook(org, `${receiver.url}/other-events`, { events: ["message.inbound"] })
      const control = makeWebhook(org, `${receiver.url}/control`)
      for (const webhook of [disabled, other, control]) await harness.putWebhook(webhook)
      await eventually(() =>
        harness.db.sql`select 1 from dispatcher.webhooks where org_id = ${org}`.then((r) => expect(r.length).toBe(3)),
      )
      await harness.publishEvents([leadCreated(org), leadCreated(org)])
      await eventually(() => expect(requestsFor("/control").length).toBe(2))
      expect(requestsFor("/disabled")).toHaveLength(0)
      expect(requestsFor("/other-events")).toHaveLength(0)
      expect(
        harness.attempts.filter((a) => a.webhookId === disabled.webhookId || a.webhookId === other.webhookId),
      ).toEqual([])
    })

    it("delivers to every subscribed webhook of the event's organization and to no other organization's", async () => {
      const org = newOrg()
      const stranger = newOrg()
      const first = makeWebhook(org, `${receiver.url}/fan-1`)
      const second = makeWebhook(org, `${receiver.url}/fan-2`)
      const foreign = makeWebhook(stranger, `${receiver.url}/foreign`)
      for (const webhook of [first, second, foreign]) await harness.putWebhook(webhook)
      await eventually(() =>
        harness.db.sql`select 1 from dispatcher.webhooks where org_id in (${org}, ${stranger})`.then((r) =>
          expect(r.length).toBe(3),
        ),
      )
      await harness.publishEvents([leadCreated(org)])
      await eventually(() => {
        expect(requestsFor("/fan-1")).toHaveLength(1)
        expect(requestsFor("/fan-2")).toHaveLength(1)
      })
      expect(requestsFor("/foreign")).toHaveLength(0)
    })
  })
})

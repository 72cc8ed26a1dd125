/**
 * An attempt in full (`GET /api/org/webhooks/:id/deliveries/:deliveryId/attempts/:attempt`): the body
 * sent, byte for byte, the headers that stay the same across signings, the response kept; the log
 * marks test deliveries and redeliveries; another organization's attempt is missing.
 */
import {
  AttemptRecord,
  DeliveryId,
  EventId,
  encodeBusValue,
  type OrgId,
  Topics,
  type WebhookId,
} from "@parley/contracts"
import { newId } from "@parley/platform"
import { eventually } from "@parley/platform/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeRegistryHarness, newOrg, type RegistryHarness } from "./harness.ts"

let harness: RegistryHarness
beforeAll(async () => {
  harness = await makeRegistryHarness()
})
afterAll(() => harness?.close())

const createWebhook = async (org: OrgId): Promise<WebhookId> =>
  (
    await harness.request({ method: "POST", url: "/api/org/webhooks", org, payload: { url: "http://127.0.0.1:9/x" } })
  ).json().id

const data = { phone: "14155550100", name: "Ada \u00e9", type: "BOOKING", booking: null }

/** Attempt 1 (with its envelope, as the dispatcher sends it) and attempt 2 of one delivery. */
const publishTwoAttempts = async (org: OrgId, webhookId: WebhookId, options: { test?: boolean } = {}) => {
  const deliveryId = DeliveryId.make(newId("dlv"))
  const base = {
    deliveryId,
    webhookId,
    orgId: org,
    eventId: EventId.make(newId("evt")),
    event: "lead.created" as const,
    durationMs: 9,
  }
  const first: AttemptRecord = {
    ...base,
    attempt: 1,
    status: "failed",
    responseStatus: 500,
    error: "HTTP 500",
    attemptedAt: new Date(Date.now() - 1000).toISOString(),
    responseBody: '{"error":"database down"}',
    envelope: {
      timestamp: "2026-11-28T09:30:00.000Z",
      data,
      reason: options.test === true ? "test" : "event",
      ...(options.test === true ? { test: true as const } : {}),
    },
  }
  const second: AttemptRecord = {
    ...base,
    attempt: 2,
    status: "success",
    responseStatus: 204,
    error: null,
    attemptedAt: new Date().toISOString(),
  }
  await harness.publish(
    [first, second].map((a) => ({
      topic: Topics.dispatchAttempts,
      key: webhookId,
      value: encodeBusValue(AttemptRecord, a),
    })),
  )
  return deliveryId
}

const detail = (org: OrgId, webhookId: string, deliveryId: string, attempt: string, role?: "member") =>
  harness.request({
    method: "GET",
    url: `/api/org/webhooks/${webhookId}/deliveries/${deliveryId}/attempts/${attempt}`,
    org,
    ...(role === undefined ? {} : { role }),
  })

describe("an attempt's detail", () => {
  it("shows an administrator the exact body sent, the stable headers and the response kept", async () => {
    const org = newOrg()
    const webhookId = await createWebhook(org)
    const deliveryId = await publishTwoAttempts(org, webhookId)
    const response = await eventually(async () => {
      const answer = await detail(org, webhookId, deliveryId, "1")
      expect(answer.statusCode).toBe(200)
      return answer
    })
    // A member reads the delivery log (docs/contract.md §5), not the bodies: they carry customers'
    // numbers and messages, the leads §9 keeps an administrator's (a contract-only tester read them so).
    const asMember = await detail(org, webhookId, deliveryId, "1", "member")
    expect(asMember.statusCode).toBe(403)
    expect(asMember.json()).toMatchObject({ code: "admin_required" })
    expect(asMember.body).not.toContain("lead.created")
    const body = response.json()
    expect(body).toMatchObject({
      deliveryId,
      attempt: 1,
      status: "failed",
      responseStatus: 500,
      reason: "event",
      test: false,
    })
    expect(body.request.body).toBe(
      JSON.stringify({ event: "lead.created", timestamp: "2026-11-28T09:30:00.000Z", data }),
    )
    expect(body.request.headers).toEqual({
      "content-type": "application/json",
      "x-service-event": "lead.created",
      "x-service-delivery": deliveryId,
      "x-service-attempt": "1",
      "webhook-id": deliveryId,
    })
    expect(body.response).toEqual({ status: 500, body: '{"error":"database down"}' })
    // The second attempt: same body, its own number, a 2xx whose body was not read. Its record may
    // be logged in a later batch than the first's.
    const second = (
      await eventually(async () => {
        const answer = await detail(org, webhookId, deliveryId, "2")
        expect(answer.statusCode).toBe(200)
        return answer
      })
    ).json()
    expect(second.request.headers["x-service-attempt"]).toBe("2")
    expect(second.request.body).toBe(body.request.body)
    expect(second.response).toEqual({ status: 204, body: null })
    // Nothing of the secret, in any form, is in the answer.
    expect(JSON.stringify(body)).not.toMatch(/secret|signature|whsec_/i)
  })

  it("marks a test delivery's attempts, in the detail, the headers and the log", async () => {
    const org = newOrg()
    const webhookId = await createWebhook(org)
    const deliveryId = await publishTwoAttempts(org, webhookId, { test: true })
    const response = await eventually(async () => {
      const answer = await detail(org, webhookId, deliveryId, "1")
      expect(answer.statusCode).toBe(200)
      return answer
    })
    expect(response.json()).toMatchObject({ reason: "test", test: true })
    expect(response.json().request.headers["x-service-test"]).toBe("true")
    // Both attempts logged (their records may land in two batches).
    const log = await eventually(async () => {
      const answer = await harness.request({ method: "GET", url: `/api/org/webhooks/${webhookId}/deliveries`, org })
      expect(answer.json().data).toHaveLength(2)
      return answer
    })
    expect(log.json().data.map((a: { reason: string; test: boolean }) => [a.reason, a.test])).toEqual([
      ["test", true],
      ["test", true],
    ])
  })

  it("answers 404 for another organization's attempt, an unknown one or another webhook's; 400 for attempt 4", async () => {
    const org = newOrg()
    const webhookId = await createWebhook(org)
    const otherWebhook = await createWebhook(org)
    const deliveryId = await publishTwoAttempts(org, webhookId)
    await eventually(async () => expect((await detail(org, webhookId, deliveryId, "1")).statusCode).toBe(200))
    const intruder = newOrg()
    for (const [who, hook, dlv, n] of [
      [intruder, webhookId, deliveryId, "1"],
      [org, otherWebhook, deliveryId, "1"],
      [org, webhookId, deliveryId, "3"],
      [org, webhookId, "dlv_unknown", "1"],
    ] as const) {
      const answer = await detail(who, hook, dlv, n)
      expect(answer.statusCode, `${who} ${hook} ${dlv} ${n}`).toBe(404)
      expect(answer.json()).toEqual({ error: "Not found", code: "not_found" })
    }
    expect((await detail(org, webhookId, deliveryId, "4")).statusCode).toBe(400)
  })
})

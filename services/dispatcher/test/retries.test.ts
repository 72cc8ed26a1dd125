import { makeServiceMetrics } from "@parley/platform"
import { eventually, type StubServer, startHttpServer } from "@parley/platform/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { AttemptSchedule } from "../src/delivery/schedule.ts"
import { type Harness, leadCreated, makeHarness, makeWebhook, newOrg, type TestWebhook } from "./harness.ts"

describe.each(["single-node", "kafka"] as const)("on the %s bus", (kind) => {
  // The pattern of the real schedule (0, ×1, ×2), ten times faster.
  const fast = [0, 500, 1_000] as const

  let harness: Harness
  let receiver: StubServer
  let dispatcher: { stop(): Promise<void> }
  // The registry `/metrics` serves in a deployment (docs/contract.md §11).
  const metrics = makeServiceMetrics("dispatcher", { defaultMetrics: false })

  beforeAll(async () => {
    harness = await makeHarness(kind)
    receiver = await startHttpServer((request) => {
      if (request.path.startsWith("/always-503")) return { status: 503 }
      if (request.path.startsWith("/redirect")) return { status: 302, headers: { location: "/elsewhere" } }
      if (request.path.startsWith("/second-ok"))
        return request.headers["x-service-attempt"] === "2"
          ? { status: 204, body: "fine, thanks" }
          : { status: 500, body: '{"error":"database down"}' }
      return undefined
    })
    dispatcher = await harness.startDispatcher({ schedule: fast, timeoutMs: 400, metrics })
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

  describe("retries", () => {
    it("the schedule is at most three attempts, about 5 s and 10 s apart", () => {
      expect(AttemptSchedule).toEqual([0, 5_000, 10_000])
    })

    it("makes exactly three attempts of a failing delivery, with the schedule's gaps and one delivery id", async () => {
      const org = newOrg()
      const webhook = makeWebhook(org, `${receiver.url}/always-503`)
      await register(webhook)
      const event = leadCreated(org)
      await harness.publishEvents([event])
      await eventually(() => expect(requestsFor("/always-503")).toHaveLength(3), { timeoutMs: 10_000 })
      const requests = requestsFor("/always-503")
      expect(requests.map((r) => r.headers["x-service-attempt"])).toEqual(["1", "2", "3"])
      expect(new Set(requests.map((r) => r.headers["x-service-delivery"])).size).toBe(1)
      expect(new Set(requests.map((r) => r.text())).size).toBe(1)
      const [first, second, third] = requests.map((r) => r.receivedAt) as [number, number, number]
      expect(second - first).toBeGreaterThanOrEqual(fast[1] - 20)
      expect(second - first).toBeLessThan(fast[1] + 1_000)
      expect(third - second).toBeGreaterThanOrEqual(fast[2] - 20)
      expect(third - second).toBeLessThan(fast[2] + 1_000)
      await eventually(() =>
        expect(
          harness.attempts
            .filter((a) => a.webhookId === webhook.webhookId)
            .map((a) => [a.attempt, a.status, a.responseStatus, a.error]),
        ).toEqual([
          [1, "failed", 503, "HTTP 503"],
          [2, "failed", 503, "HTTP 503"],
          [3, "failed", 503, "HTTP 503"],
        ]),
      )
      // Only the first attempt's record carries the envelope (the registry keeps it for redelivery).
      const [firstRecord, ...later] = harness.attempts.filter((a) => a.webhookId === webhook.webhookId)
      expect(firstRecord?.envelope).toEqual({ timestamp: event.timestamp, data: event.data, reason: "event" })
      expect(later.map((a) => a.envelope)).toEqual([undefined, undefined])
      // Never a fourth: well past where one would have come, still three.
      const settledAt = Date.now()
      await eventually(() => expect(Date.now() - settledAt).toBeGreaterThan(fast[2] * 2), { timeoutMs: 5_000 })
      expect(requestsFor("/always-503")).toHaveLength(3)
    })

    it("counts attempts by number and outcome, their durations and the deliveries that failed for good on /metrics", async () => {
      /** A series' value in the exposition, 0 when it has none yet. */
      const seriesValue = async (series: RegExp) => Number(series.exec((await metrics.expose()).body)?.[1] ?? 0)
      const series = {
        firstFailed: /parley_dispatcher_attempts_total\{attempt="1",outcome="failed"[^}]*\} (\d+)/,
        secondFailed: /parley_dispatcher_attempts_total\{attempt="2",outcome="failed"[^}]*\} (\d+)/,
        secondSucceeded: /parley_dispatcher_attempts_total\{attempt="2",outcome="success"[^}]*\} (\d+)/,
        thirdFailed: /parley_dispatcher_attempts_total\{attempt="3",outcome="failed"[^}]*\} (\d+)/,
        failedForGood: /parley_dispatcher_deliveries_failed_total\{[^}]*\} (\d+)/,
        timed: /parley_dispatcher_attempt_duration_seconds_count\{[^}]*outcome="failed"[^}]*\} (\d+)/,
      }
      const before = Object.fromEntries(
        await Promise.all(Object.entries(series).map(async ([name, pattern]) => [name, await seriesValue(pattern)])),
      )
      const org = newOrg()
      const failing = makeWebhook(org, `${receiver.url}/always-503-counted`)
      const recovering = makeWebhook(org, `${receiver.url}/second-ok-counted`)
      await register(failing)
      await register(recovering)
      await harness.publishEvents([leadCreated(org)])
      await eventually(() => expect(harness.attempts.filter((a) => a.orgId === org)).toHaveLength(5), {
        timeoutMs: 10_000,
      })
      const delta = async (name: keyof typeof series) => (await seriesValue(series[name])) - (before[name] as number)
      expect(await delta("firstFailed")).toBe(2)
      expect(await delta("secondFailed")).toBe(1)
      expect(await delta("secondSucceeded")).toBe(1)
      expect(await delta("thirdFailed")).toBe(1)
      expect(await delta("failedForGood")).toBe(1)
      expect(await delta("timed")).toBe(4)
      expect((await metrics.expose()).body).toContain('service="dispatcher"')
    })

    it("stops retrying once an attempt succeeds", async () => {
      const org = newOrg()
      const webhook = makeWebhook(org, `${receiver.url}/second-ok`)
      await register(webhook)
      await harness.publishEvents([leadCreated(org)])
      await eventually(
        () =>
          expect(harness.attempts.filter((a) => a.webhookId === webhook.webhookId).map((a) => a.status)).toEqual([
            "failed",
            "success",
          ]),
        { timeoutMs: 5_000 },
      )
      const settledAt = Date.now()
      await eventually(() => expect(Date.now() - settledAt).toBeGreaterThan(fast[2] * 2), { timeoutMs: 5_000 })
      expect(requestsFor("/second-ok")).toHaveLength(2)
      // What the failing receiver answered is kept for the log; a 2xx body is not read (docs/contract.md §6).
      expect(harness.attempts.filter((a) => a.webhookId === webhook.webhookId).map((a) => a.responseBody)).toEqual([
        '{"error":"database down"}',
        undefined,
      ])
    })

    it("treats a redirect as a failure and does not follow it", async () => {
      const org = newOrg()
      const webhook = makeWebhook(org, `${receiver.url}/redirect`)
      await register(webhook)
      await harness.publishEvents([leadCreated(org)])
      await eventually(
        () => expect(harness.attempts.filter((a) => a.webhookId === webhook.webhookId)).toHaveLength(3),
        {
          timeoutMs: 10_000,
        },
      )
      const attempts = harness.attempts.filter((a) => a.webhookId === webhook.webhookId)
      expect(attempts.every((a) => a.status === "failed" && a.responseStatus === 302 && a.error === "redirect")).toBe(
        true,
      )
      expect(requestsFor("/elsewhere")).toHaveLength(0)
    })

    it("records a timeout and a refused connection by name", async () => {
      const org = newOrg()
      const hung = await startHttpServer(() => new Promise(() => {}))
      const closed = await startHttpServer()
      await closed.close()
      const slow = makeWebhook(org, `${hung.url}/hang`)
      const dead = makeWebhook(org, `${closed.url}/dead`)
      await register(slow)
      await register(dead)
      await harness.publishEvents([leadCreated(org)])
      await eventually(
        () => {
          const first = (id: string) => harness.attempts.find((a) => a.webhookId === id && a.attempt === 1)
          expect(first(slow.webhookId)).toMatchObject({ status: "failed", responseStatus: null, error: "timeout" })
          expect(first(dead.webhookId)).toMatchObject({
            status: "failed",
            responseStatus: null,
            error: "connection refused",
          })
        },
        { timeoutMs: 5_000 },
      )
      await hung.close()
    })
  })
})

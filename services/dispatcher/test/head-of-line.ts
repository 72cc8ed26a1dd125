/**
 * docs/design.md §3.3 at scale, on one bus adapter: one organization's hung webhook (accepts, never
 * answers) and failing webhook (500) take hundreds of events each, while that organization's healthy
 * webhook and another organization's — whose events share the partition — must still get every
 * delivery within a second, and the failing webhooks' retries must keep the real 5 s / 10 s gaps.
 * The partitions' windows are small (128), so a backlog left in a window would show at once.
 */
import { partitionOf } from "@parley/bus/testing"
import { type AttemptRecord, TopicCatalog, Topics, WebhookId } from "@parley/contracts"
import { newId } from "@parley/platform"
import { eventually, type StubServer, startHttpServer } from "@parley/platform/testing"
import { afterAll, beforeAll, expect, it } from "vitest"
import { AttemptSchedule } from "../src/delivery/schedule.ts"
import { FirstAttemptsPerWebhook, RetriesPerWebhook } from "../src/delivery/webhook-shares.ts"
import { type BusKind, type Harness, leadCreated, makeHarness, makeWebhook, newOrg } from "./harness.ts"

/** Ids (made by `make`) that all land on one partition of a topic with `partitions` partitions. */
/** A maker of ids that all land on one partition: the first `make` gives, then each like it. */
const coPartitioned = <A extends string>(kind: BusKind, partitions: number, make: () => A): (() => A) => {
  let first: A | undefined = make()
  const target = partitionOf(kind, first, partitions)
  return () => {
    const taken = first
    first = undefined
    if (taken !== undefined) return taken
    for (;;) {
      const id = make()
      if (partitionOf(kind, id, partitions) === target) return id
    }
  }
}

const partitionsOf = (topic: string) => TopicCatalog.find((t) => t.name === topic)?.partitions ?? 1

const quantile = (values: ReadonlyArray<number>, q: number): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN
}
const summary = (values: ReadonlyArray<number>) =>
  `n=${values.length} min=${Math.min(...values)} p50=${quantile(values, 0.5)} p99=${quantile(values, 0.99)} max=${Math.max(...values)}`

/** Gaps (ms) between each failed attempt's end and the next attempt's start, per attempt number. */
const gapsOf = (attempts: ReadonlyArray<AttemptRecord>, webhookId: string) => {
  const byDelivery = new Map<string, Map<number, AttemptRecord>>()
  for (const attempt of attempts) {
    if (attempt.webhookId !== webhookId) continue
    const entry = byDelivery.get(attempt.deliveryId) ?? new Map<number, AttemptRecord>()
    entry.set(attempt.attempt, attempt)
    byDelivery.set(attempt.deliveryId, entry)
  }
  const gaps = { second: [] as Array<number>, third: [] as Array<number> }
  const endOf = (a: AttemptRecord) => Date.parse(a.attemptedAt) + a.durationMs
  for (const entry of byDelivery.values()) {
    const [first, second, third] = [entry.get(1), entry.get(2), entry.get(3)]
    if (first !== undefined && second !== undefined) gaps.second.push(Date.parse(second.attemptedAt) - endOf(first))
    if (second !== undefined && third !== undefined) gaps.third.push(Date.parse(third.attemptedAt) - endOf(second))
  }
  return gaps
}

/** The most attempts of one webhook and kind that were in flight at once. */
const peakInFlight = (attempts: ReadonlyArray<AttemptRecord>, webhookId: string, retries: boolean) => {
  // The bus is at least once: an attempt record read twice is one attempt.
  const unique = new Map(attempts.map((a) => [`${a.deliveryId}/${a.attempt}`, a]))
  const edges = [...unique.values()]
    .filter((a) => a.webhookId === webhookId && a.attempt > 1 === retries)
    .flatMap((a) => {
      const start = Date.parse(a.attemptedAt)
      return [
        [start, 1],
        [start + a.durationMs, -1],
      ] as const
    })
    .sort((a, b) => a[0] - b[0] || a[1] - b[1])
  let current = 0
  let peak = 0
  for (const [, delta] of edges) {
    current += delta
    peak = Math.max(peak, current)
  }
  return peak
}

export const headOfLineAtScale = (kind: BusKind) => {
  // The hung endpoint's attempts time out after 2 s (10 s in production) so that a delivery's three
  // attempts fit the test; the gaps between them are the real ones.
  const timeoutMs = 2_000
  const [, secondGap, thirdGap] = AttemptSchedule
  let harness: Harness
  let healthy: StubServer
  let failing: StubServer
  let hung: StubServer
  let dispatcher: { stop(): Promise<void> }

  beforeAll(async () => {
    harness = await makeHarness(kind, kind === "single-node" ? { partitions: 1 } : {})
    healthy = await startHttpServer()
    failing = await startHttpServer(() => ({ status: 500 }))
    hung = await startHttpServer(() => new Promise(() => {}))
    dispatcher = await harness.startDispatcher({ timeoutMs, deliveryWindow: 128 })
  }, 60_000)
  afterAll(async () => {
    await dispatcher?.stop()
    for (const server of [healthy, failing, hung]) await server?.close()
    await harness?.close()
  })

  it("keeps healthy webhooks of the same and another organization within a second, and the retries' gaps, beside a hung and a failing webhook taking hundreds of events", async () => {
    // The single-node bus here has one partition per topic; on Kafka the ids are chosen to share one.
    const single = kind === "single-node"
    const nextOrg = coPartitioned(kind, single ? 1 : partitionsOf(Topics.eventsLead), newOrg)
    const [orgA, orgB] = [nextOrg(), nextOrg()]
    const nextWebhookId = coPartitioned(kind, single ? 1 : partitionsOf(Topics.dispatchRetry5s), () =>
      WebhookId.make(newId("wh")),
    )
    const [hungId, failingId, healthyAId, healthyBId] = [
      nextWebhookId(),
      nextWebhookId(),
      nextWebhookId(),
      nextWebhookId(),
    ]
    const webhooks = [
      makeWebhook(orgA, `${hung.url}/hung`, { webhookId: hungId }),
      makeWebhook(orgA, `${failing.url}/500`, { webhookId: failingId }),
      makeWebhook(orgA, `${healthy.url}/a`, { webhookId: healthyAId }),
      makeWebhook(orgB, `${healthy.url}/b`, { webhookId: healthyBId }),
    ]
    for (const webhook of webhooks) await harness.putWebhook(webhook)
    for (const webhook of webhooks) await harness.projected(webhook)
    // Every consumer group is serving before the clock starts (on Kafka a group joins some time
    // after the dispatcher starts): one event of organization B first.
    await harness.publishEvents([leadCreated(orgB)])
    await eventually(() => expect(healthy.requests).toHaveLength(1), { timeoutMs: 30_000 })
    const warmUp = healthy.requests.length

    // 400 events over ten seconds: 300 of organization A (each to the hung, the failing and the
    // healthy webhook) and 100 of organization B, interleaved on one partition.
    const started = Date.now()
    let published = 0
    for (let tick = 0; tick < 100; tick++) {
      await harness.publishEvents([leadCreated(orgA), leadCreated(orgB), leadCreated(orgA), leadCreated(orgA)])
      published += 4
      const next = started + (tick + 1) * 100
      await eventually(() => expect(Date.now()).toBeGreaterThanOrEqual(next), { intervalMs: 5, timeoutMs: 5_000 })
    }
    expect(published).toBe(400)
    const arrivals = (path: string) => healthy.requests.slice(warmUp).filter((request) => request.path === path)
    await eventually(
      () => {
        expect(arrivals("/a")).toHaveLength(300)
        expect(arrivals("/b")).toHaveLength(100)
      },
      { timeoutMs: 30_000, intervalMs: 100 },
    )
    const lags = (path: string) =>
      arrivals(path).map((r) => r.receivedAt - Date.parse((r.json() as { timestamp: string }).timestamp))

    // The hung webhook's backlog waits in the parked queue, not in the partition's window.
    const [{ parked }] = (await harness.db.sql`select count(*)::int as parked from dispatcher.parked_deliveries`) as [
      { parked: number },
    ]
    expect(parked).toBeGreaterThan(100)

    // Enough of the hung webhook's deliveries have had all three attempts to measure their gaps, and
    // every delivery of the failing webhook has had its three.
    const complete = (webhookId: string) =>
      new Set(harness.attempts.filter((a) => a.webhookId === webhookId && a.attempt === 3).map((a) => a.deliveryId))
    await eventually(
      () => {
        expect(complete(hungId as string).size).toBeGreaterThanOrEqual(2 * FirstAttemptsPerWebhook)
        expect(complete(failingId as string).size).toBe(300)
      },
      { timeoutMs: 45_000, intervalMs: 250 },
    )
    const hungGaps = gapsOf(harness.attempts, hungId as string)
    const failingGaps = gapsOf(harness.attempts, failingId as string)
    const report = {
      kind,
      lagA: summary(lags("/a")),
      lagB: summary(lags("/b")),
      hungSecondGap: summary(hungGaps.second),
      hungThirdGap: summary(hungGaps.third),
      failingSecondGap: summary(failingGaps.second),
      failingThirdGap: summary(failingGaps.third),
      hungPeakFirst: peakInFlight(harness.attempts, hungId as string, false),
      hungPeakRetries: peakInFlight(harness.attempts, hungId as string, true),
      parkedAtPeak: parked,
      elapsedMs: Date.now() - started,
    }
    console.log(`head-of-line at scale: ${JSON.stringify(report, null, 2)}`)

    expect(quantile(lags("/a"), 0.99)).toBeLessThan(1_000)
    expect(quantile(lags("/b"), 0.99)).toBeLessThan(1_000)
    for (const [gaps, expected] of [
      [hungGaps.second, secondGap],
      [hungGaps.third, thirdGap],
      [failingGaps.second, secondGap],
      [failingGaps.third, thirdGap],
    ] as const) {
      expect(gaps.length).toBeGreaterThan(0)
      expect(Math.min(...gaps)).toBeGreaterThanOrEqual(expected - 50)
      expect(Math.max(...gaps)).toBeLessThan(expected + 1_500)
    }
    expect(report.hungPeakFirst).toBeLessThanOrEqual(FirstAttemptsPerWebhook)
    expect(report.hungPeakRetries).toBeLessThanOrEqual(RetriesPerWebhook)
    // The hung endpoint really was attempted, and only within its share.
    expect(hung.requests.length).toBeGreaterThanOrEqual(3 * 2 * FirstAttemptsPerWebhook)
  }, 150_000)
}

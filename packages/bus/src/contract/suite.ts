import { randomBytes } from "node:crypto"
import { withTransaction } from "@parley/db"
import {
  currentTraceHeaders,
  extractContext,
  flushTracing,
  startSpan,
  startTracing,
  withTraceContext,
} from "@parley/platform"
import { startOtlpReceiver } from "@parley/platform/testing"
import { Effect } from "effect"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { Bus, type BusRecord, OutboxWriter } from "../Bus.ts"
import {
  type BusContractBackend,
  eventually,
  type Handler,
  holdsFor,
  type RunningInstance,
  startInstance,
  uniqueName,
} from "./harness.ts"

export type { BusContractBackend, BusContractInstance } from "./harness.ts"

/**
 * The behaviour every Bus adapter must show, run by each adapter's tests against its real backend.
 * Each test uses its own topic and group, and instances stand for separate processes.
 */
/** While publishing until a group has settled: slow enough not to flood a broker mid-rebalance. */
const publishingPace = { intervalMs: 150 }

export const busContractSuite = (name: string, makeBackend: () => Promise<BusContractBackend>) =>
  describe(`Bus contract: ${name}`, () => {
    let backend: BusContractBackend
    const running: Array<RunningInstance> = []
    const start = async () => {
      const instance = await startInstance(backend)
      running.push(instance)
      return instance
    }
    const topic = async (partitions: number) => {
      const name = uniqueName("contract")
      await backend.createTopic(name, partitions)
      return name
    }
    const collect =
      (into: Array<BusRecord>): Handler =>
      (record) =>
        Effect.sync(() => void into.push(record))
    const values = (records: ReadonlyArray<BusRecord>) => records.map((r) => r.value)

    beforeAll(async () => {
      backend = await makeBackend()
    })
    // Each test's instances end with it, so a run holds few connections at a time.
    afterEach(async () => {
      for (const instance of running.splice(0)) await instance.close().catch(() => {})
    })
    afterAll(async () => {
      await backend?.close()
    })

    it("delivers each key's records in the order they were published", async () => {
      const t = await topic(4)
      const bus = await start()
      const keys = ["alpha", "bravo", "charlie", "delta", "echo"]
      for (let batch = 0; batch < 4; batch++) {
        await bus.publish(
          keys.flatMap((key) => [0, 1, 2].map((i) => ({ topic: t, key, value: `${key}:${batch * 3 + i}` }))),
        )
      }
      const seen: Array<BusRecord> = []
      await bus.subscribe({ groupId: uniqueName("g"), topics: [t] }, collect(seen))
      await eventually("all 60 records arrive", () => seen.length >= 60)
      for (const key of keys) {
        const ofKey = values(seen.filter((r) => r.key === key))
        expect(ofKey).toEqual(Array.from({ length: 12 }, (_, i) => `${key}:${i}`))
        const offsets = seen.filter((r) => r.key === key).map((r) => r.offset)
        expect([...offsets].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(offsets)
      }
    })

    it("shares a group's partitions between two instances that together see every record, once in a settled group", async () => {
      const t = await topic(4)
      const groupId = uniqueName("g")
      const [a, b] = [await start(), await start()]
      const seenA: Array<BusRecord> = []
      const seenB: Array<BusRecord> = []
      await a.subscribe({ groupId, topics: [t] }, collect(seenA))
      await b.subscribe({ groupId, topics: [t] }, collect(seenB))
      let published = 0
      // Keep publishing (distinct keys spread over partitions) until both members are consuming.
      await eventually(
        "both instances receive records",
        async () => {
          await a.publish(
            Array.from({ length: 8 }, () => ({ topic: t, key: uniqueName("k"), value: `${published++}` })),
          )
          return seenA.length > 0 && seenB.length > 0 && seenA.length + seenB.length >= 16
        },
        publishingPace,
      )
      const settledFrom = published
      await a.publish(Array.from({ length: 40 }, () => ({ topic: t, key: uniqueName("k"), value: `${published++}` })))
      await eventually("every record arrives", () => {
        const distinct = new Set([...values(seenA), ...values(seenB)])
        return distinct.size >= published
      })
      const all = [...values(seenA), ...values(seenB)].map(Number)
      // Nothing lost: every record published reached one of the two.
      expect([...new Set(all)].sort((x, y) => x - y)).toEqual(Array.from({ length: published }, (_, i) => i))
      // Delivery is at least once: while the second member joins, partitions move, and records the first
      // handled but had not yet committed are handed to the second again (Kafka's rebalance). Once the
      // group has settled, each record goes to exactly one member, exactly once.
      const settled = all.filter((n) => n >= settledFrom).sort((x, y) => x - y)
      expect(settled).toEqual(Array.from({ length: published - settledFrom }, (_, i) => settledFrom + i))
    })

    it("hands a leaving instance's partitions to the one that stays", async () => {
      const t = await topic(4)
      const groupId = uniqueName("g")
      const [a, b] = [await start(), await start()]
      const seenA: Array<BusRecord> = []
      const seenB: Array<BusRecord> = []
      await a.subscribe({ groupId, topics: [t] }, collect(seenA))
      await b.subscribe({ groupId, topics: [t] }, collect(seenB))
      let published = 0
      await eventually(
        "both instances receive records",
        async () => {
          await a.publish(
            Array.from({ length: 8 }, () => ({ topic: t, key: uniqueName("k"), value: `${published++}` })),
          )
          return seenA.length > 0 && seenB.length > 0
        },
        publishingPace,
      )
      await eventually("everything so far arrives", () => seenA.length + seenB.length >= published)
      await b.close()
      const before = published
      await a.publish(Array.from({ length: 40 }, () => ({ topic: t, key: uniqueName("k"), value: `${published++}` })))
      await eventually(
        "the one left gets every later record",
        () => values(seenA).filter((v) => Number(v) >= before).length >= published - before,
      )
      expect(new Set(seenA.map((r) => r.partition)).size).toBe(4)
    })

    it("resumes a restarted consumer from its group's committed offset", async () => {
      const t = await topic(1)
      const groupId = uniqueName("g")
      const first = await start()
      await first.publish([0, 1, 2, 3, 4].map((i) => ({ topic: t, key: "k", value: `${i}` })))
      const seenFirst: Array<BusRecord> = []
      await first.subscribe({ groupId, topics: [t] }, collect(seenFirst))
      await eventually("the first five arrive", () => seenFirst.length === 5)
      await first.close()
      expect(await backend.committedOffset(groupId, t, 0)).toBe(5n)
      const second = await start()
      await second.publish([5, 6, 7].map((i) => ({ topic: t, key: "k", value: `${i}` })))
      const seenSecond: Array<BusRecord> = []
      await second.subscribe({ groupId, topics: [t] }, collect(seenSecond))
      await eventually("the next three arrive", () => seenSecond.length >= 3)
      expect(values(seenSecond)).toEqual(["5", "6", "7"])
    })

    it("redelivers to the group the records a crashed consumer had not committed", async () => {
      const t = await topic(1)
      const groupId = uniqueName("g")
      const crashing = await start()
      await crashing.publish([0, 1, 2, 3, 4, 5].map((i) => ({ topic: t, key: "k", value: `${i}` })))
      const started: Array<string> = []
      await crashing.subscribe({ groupId, topics: [t] }, (record) =>
        Effect.sync(() => void started.push(record.value)).pipe(
          // Record 3 never finishes: the crash catches it in flight, 4 and 5 done but uncommittable.
          Effect.andThen(record.value === "3" ? Effect.never : Effect.void),
        ),
      )
      await eventually("records 0-5 were handed out", () => started.length === 6)
      await eventually("0-2 are committed", async () => (await backend.committedOffset(groupId, t, 0)) === 3n)
      await crashing.crash()
      const survivor = await start()
      const seen: Array<BusRecord> = []
      await survivor.subscribe({ groupId, topics: [t] }, collect(seen))
      await eventually("3-5 are redelivered", () => seen.length >= 3)
      expect(values(seen)).toEqual(["3", "4", "5"])
    })

    it("keeps processing and committing the records behind one that is held for seconds", async () => {
      const t = await topic(1)
      const groupId = uniqueName("g")
      const bus = await start()
      await bus.publish(Array.from({ length: 10 }, (_, i) => ({ topic: t, key: "k", value: `${i}` })))
      const done: Array<string> = []
      let release = false
      await bus.subscribe({ groupId, topics: [t], window: 16 }, (record) =>
        Effect.gen(function* () {
          while (record.value === "2" && !release) yield* Effect.sleep("20 millis")
          done.push(record.value)
        }),
      )
      await eventually("every record but 2 is done", () => done.length === 9)
      expect(done).not.toContain("2")
      await eventually("0-1 are committed", async () => (await backend.committedOffset(groupId, t, 0)) === 2n)
      // Held for a second more: the commit must stay at the held record.
      expect(await holdsFor(() => true, 1_000)).toBe(true)
      expect(await backend.committedOffset(groupId, t, 0)).toBe(2n)
      release = true
      await eventually(
        "everything is committed once 2 is done",
        async () => (await backend.committedOffset(groupId, t, 0)) === 10n,
      )
    })

    it("counts only unfinished records against the window: a held record does not stop the many behind it", async () => {
      const t = await topic(1)
      const groupId = uniqueName("g")
      const bus = await start()
      await bus.publish(Array.from({ length: 40 }, (_, i) => ({ topic: t, key: "k", value: `${i}` })))
      const done = new Set<string>()
      let release = false
      await bus.subscribe({ groupId, topics: [t], window: 4 }, (record) =>
        Effect.gen(function* () {
          while (record.value === "0" && !release) yield* Effect.sleep("20 millis")
          done.add(record.value)
        }),
      )
      // Ten windows' worth of records pass the one that is held.
      await eventually("every record but 0 is done", () => done.size === 39)
      expect(done.has("0")).toBe(false)
      expect((await backend.committedOffset(groupId, t, 0)) ?? 0n).toBe(0n)
      release = true
      await eventually(
        "everything is committed once 0 is done",
        async () => (await backend.committedOffset(groupId, t, 0)) === 40n,
      )
    })

    it("holds at most `window` records of a partition in flight and refills once half of it is free", async () => {
      const t = await topic(1)
      const bus = await start()
      await bus.publish(Array.from({ length: 20 }, (_, i) => ({ topic: t, key: "k", value: `${i}` })))
      const started: Array<string> = []
      const released = new Set<string>()
      let inFlight = 0
      let mostInFlight = 0
      await bus.subscribe({ groupId: uniqueName("g"), topics: [t], window: 8 }, (record) =>
        Effect.gen(function* () {
          started.push(record.value)
          mostInFlight = Math.max(mostInFlight, ++inFlight)
          while (!released.has(record.value)) yield* Effect.sleep("10 millis")
          inFlight--
        }),
      )
      await eventually("the window fills", () => started.length === 8)
      expect(await holdsFor(() => started.length === 8, 500)).toBe(true)
      // Three free slots: fewer than half the window, so nothing more is fetched.
      for (const value of ["0", "1", "2"]) released.add(value)
      expect(await holdsFor(() => started.length === 8, 750)).toBe(true)
      released.add("3")
      await eventually("four more are fetched at once", () => started.length === 12)
      for (let i = 0; i < 20; i++) released.add(`${i}`)
      await eventually("every record is handled", () => started.length === 20)
      expect(started).toEqual(Array.from({ length: 20 }, (_, i) => `${i}`))
      expect(mostInFlight).toBe(8)
    })

    it("retries a failing handler without committing past its record", async () => {
      const t = await topic(1)
      const groupId = uniqueName("g")
      const bus = await start()
      await bus.publish(["0", "1", "2"].map((value) => ({ topic: t, key: "k", value })))
      let failuresLeft = 3
      const done: Array<string> = []
      await bus.subscribe({ groupId, topics: [t] }, (record) =>
        Effect.suspend(() => {
          if (record.value === "1" && failuresLeft-- > 0)
            return failuresLeft % 2 ? Effect.fail("no") : Effect.die("boom")
          done.push(record.value)
          return Effect.void
        }),
      )
      await eventually("2 is done while 1 fails", () => done.includes("2") || done.includes("1"))
      if (!done.includes("1")) expect((await backend.committedOffset(groupId, t, 0)) ?? 0n).toBeLessThanOrEqual(1n)
      await eventually("1 succeeds after its retries", () => done.includes("1"))
      expect(failuresLeft).toBeLessThanOrEqual(0)
      await eventually("all three are committed", async () => (await backend.committedOffset(groupId, t, 0)) === 3n)
    })

    it("delivers nothing new while paused and continues after resume", async () => {
      const t = await topic(2)
      const bus = await start()
      const seen: Array<BusRecord> = []
      const subscription = await bus.subscribe({ groupId: uniqueName("g"), topics: [t] }, collect(seen))
      await bus.publish([{ topic: t, key: "a", value: "before" }])
      await eventually("the first record arrives", () => seen.length === 1)
      await Effect.runPromise(subscription.pause)
      await bus.publish(["a", "b", "c"].map((key) => ({ topic: t, key, value: `paused-${key}` })))
      expect(await holdsFor(() => seen.length === 1, 750)).toBe(true)
      await Effect.runPromise(subscription.resume)
      await eventually("the records published while paused arrive", () => seen.length === 4)
    })

    it("delivers an OutboxWriter record iff its transaction commits", async () => {
      const t = await topic(2)
      const bus = await start()
      const append = (value: string, fail: boolean) =>
        bus
          .run(
            withTransaction((tx) =>
              OutboxWriter.use((outbox) => outbox.append(tx, [{ topic: t, key: "same", value }])).pipe(
                Effect.andThen(fail ? Effect.fail("rolled back" as const) : Effect.void),
              ),
            ),
          )
          .catch(() => {})
      await append("rolled-back", true)
      await append("committed", false)
      await append("marker", false)
      const seen: Array<BusRecord> = []
      await bus.subscribe({ groupId: uniqueName("g"), topics: [t] }, collect(seen))
      // One key, so one partition: once the later marker is in, the rolled-back one would have been.
      await eventually("the marker arrives", () => values(seen).includes("marker"))
      expect(values(seen)).toEqual(["committed", "marker"])
    })

    it("carries the publisher's trace and trace state on its records and handles each in a CONSUMER span of that trace", async () => {
      const receiver = await startOtlpReceiver()
      const stop = await startTracing("bus-contract", {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      })
      try {
        const t = await topic(2)
        const bus = await start()
        const traceId = randomBytes(16).toString("hex")
        // As a traced request would: its span is the fiber's parent while it publishes and appends.
        const tracestate = "acme=t61rcWkgMzE,other=x"
        const request = startSpan(
          "request",
          {},
          extractContext({ traceparent: `00-${traceId}-${"ab".repeat(8)}-01`, tracestate }),
        )
        const requestSpan = request?.span.spanContext().spanId
        await bus.run(
          withTraceContext(
            Bus.use((b) => b.publish([{ topic: t, key: "k", value: "published" }])),
            request?.context,
          ),
        )
        await bus.run(
          withTraceContext(
            withTransaction((tx) =>
              OutboxWriter.use((outbox) => outbox.append(tx, [{ topic: t, key: "k", value: "appended" }])),
            ),
            request?.context,
          ),
        )
        request?.span.end()
        const seen: Array<{ record: BusRecord; inHandler: Record<string, string> }> = []
        await bus.subscribe({ groupId: uniqueName("g"), topics: [t] }, (record) =>
          Effect.map(currentTraceHeaders, (inHandler) => void seen.push({ record, inHandler })),
        )
        await eventually("both records arrive", () => seen.length >= 2)
        const ofTrace = () => receiver.spans().filter((span) => span.traceId === traceId)
        await eventually("both CONSUMER spans are exported", async () => {
          await flushTracing()
          return ofTrace().filter((span) => span.kind === 5).length >= 2
        })
        const spans = ofTrace()
        for (const { record, inHandler } of seen) {
          expect(record.headers.traceparent).toBe(`00-${traceId}-${requestSpan}-01`)
          expect(record.headers.tracestate, record.value).toBe(tracestate)
          const consumer = spans.find(
            (span) => span.kind === 5 && inHandler.traceparent === `00-${traceId}-${span.spanId}-01`,
          )
          expect(consumer, record.value).toMatchObject({
            name: `${t} process`,
            parentSpanId: requestSpan,
            traceState: tracestate,
          })
          // What the handler publishes or calls carries it on.
          expect(inHandler.tracestate, record.value).toBe(tracestate)
        }
      } finally {
        await stop()
        await receiver.close()
      }
    })
  })

import { Writable } from "node:stream"
import { Effect, Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { BatchQueue } from "./batch-queue.ts"
import { effectHandler } from "./effect-http.ts"
import { makeHttpServer } from "./http/server.ts"
import { makeLogger } from "./logger.ts"
import { makeServiceMetrics } from "./metrics.ts"
import { eventually, type OtlpReceiver, type StubServer, startHttpServer, startOtlpReceiver } from "./testing.ts"
import {
  currentTraceHeaders,
  flushTracing,
  Otel,
  startSpan,
  startTracing,
  tracedCall,
  tracingEnabled,
  withActiveTrace,
} from "./tracing.ts"

const logger = makeLogger({
  service: "traced",
  level: "warn",
  destination: new Writable({ write: (_c, _e, cb) => cb() }),
})
const SERVER = 2
const CLIENT = 3
const INCOMING_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736"
const INCOMING_SPAN = "00f067aa0ba902b7"
/** A vendor's entries, which every span of the trace and every call it makes carries on (§18). */
const INCOMING_STATE = "acme=t61rcWkgMzE,other=x"

describe("tracing, off", () => {
  it("starts nothing and adds nothing without an endpoint", async () => {
    const stop = await startTracing("traced", {})
    expect(tracingEnabled()).toBe(false)
    const headers: Record<string, string> = {}
    expect(await tracedCall("x", headers, {}, async (span) => span)).toBeUndefined()
    expect(headers).toEqual({})
    expect(await Effect.runPromise(currentTraceHeaders)).toEqual({})
    const records = [{ topic: "t", headers: {} }]
    expect(withActiveTrace(records)).toBe(records)
    await stop()
  })

  it("refuses a protocol or a sampler it does not know, naming the variable", async () => {
    await expect(
      startTracing("traced", {
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:1",
        OTEL_EXPORTER_OTLP_PROTOCOL: "grpc",
      }),
    ).rejects.toThrow(/OTEL_EXPORTER_OTLP_PROTOCOL=grpc/)
    await expect(
      startTracing("traced", { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:1", OTEL_TRACES_SAMPLER: "sometimes" }),
    ).rejects.toThrow(/OTEL_TRACES_SAMPLER=sometimes/)
    expect(tracingEnabled()).toBe(false)
  })
})

describe("tracing, exported over OTLP/HTTP (http/json)", () => {
  let receiver: OtlpReceiver
  let downstream: StubServer
  let stop: () => Promise<void>
  let app: ReturnType<typeof makeHttpServer>
  const runtime = ManagedRuntime.make(Layer.empty)

  beforeAll(async () => {
    receiver = await startOtlpReceiver()
    downstream = await startHttpServer()
    stop = await startTracing("traced", {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
    })
    app = makeHttpServer({
      service: "traced",
      logger,
      metrics: makeServiceMetrics("traced", { defaultMetrics: false }),
    })
    // Plain code: a call made after an await, inside the request's context.
    app.get("/plain", async () => {
      await new Promise((resolve) => setTimeout(resolve, 5))
      const headers: Record<string, string> = {}
      await tracedCall("downstream GET", headers, {}, () => fetch(`${downstream.url}/plain`, { headers }))
      return { ok: true }
    })
    // An Effect route: the fiber's span is the request's, across an async boundary.
    app.get(
      "/effect",
      effectHandler(runtime, () =>
        Effect.gen(function* () {
          yield* Effect.sleep(5)
          const record = yield* currentTraceHeaders
          yield* Effect.promise(() => {
            const headers: Record<string, string> = {}
            return tracedCall("downstream GET", headers, {}, () => fetch(`${downstream.url}/effect`, { headers }))
          })
          return { record }
        }),
      ),
    )
    await app.ready()
  })

  afterAll(async () => {
    await app?.close()
    await stop?.()
    await runtime.dispose()
    await downstream?.close()
    await receiver?.close()
  })

  const spansOf = async (traceId: string, count: number) =>
    eventually(
      async () => {
        await flushTracing()
        const spans = receiver.spans().filter((span) => span.traceId === traceId)
        expect(spans.length).toBeGreaterThanOrEqual(count)
        return spans
      },
      { timeoutMs: 10_000 },
    )

  it.each(["plain", "effect"])(
    "continues the caller's trace and trace state in a SERVER span and gives a downstream call a CLIENT span, its traceparent and the tracestate (%s)",
    async (route) => {
      const answer = await app.inject({
        method: "GET",
        url: `/${route}`,
        headers: { traceparent: `00-${INCOMING_TRACE}-${INCOMING_SPAN}-01`, tracestate: INCOMING_STATE },
      })
      expect(answer.statusCode).toBe(200)
      const spans = await spansOf(INCOMING_TRACE, 2)
      const server = spans.find((span) => span.name === `GET /${route}`)
      expect(server).toMatchObject({ service: "traced", kind: SERVER, parentSpanId: INCOMING_SPAN })
      expect(server?.attributes["http.response.status_code"]).toBe(200)
      const client = spans.find((span) => span.name === "downstream GET" && span.parentSpanId === server?.spanId)
      expect(client?.kind).toBe(CLIENT)
      const sent = downstream.requests.findLast((request) => request.path === `/${route}`)
      expect(sent?.headers.traceparent).toBe(`00-${INCOMING_TRACE}-${client?.spanId}-01`)
      expect(sent?.headers.tracestate).toBe(INCOMING_STATE)
      expect([server?.traceState, client?.traceState]).toEqual([INCOMING_STATE, INCOMING_STATE])
      if (route === "effect") {
        // What an Effect route would put on a bus record: the request's own span, and the state.
        expect((answer.json() as { record: Record<string, string> }).record).toEqual({
          traceparent: `00-${INCOMING_TRACE}-${server?.spanId}-01`,
          tracestate: INCOMING_STATE,
        })
      }
    },
  )

  it("starts a new trace for a request without traceparent, and traces no probe", async () => {
    const before = receiver.spans().length
    expect((await app.inject({ method: "GET", url: "/health/live" })).statusCode).toBe(200)
    expect((await app.inject({ method: "GET", url: "/plain" })).statusCode).toBe(200)
    const root = await eventually(
      async () => {
        await flushTracing()
        const found = receiver
          .spans()
          .slice(before)
          .find((span) => span.name === "GET /plain")
        expect(found).toBeDefined()
        return found
      },
      { timeoutMs: 10_000 },
    )
    expect(root?.parentSpanId).toBeUndefined()
    expect(receiver.spans().some((span) => span.name.includes("/health"))).toBe(false)
  })
  it("runs a group commit's batch in its submitter's trace, and a mixed batch in a span linked to each", async () => {
    const seen: Array<Otel.SpanContext | undefined> = []
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    const queue = new BatchQueue<string>(
      async (items) => {
        seen.push(Otel.trace.getSpanContext(Otel.context.active()))
        if (items.includes("hold")) await held
        return items.map(() => undefined)
      },
      { maxConcurrent: 1 },
    )
    const submitIn = (name: string, item: string) => {
      const started = startSpan(name, {}, Otel.ROOT_CONTEXT)
      const done = Otel.context.with(started?.context as Otel.Context, () => queue.submit(item))
      started?.span.end()
      return { done, span: started?.span.spanContext() as Otel.SpanContext }
    }
    const alone = submitIn("alone", "hold")
    // Queued behind it, from two different traces: one batch.
    const [a, b] = [submitIn("a", "a"), submitIn("b", "b")]
    release()
    await Promise.all([alone.done, a.done, b.done])
    expect(seen[0]?.spanId).toBe(alone.span.spanId)
    const batch = seen[1] as Otel.SpanContext
    expect([a.span.traceId, b.span.traceId]).not.toContain(batch.traceId)
    const exported = await eventually(
      async () => {
        await flushTracing()
        const found = receiver.spans().find((span) => span.spanId === batch.spanId)
        expect(found).toBeDefined()
        return found
      },
      { timeoutMs: 10_000 },
    )
    expect(exported?.name).toBe("group commit")
    expect(exported?.parentSpanId).toBeUndefined()
    expect(exported?.links.map((link) => link.spanId).sort()).toEqual([a.span.spanId, b.span.spanId].sort())
  })
})

describe("tracing, its endpoint refusing spans", () => {
  it("says so once in the logs, and once when the endpoint takes spans again", async () => {
    // 400: refused for good (a 503 the exporter retries, with backoff, before it gives the batch up).
    const collector = await startHttpServer(() => ({ status: 400, body: { error: "not OTLP" } }))
    const lines: Array<{ level: string; msg: string; endpoint?: string; err?: { message: string } }> = []
    const said = makeLogger({
      service: "traced",
      level: "info",
      destination: new Writable({
        write: (chunk, _e, cb) => {
          lines.push(JSON.parse(String(chunk)))
          cb()
        },
      }),
    })
    const stop = await startTracing(
      "traced",
      { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" },
      said,
    )
    const oneSpan = async () => {
      startSpan("work", {}, Otel.ROOT_CONTEXT)?.span.end()
      // The SDK's flush fails with the export; what the operator reads is the log line.
      await flushTracing().catch(() => undefined)
    }
    try {
      await oneSpan()
      await oneSpan()
      expect(collector.requests.length).toBeGreaterThanOrEqual(2)
      const warned = lines.filter((line) => line.level === "warn")
      expect(warned).toHaveLength(1)
      expect(warned[0]).toMatchObject({
        msg: "tracing: the OTLP endpoint does not take spans; they are dropped until it does",
        endpoint: collector.url,
      })
      expect(warned[0]?.err?.message).toBeTruthy()

      collector.setHandler(() => ({ status: 200, body: {} }))
      await oneSpan()
      await oneSpan()
      expect(lines.filter((line) => line.msg === "tracing: the OTLP endpoint takes spans again")).toHaveLength(1)
      expect(lines.filter((line) => line.level === "warn")).toHaveLength(1)
    } finally {
      await stop()
      await collector.close()
    }
  })
})

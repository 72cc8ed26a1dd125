/**
 * The gateway's calls to identity in the request's trace (docs/contract.md §18), against the real
 * identity service: each lookup is a CLIENT span of the request's span, identity's SERVER span its
 * child, with the request's `tracestate`; an unsampled request's lookup is recorded nowhere. One
 * process, one tracer provider (the default `parentbased_always_on`), spans exported over OTLP/HTTP
 * to a loopback receiver.
 */
import { randomBytes } from "node:crypto"
import { flushTracing, startTracing } from "@parley/platform"
import { eventually, type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from "@parley/platform/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  createKey,
  createOrganization,
  type Organization,
  type RunningGateway,
  startSystem,
  type TestSystem,
} from "./system.ts"

const SERVER = 2
const CLIENT = 3
const TRACESTATE = "acme=t61rcWkgMzE,other=x"

let receiver: OtlpReceiver
let stopTracing: () => Promise<void>
let system: TestSystem
let gw: RunningGateway
let org: Organization

beforeAll(async () => {
  receiver = await startOtlpReceiver()
  // Before the servers are made: each installs its request spans only if tracing is on.
  stopTracing = await startTracing("gateway", {
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
    OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
  })
  system = await startSystem()
  gw = await system.startGateway()
  org = await createOrganization(gw.url)
})
afterAll(async () => {
  await system?.close()
  await stopTracing?.()
  await receiver?.close()
})

const newTrace = () => ({ traceId: randomBytes(16).toString("hex"), spanId: randomBytes(8).toString("hex") })

const spansOf = (traceId: string, names: ReadonlyArray<string>) =>
  eventually(
    async () => {
      await flushTracing()
      const spans = receiver.spans().filter((span) => span.traceId === traceId)
      for (const name of names) expect(spans.map((span) => span.name)).toContain(name)
      return spans
    },
    { timeoutMs: 10_000 },
  )

const named = (spans: ReadonlyArray<ReceivedSpan>, name: string, kind: number) => {
  const found = spans.find((span) => span.name === name && span.kind === kind)
  expect(found, `${name} in ${spans.map((span) => span.name).join(", ")}`).toBeDefined()
  return found as ReceivedSpan
}

describe("identity's lookups in the request's trace", () => {
  it.each([
    ["key", "/internal/keys/lookup"],
    ["session", "/internal/sessions/lookup"],
  ])(
    "makes a %s lookup a child of the request's span, with its tracestate, and identity continues it",
    async (credential, lookup) => {
      // A fresh key: the cache has not seen it, so the request asks identity.
      const headers: Record<string, string> =
        credential === "key" ? { "x-api-key": (await createKey(gw.url, org)).key } : { cookie: org.cookie }
      const incoming = newTrace()
      const response = await fetch(`${gw.url}/api/templates`, {
        headers: { ...headers, traceparent: `00-${incoming.traceId}-${incoming.spanId}-01`, tracestate: TRACESTATE },
      })
      expect(response.status).toBe(200)
      const spans = await spansOf(incoming.traceId, ["GET /api/*", `identity POST ${lookup}`, `POST ${lookup}`])
      const request = named(spans, "GET /api/*", SERVER)
      expect(request.parentSpanId).toBe(incoming.spanId)
      const call = named(spans, `identity POST ${lookup}`, CLIENT)
      expect(call).toMatchObject({ parentSpanId: request.spanId, traceState: TRACESTATE })
      expect(call.attributes["http.response.status_code"]).toBe(200)
      const served = named(spans, `POST ${lookup}`, SERVER)
      expect(served).toMatchObject({ parentSpanId: call.spanId, traceState: TRACESTATE })
    },
  )

  it("records no lookup of a request its caller did not sample, as identity follows the request's decision", async () => {
    const lookups = () => receiver.spans().filter((span) => span.name === "POST /internal/keys/lookup")
    const before = lookups().length
    const unsampled = newTrace()
    const quiet = await fetch(`${gw.url}/api/templates`, {
      headers: {
        "x-api-key": (await createKey(gw.url, org)).key,
        traceparent: `00-${unsampled.traceId}-${unsampled.spanId}-00`,
      },
    })
    expect(quiet.status).toBe(200)
    // A sampled request after it: once its lookup is exported, the unsampled one's would have been.
    const sampled = newTrace()
    const heard = await fetch(`${gw.url}/api/templates`, {
      headers: {
        "x-api-key": (await createKey(gw.url, org)).key,
        traceparent: `00-${sampled.traceId}-${sampled.spanId}-01`,
      },
    })
    expect(heard.status).toBe(200)
    await spansOf(sampled.traceId, ["POST /internal/keys/lookup"])
    expect(receiver.spans().filter((span) => span.traceId === unsampled.traceId)).toEqual([])
    expect(
      lookups()
        .slice(before)
        .map((span) => span.traceId),
    ).toEqual([sampled.traceId])
  })
})

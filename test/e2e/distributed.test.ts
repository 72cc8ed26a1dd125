import { createHmac } from "node:crypto"
import {
  ChannelRecord,
  ChatResponse,
  CreatedApiKey,
  CreatedWebhook,
  CreateOrganizationResponse,
  CurrentUserResponse,
  ListDeliveriesResponse,
} from "@parley/contracts"
import {
  eventually,
  type OtlpReceiver,
  type ReceivedRequest,
  type ReceivedSpan,
  type StubServer,
  startHttpServer,
  startOtlpReceiver,
} from "@parley/platform/testing"
import { verify } from "@parley/webhooks"
import { Schema } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ensureBuilt } from "./support/distributed-build.ts"
import { awaitReady } from "./support/distributed-process.ts"
import { type DistributedSystem, startDistributedSystem } from "./support/distributed-system.ts"
import { checkGates, gateTable, setUpGateCredentials } from "./support/gate-table.ts"

// Under the general limit, so a heavy route's `RateLimit-Limit` shows its heavy limit counted it.
const HEAVY_LIMIT = 1000

// The whole path of a tenant through Parley distributed as in production: the build output, one
// process per service, Postgres, Redis and Kafka. Operator → organization → admin session → API
// key → webhook → a customer message from the cloud provider → a signed delivery at the receiver.
describe("Parley distributed (one process per service, Postgres, Redis, Kafka)", () => {
  let system: DistributedSystem
  let receiver: StubServer
  let provider: StubServer
  // Every process exports its spans here (CONTRACT §18), as to a collector, over OTLP/HTTP JSON.
  let traces: OtlpReceiver
  let buildNote = ""

  beforeAll(async () => {
    const build = await ensureBuilt()
    buildNote =
      build.built === undefined ? `build fresh (${build.ms} ms check)` : `built in ${build.ms} ms (${build.built})`
    receiver = await startHttpServer()
    // The cloud provider's Graph API: answers every send with a message id.
    let sent = 0
    provider = await startHttpServer(() => ({ body: { messages: [{ id: `wamid.out${++sent}` }] } }))
    traces = await startOtlpReceiver()
    system = await startDistributedSystem({
      env: {
        PARLEY_CLOUD_API_URL: provider.url,
        PARLEY_RATE_HEAVY_PER_MIN: String(HEAVY_LIMIT),
        OTEL_EXPORTER_OTLP_ENDPOINT: traces.endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      },
    })
    console.info(
      `distributed e2e: ${buildNote}; ${system.services.length} processes up in ${system.startupMs} ms (Kafka: ${system.kafka.kind}; live after ${JSON.stringify(system.liveAfter)})`,
    )
  }, 300_000)

  afterAll(async () => {
    await system?.stop()
    await receiver?.close()
    await provider?.close()
    await traces?.close()
  }, 60_000)

  const api = (path: string, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}) =>
    fetch(`${system.url}${path}`, {
      method: init.method ?? "GET",
      headers: {
        ...(init.body === undefined ? {} : { "content-type": "application/json" }),
        ...init.headers,
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    })

  /** Each answer is also decoded by the Schema the OpenAPI document shows for it. */
  const decoded = async <A, I>(schema: Schema.Codec<A, I>, response: Response): Promise<A> =>
    Schema.decodeUnknownSync(schema)(await response.json())

  const state: { cookie?: string; key?: string; webhookSecret?: string; webhookId?: string } = {}
  const phoneNumberId = "106540352242922"

  it("reports every process ready: Postgres, Redis and the gateway's upstreams reachable", async () => {
    for (const service of system.services) await awaitReady(service)
    // Rate limits are counted in Redis, not in the gateway's memory.
    const metrics = await (await fetch(`${system.gatewayMetricsUrl}/metrics`)).text()
    expect(metrics).toMatch(/^parley_gateway_rate_limiter_fallback(\{[^}]*\})? 0$/m)
  }, 90_000)

  it("gates every spelling of every declared route as the service routes it, over HTTP (or answers 404)", async () => {
    const credentials = await setUpGateCredentials(system.url, system.operatorToken)
    const failures = await checkGates(system.url, gateTable(credentials, HEAVY_LIMIT))
    expect(failures, failures.join("\n")).toEqual([])
  }, 120_000)

  it("lets the operator create an organization with api_access", async () => {
    const response = await api("/api/operator/organizations", {
      method: "POST",
      headers: { authorization: `Bearer ${system.operatorToken}` },
      body: {
        name: "Distributed Dental",
        features: ["api_access"],
        admin: { email: "owner@dd.example", password: "correct horse battery" },
      },
    })
    expect(response.status, system.logs()).toBe(201)
    const created = await decoded(CreateOrganizationResponse, response)
    expect(created.organization.id).toMatch(/^org_/)
    expect(created.organization.features).toEqual(["api_access"])
    expect(created.admin.role).toBe("admin")
  })

  it("signs the administrator in with a session cookie", async () => {
    const response = await api("/api/auth/login", {
      method: "POST",
      body: { email: "owner@dd.example", password: "correct horse battery" },
    })
    expect(response.status).toBe(200)
    const cookie = response.headers.get("set-cookie") ?? ""
    expect(cookie).toMatch(/^parley_session=[^;]+;.*HttpOnly/i)
    expect((await decoded(CurrentUserResponse, response)).user.role).toBe("admin")
    state.cookie = cookie.split(";")[0]
  })

  it("creates an API key from the session", async () => {
    const response = await api("/api/org/api-keys", {
      method: "POST",
      headers: { cookie: state.cookie as string },
      body: { name: "server" },
    })
    expect(response.status).toBe(201)
    const key = await decoded(CreatedApiKey, response)
    expect(key.key).toMatch(/^parley_[0-9A-Za-z]{12}\.[0-9A-Za-z]{49}$/)
    state.key = key.key
  })

  it("registers a webhook on a loopback receiver and connects the cloud channel with the key", async () => {
    const webhook = await api("/api/org/webhooks", {
      method: "POST",
      headers: { "x-api-key": state.key as string },
      body: { url: `${receiver.url}/parley`, events: ["message.inbound", "lead.created"] },
    })
    expect(webhook.status).toBe(201)
    const created = await decoded(CreatedWebhook, webhook)
    state.webhookId = created.id
    state.webhookSecret = created.secret
    const channel = await api("/api/channels/cloud", {
      method: "PUT",
      headers: { "x-api-key": state.key as string },
      body: { phoneNumberId, businessAccountId: "5550001", accessToken: "provider-access-token" },
    })
    expect(channel.status).toBe(200)
    expect((await decoded(ChannelRecord, channel)).phoneNumberId).toBe(phoneNumberId)
  })

  const deliveriesOf = (event: string): Array<ReceivedRequest> =>
    receiver.requests.filter((request) => request.headers["x-service-event"] === event)

  const cloudInbound = (messageId: string, text: string) =>
    JSON.stringify({
      object: "whatsapp_business_account",
      entry: [
        {
          id: "5550001",
          changes: [
            {
              field: "messages",
              value: {
                messaging_product: "whatsapp",
                metadata: { display_phone_number: "15550000000", phone_number_id: phoneNumberId },
                contacts: [{ profile: { name: "Robin" }, wa_id: "14155550100" }],
                messages: [
                  { from: "14155550100", id: messageId, timestamp: "1763800000", type: "text", text: { body: text } },
                ],
              },
            },
          ],
        },
      ],
    })

  it("delivers a customer's cloud message to the webhook, signed so that @parley/webhooks verifies it", async () => {
    const started = Date.now()
    let sentAt = 0
    let sequence = 0
    // The registry announces the new webhook over Kafka; until the dispatcher has it, an event finds
    // no subscriber. Send a fresh message every few seconds until one is delivered.
    const delivery = await eventually(
      async () => {
        if (Date.now() - sentAt > 3_000) {
          sentAt = Date.now()
          const body = cloudInbound(`wamid.in${++sequence}`, "Hello from the distributed test")
          const signature = `sha256=${createHmac("sha256", system.cloudAppSecret).update(body).digest("hex")}`
          const response = await fetch(`${system.url}/channels/cloud/webhook`, {
            method: "POST",
            headers: { "content-type": "application/json", "x-hub-signature-256": signature },
            body,
          })
          expect(response.status).toBe(200)
        }
        const first = deliveriesOf("message.inbound")[0]
        if (first === undefined) throw new Error("no message.inbound delivery yet")
        return first
      },
      { timeoutMs: 60_000 },
    ).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${system.logs()}`)
    })
    console.info(`distributed e2e: first message.inbound delivered ${Date.now() - started} ms after the first send`)

    const envelope = await verify(delivery.body, delivery.headers, state.webhookSecret as string)
    expect(envelope.event).toBe("message.inbound")
    expect(envelope.data).toMatchObject({ from: "14155550100", text: "Hello from the distributed test", type: "text" })
    expect(delivery.headers["x-service-attempt"]).toBe("1")
    expect(delivery.headers["x-service-delivery"]).toMatch(/^dlv_/)
    expect(delivery.headers["user-agent"]).toMatch(/^Parley-Webhooks\//)
    await expect(verify(delivery.body, delivery.headers, "A".repeat(43))).rejects.toMatchObject({
      _tag: "InvalidSignature",
    })
  }, 90_000)

  it("answers the customer through the cloud channel (assistant and messaging over Kafka)", async () => {
    const sent = await eventually(
      () => {
        const request = provider.requests.find(
          (r) => r.method === "POST" && r.path === `/v21.0/${phoneNumberId}/messages`,
        )
        if (request === undefined) throw new Error("no message sent to the provider yet")
        return request
      },
      { timeoutMs: 30_000 },
    ).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${system.logs()}`)
    })
    expect(sent.headers.authorization).toBe("Bearer provider-access-token")
    expect(sent.json()).toMatchObject({ messaging_product: "whatsapp", to: "14155550100", type: "text" })
    expect((sent.json() as { text: { body: string } }).text.body).toMatch(/\S/)
  }, 45_000)

  it("traces the customer's message as one trace: ingress, messaging, the bus, the assistant's turn, the reply's provider call, the webhook attempt", async () => {
    const delivery = deliveriesOf("message.inbound")[0] as ReceivedRequest
    const [, traceId, attemptSpanId] = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(
      String(delivery.headers.traceparent),
    ) ?? ["", "no traceparent on the webhook attempt", ""]
    // The reply to that very message: the provider call of the same trace.
    const reply = await eventually(
      () => {
        const found = provider.requests.find((request) => String(request.headers.traceparent).includes(`-${traceId}-`))
        if (found === undefined) throw new Error(`no provider call in trace ${traceId}`)
        return found
      },
      { timeoutMs: 30_000 },
    )
    const providerSpanId = String(reply.headers.traceparent).split("-")[2]
    const spans = await eventually(
      () => {
        const ofTrace = traces.spans().filter((span) => span.traceId === traceId)
        const ids = new Set(ofTrace.map((span) => span.spanId))
        if (!ids.has(attemptSpanId as string) || !ids.has(providerSpanId as string)) {
          throw new Error(`the attempt's and the provider call's spans are not exported yet (${ofTrace.length} spans)`)
        }
        // Each process exports on its own schedule: wait until every ancestor of both has arrived too.
        const parentOf = new Map(ofTrace.map((span) => [span.spanId, span.parentSpanId]))
        for (const start of [attemptSpanId as string, providerSpanId as string]) {
          for (let id = parentOf.get(start); id !== undefined; id = parentOf.get(id)) {
            if (!ids.has(id)) throw new Error(`span ${id}, an ancestor of ${start}, is not exported yet`)
          }
        }
        return ofTrace
      },
      { timeoutMs: 20_000 },
    )
    const byId = new Map(spans.map((span) => [span.spanId, span]))
    /** The span and its ancestors, nearest first; every parent must be in the trace. */
    const lineage = (spanId: string): Array<ReceivedSpan> => {
      const chain: Array<ReceivedSpan> = []
      for (let span = byId.get(spanId); span !== undefined; ) {
        chain.push(span)
        if (span.parentSpanId === undefined) return chain
        const parent = byId.get(span.parentSpanId)
        expect(
          parent,
          `the parent (${span.parentSpanId}) of ${span.service} "${span.name}" is in the trace:\n${spans
            .map((each) => `${each.spanId} ← ${each.parentSpanId ?? "root"} ${each.service}: ${each.name}`)
            .join("\n")}`,
        ).toBeDefined()
        span = parent
      }
      return chain
    }
    const describeChain = (chain: Array<ReceivedSpan>) => chain.map((span) => `${span.service}: ${span.name}`)
    const SERVER = 2
    const CLIENT = 3
    const CONSUMER = 5

    const attempt = lineage(attemptSpanId as string)
    // The root: the gateway's span of the provider's signed POST, then messaging's, whose records the bus carries.
    expect(attempt.at(-1)).toMatchObject({ service: "gateway", kind: SERVER, name: "POST /channels/*" })
    expect(attempt.at(-1)?.attributes["url.path"]).toBe("/channels/cloud/webhook")
    expect(attempt.at(-2)).toMatchObject({ service: "messaging", kind: SERVER, name: "POST /channels/cloud/webhook" })
    expect(attempt[0]).toMatchObject({ service: "dispatcher", kind: CLIENT })
    expect(attempt[0]?.attributes["parley.event"]).toBe("message.inbound")
    expect(attempt[1], describeChain(attempt).join(" ← ")).toMatchObject({ service: "dispatcher", kind: CONSUMER })

    const replied = lineage(providerSpanId as string)
    const chain = describeChain(replied).join(" ← ")
    expect(replied[0], chain).toMatchObject({ service: "messaging", kind: CLIENT })
    expect(replied.at(-1), chain).toBe(attempt.at(-1))
    expect(
      replied.some((span) => span.service === "messaging" && span.kind === CONSUMER),
      chain,
    ).toBe(true)
    expect(
      replied.some((span) => span.service === "assistant" && span.kind === CONSUMER),
      chain,
    ).toBe(true)
    // The assistant's turn, within the handling of the customer's message whose reply was sent.
    const turn = spans.find((span) => span.service === "assistant" && span.name === "assistant.turn")
    expect(turn, chain).toBeDefined()
    expect(lineage(turn?.spanId as string).slice(1), chain).toEqual(
      replied.slice(replied.indexOf(byId.get(turn?.parentSpanId as string) as ReceivedSpan)),
    )
  }, 60_000)

  it("delivers lead.created when a widget visitor leaves a phone number", async () => {
    const response = await api("/api/public/chat", {
      method: "POST",
      headers: { authorization: `Bearer ${state.key as string}` },
      body: { message: "Hi, I'm Dana — please call me back at +1 (415) 555-0199" },
    })
    expect(response.status, system.logs()).toBe(200)
    const chat = await decoded(ChatResponse, response)
    expect(chat.lead?.type).toBe("CALLBACK_REQUESTED")
    const delivery = await eventually(
      () => {
        const found = deliveriesOf("lead.created").find((request) => request.text().includes("14155550199"))
        if (found === undefined) throw new Error("no lead.created delivery yet")
        return found
      },
      { timeoutMs: 30_000 },
    )
    const envelope = await verify(delivery.body, delivery.headers, state.webhookSecret as string)
    expect(envelope.event).toBe("lead.created")
    expect(envelope.data).toMatchObject({ phone: "14155550199", name: "Dana" })
  }, 60_000)

  it("streams the inbox live from the assistant's process, and open streams never starve other calls", async () => {
    // More open streams than the gateway's pool has connections to the assistant (64), opened one
    // after another as inboxes are (all at once, their 70 session lookups would test identity instead).
    const streams: Array<Response> = []
    try {
      for (let i = 0; i < 70; i++) {
        const response = await api("/api/conversations/events", { headers: { cookie: state.cookie as string } })
        streams.push(response)
        expect(response.status, `stream ${i}: ${system.logs()}`).toBe(200)
      }
      const started = performance.now()
      const listed = await api("/api/conversations", { headers: { cookie: state.cookie as string } })
      expect(listed.status, system.logs()).toBe(200)
      expect(performance.now() - started).toBeLessThan(5_000)
      const reader = ((streams.at(-1) as Response).body as ReadableStream<Uint8Array>).getReader()
      const decoder = new TextDecoder()
      let text = ""
      const chat = await api("/api/public/chat", {
        method: "POST",
        headers: { authorization: `Bearer ${state.key as string}` },
        body: { message: "Is anyone there?" },
      })
      expect(chat.status).toBe(200)
      while (!text.includes("event: conversation")) {
        const { value, done } = await reader.read()
        if (done) throw new Error(`the stream ended: ${text}`)
        text += decoder.decode(value, { stream: true })
      }
      expect(text).toMatch(/data: \{"id":"cnv_[0-9A-Za-z]+"\}/)
    } finally {
      for (const response of streams) await response.body?.cancel().catch(() => undefined)
    }
  }, 60_000)

  it("serves the OpenAPI document and its page from the gateway", async () => {
    const document = await api("/docs/openapi.json")
    expect(document.status).toBe(200)
    expect(document.headers.get("x-request-id")).toBeTruthy()
    const { openapi, servers, paths } = (await document.json()) as {
      openapi: string
      servers: Array<{ url: string }>
      paths: Record<string, unknown>
    }
    expect(openapi).toBe("3.1.0")
    expect(servers[0]?.url).toBe(system.url)
    expect(Object.keys(paths)).toEqual(expect.arrayContaining(["/api/org/webhooks", "/channels/cloud/webhook"]))
    const page = await api("/docs")
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('id="createWebhook"')
  })

  it("serves the built console from the gateway process, its script with it, / leading there", async () => {
    const root = await api("/", { headers: {} })
    expect(root.url).toBe(`${system.url}/console/`)
    expect(root.status).toBe(200)
    expect(root.headers.get("content-security-policy")).toContain("script-src 'self'")
    const page = await root.text()
    const script = /<script type="module" crossorigin src="(\/console\/assets\/[^"]+\.js)"/.exec(page)?.[1]
    expect(script).toBeDefined()
    const bundle = await api(script as string)
    expect(bundle.status).toBe(200)
    expect(bundle.headers.get("cache-control")).toBe("public, max-age=31536000, immutable")
  })

  it("records the attempts in the webhook's delivery log", async () => {
    const attempts = await eventually(
      async () => {
        const response = await api(`/api/org/webhooks/${state.webhookId}/deliveries`, {
          headers: { "x-api-key": state.key as string },
        })
        const { data } = await decoded(ListDeliveriesResponse, response)
        if (!data.some((a) => a.event === "lead.created")) throw new Error("lead.created attempt not logged yet")
        return data
      },
      { timeoutMs: 30_000 },
    )
    expect(attempts.every((attempt) => attempt.status === "success")).toBe(true)
    expect(attempts.map((a) => a.event)).toEqual(expect.arrayContaining(["message.inbound", "lead.created"]))
  }, 45_000)
})

/**
 * `npm start`'s hop: a service in the gateway's own process. A bodiless call is handed to the
 * service's Fastify on the client's own request and connection; a call with a body is simulated
 * (`inject`). Either way the service must see what it would over HTTP — the gateway's principal
 * (handed over on the request object when the request is, signed otherwise) and request id, never
 * the client's credentials or forged internal headers — and the client must get the gateway's
 * headers with the service's answer.
 */

import type { IncomingHttpHeaders } from "node:http"
import { type Principal, requirePrincipal } from "@parley/platform"
import Fastify, { type FastifyInstance } from "fastify"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { InProcessDispatcher } from "../src/proxy/in-process.ts"
import {
  type CreatedKey,
  createKey,
  createOrganization,
  INTERNAL_SECRET,
  type Organization,
  type RunningGateway,
  startSystem,
  type TestSystem,
} from "./system.ts"

let system: TestSystem
let gw: RunningGateway
let service: FastifyInstance
let channels: FastifyInstance
const callbacks: Array<{ body: string; signature: unknown; handedOver: boolean }> = []
let org: Organization
let key: CreatedKey
const seen: Array<{
  method: string
  url: string
  headers: IncomingHttpHeaders
  body: unknown
  ip: string
  principal: Principal | undefined
}> = []

beforeAll(async () => {
  service = Fastify()
  // What every service's principal routes run: the principal handed over, else the signed header.
  service.addHook("onRequest", requirePrincipal(INTERNAL_SECRET))
  service.all("/api/org/*", async (request, reply) => {
    seen.push({
      method: request.method,
      url: request.url,
      headers: request.headers,
      body: request.body,
      ip: request.ip,
      principal: request.principal,
    })
    reply.header("x-service-said", "hello")
    return reply.code(request.method === "POST" ? 201 : 200).send({ answered: request.method })
  })
  await service.ready()
  // A provider's callback: the service reads the raw bytes itself (the signature covers them).
  channels = Fastify()
  channels.addContentTypeParser("application/json", { parseAs: "buffer" }, (_request, body, done) => done(null, body))
  channels.post("/channels/cloud/webhook", async (request) => {
    callbacks.push({
      body: (request.body as Buffer).toString("utf8"),
      signature: request.headers["x-hub-signature-256"],
      // The client's own request (handed over), not inject's simulated one.
      handedOver: request.raw.constructor.name === "IncomingMessage",
    })
    return { received: true }
  })
  await channels.ready()
  system = await startSystem()
  const bootstrap = await system.startGateway()
  org = await createOrganization(bootstrap.url)
  key = await createKey(bootstrap.url, org)
  gw = await system.startGateway({
    services: {
      identity: system.identityUrl,
      webhookRegistry: new InProcessDispatcher(service),
      assistant: system.upstream.url,
      messaging: new InProcessDispatcher(channels),
    },
  })
})
afterAll(async () => {
  await system?.close()
  await service?.close()
  await channels?.close()
})

describe("a service in the gateway's process", () => {
  it("gets a bodiless call with the gateway's principal and request id, and none of the client's credentials", async () => {
    seen.length = 0
    const response = await fetch(`${gw.url}/api/org/webhooks?x=1`, {
      headers: {
        "x-api-key": key.key,
        cookie: org.cookie,
        "x-parley-principal": "forged",
        "x-parley-internal": "forged",
        "x-request-id": "trace-in-process",
        "x-custom": "kept",
      },
    })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ answered: "GET" })
    expect(response.headers.get("x-service-said")).toBe("hello")
    expect(response.headers.get("x-request-id")).toBe("trace-in-process")
    expect(response.headers.get("ratelimit-limit")).toBe("300")
    expect(response.headers.get("ratelimit-policy")).toBe("300;w=60")

    const [call] = seen
    expect(call?.url).toBe("/api/org/webhooks?x=1")
    expect(call?.headers["x-api-key"]).toBeUndefined()
    expect(call?.headers.cookie).toBeUndefined()
    expect(call?.headers["x-parley-internal"]).toBeUndefined()
    expect(call?.headers["x-request-id"]).toBe("trace-in-process")
    expect(call?.headers["x-custom"]).toBe("kept")
    expect(call?.headers["x-forwarded-for"]).toBe("127.0.0.1")
    // Handed over with the request object: no header to sign, none to verify (the forged one dropped).
    expect(call?.headers["x-parley-principal"]).toBeUndefined()
    expect(call?.principal).toMatchObject({
      orgId: org.orgId,
      role: "admin",
      actor: { type: "api_key", keyId: key.id },
      requestId: "trace-in-process",
    })
  })

  it("gets a call with a body the gateway read, with the same headers, and answers it", async () => {
    seen.length = 0
    const response = await fetch(`${gw.url}/api/org/webhooks`, {
      method: "POST",
      headers: { "x-api-key": key.key, "content-type": "application/json", "x-parley-principal": "forged" },
      body: JSON.stringify({ url: "https://receiver.example/hook" }),
    })
    expect(response.status).toBe(201)
    expect(await response.json()).toEqual({ answered: "POST" })
    expect(response.headers.get("x-service-said")).toBe("hello")
    expect(response.headers.get("ratelimit-remaining")).not.toBeNull()
    const [call] = seen
    expect(call?.body).toEqual({ url: "https://receiver.example/hook" })
    expect(call?.headers["x-api-key"]).toBeUndefined()
    // Simulated (`inject`), so signed like over HTTP, and verified by the service.
    expect(call?.headers["x-parley-principal"]).not.toBe("forged")
    expect(call?.principal).toMatchObject({ orgId: org.orgId, actor: { type: "api_key" } })
  })

  it("hands a provider's callback over with its body unread, so the service reads the exact bytes", async () => {
    callbacks.length = 0
    const payload = JSON.stringify({
      object: "whatsapp_business_account",
      entry: [{ id: "1", note: "x".repeat(100_000) }],
    })
    const response = await fetch(`${gw.url}/channels/cloud/webhook`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-hub-signature-256": "sha256=abc" },
      body: payload,
    })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ received: true })
    expect(callbacks).toEqual([{ body: payload, signature: "sha256=abc", handedOver: true }])
  })

  it("keeps serving kept-alive clients call after call, each answer whole", async () => {
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        fetch(`${gw.url}/api/org/webhook-events?n=${i}`, { headers: { "x-api-key": key.key } }).then(
          async (response) => [response.status, await response.json()] as const,
        ),
      ),
    )
    expect(answers.every(([status, body]) => status === 200 && body.answered === "GET")).toBe(true)
  })

  it("counts handed-over calls in the gateway's own metrics", async () => {
    const metrics = await (await fetch(`${gw.metricsUrl}/metrics`)).text()
    const served = metrics
      .split("\n")
      .filter(
        (line) =>
          line.startsWith("parley_gateway_upstream_duration_seconds_count") &&
          line.includes(`service="webhookRegistry"`),
      )
    expect(served.length).toBeGreaterThan(0)
    expect(metrics).toMatch(
      /http_requests_total\{method="GET",route="\/api\/\*",status="200",service="gateway"\} (5[1-9]|[6-9]\d|\d{3,})/,
    )
  })
})

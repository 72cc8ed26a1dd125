/**
 * Rate limits (docs/contract.md §3) counted in the shared Redis by every gateway instance: exact at the
 * boundary, the tighter limit answering, each caller counted under its own subject.
 */

import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { setTimeout as sleep } from "node:timers/promises"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import {
  type CreatedKey,
  createKey,
  createOrganization,
  type Organization,
  type RunningGateway,
  startSystem,
  type TestSystem,
} from "./system.ts"

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379"

let system: TestSystem
let setupGateway: RunningGateway
let org: Organization
let key: CreatedKey

beforeAll(async () => {
  system = await startSystem()
  // Tenant set-up goes through a gateway of its own so that it counts against no test's limits.
  setupGateway = await system.startGateway()
  org = await createOrganization(setupGateway.url)
  key = await createKey(setupGateway.url, org)
})
afterAll(async () => system?.close())

// Each instance holds its own bus connections: stop a test's instances when it ends.
const running: Array<RunningGateway> = []
afterEach(async () => {
  for (const gateway of running.splice(0)) await gateway.close()
})

const uniquePrefix = () => `parley:test:${crypto.randomUUID()}:`

/** The `clientIp` of the access lines of `/api/*` calls, once `count` of them are written (after each answer). */
const clientIpsLogged = async (logs: ReadonlyArray<string>, count: number): Promise<Array<string>> => {
  const lines = () =>
    logs
      .map((line) => JSON.parse(line) as { msg?: string; url?: string; clientIp?: string })
      .filter((line) => line.msg === "request completed" && line.url?.startsWith("/api/") === true)
  for (let waited = 0; lines().length < count && waited < 2_000; waited += 20) await sleep(20)
  return lines().map((line) => line.clientIp ?? "(none)")
}

const instances = async (count: number, options: Parameters<TestSystem["startGateway"]>[0] = {}) => {
  const redisKeyPrefix = uniquePrefix()
  const started: Array<RunningGateway> = []
  for (let i = 0; i < count; i++)
    started.push(await system.startGateway({ redisUrl: REDIS_URL, redisKeyPrefix, ...options }))
  running.push(...started)
  return started
}

const statuses = (responses: ReadonlyArray<Response>) => {
  const counts: Record<number, number> = {}
  for (const response of responses) counts[response.status] = (counts[response.status] ?? 0) + 1
  return counts
}

describe("rate limits in Redis", () => {
  it("lets exactly 300 of 320 concurrent requests through across two instances", async () => {
    const [a, b] = await instances(2)
    const responses = await Promise.all(
      Array.from({ length: 320 }, (_, i) =>
        fetch(`${(i % 2 === 0 ? a : b)?.url}/api/templates`, { headers: { "x-api-key": key.key } }),
      ),
    )
    await Promise.all(responses.map((r) => r.arrayBuffer()))
    expect(statuses(responses)).toEqual({ 200: 300, 429: 20 })
    expect(a?.gateway.limiterInMemory()).toBe(false)
  })

  it("lets exactly 20 heavy requests through, the heavy limit answering", async () => {
    const [a, b] = await instances(2)
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        fetch(`${(i % 2 === 0 ? a : b)?.url}/api/leads/export`, { headers: { "x-api-key": key.key } }),
      ),
    )
    await Promise.all(responses.map((r) => r.arrayBuffer()))
    expect(statuses(responses)).toEqual({ 200: 20, 429: 10 })
    const passed = responses.find((r) => r.status === 200)
    expect(passed?.headers.get("ratelimit-limit")).toBe("20")
    expect(passed?.headers.get("ratelimit-policy")).toBe("20;w=60")
    // The heavy requests counted against the general limit too: 300 - 20 left.
    const general = await fetch(`${a?.url}/api/templates`, { headers: { "x-api-key": key.key } })
    expect(general.headers.get("ratelimit-remaining")).toBe("279")
  })

  it("describes the limit on every counted response and says when to retry on a 429", async () => {
    const [gw] = await instances(1, { rateLimits: { generalPerWindow: 2 } })
    const first = await fetch(`${gw?.url}/api/templates`, { headers: { "x-api-key": key.key } })
    expect(first.headers.get("ratelimit-limit")).toBe("2")
    expect(first.headers.get("ratelimit-remaining")).toBe("1")
    expect(Number(first.headers.get("ratelimit-reset"))).toBeGreaterThanOrEqual(59)
    expect(Number(first.headers.get("ratelimit-reset"))).toBeLessThanOrEqual(60)
    expect(first.headers.get("ratelimit-policy")).toBe("2;w=60")
    await fetch(`${gw?.url}/api/templates`, { headers: { "x-api-key": key.key } })
    const refused = await fetch(`${gw?.url}/api/templates`, { headers: { "x-api-key": key.key } })
    expect(refused.status).toBe(429)
    expect(await refused.json()).toEqual({ error: "Too many requests, slow down", code: "rate_limited" })
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)
    expect(refused.headers.get("ratelimit-remaining")).toBe("0")
  })

  it("counts the private API per organization and the widget surface per key and client IP", async () => {
    const [gw] = await instances(1, { rateLimits: { generalPerWindow: 2 } })
    const widget = await createKey(setupGateway.url, org, { scopes: ["chat:write"] })
    const session = { cookie: org.cookie }
    expect((await fetch(`${gw?.url}/api/templates`, { headers: session })).status).toBe(200)
    expect((await fetch(`${gw?.url}/api/templates`, { headers: { "x-api-key": key.key } })).status).toBe(200)
    // The session and the key share their organization's budget.
    expect((await fetch(`${gw?.url}/api/templates`, { headers: session })).status).toBe(429)
    const chat = () =>
      fetch(`${gw?.url}/api/public/chat`, {
        method: "POST",
        headers: { "x-api-key": widget.key, "content-type": "application/json" },
        body: '{"message":"hi"}',
      })
    expect((await chat()).status).toBe(200)
    expect((await chat()).status).toBe(200)
    expect((await chat()).status).toBe(429)
  })

  it.each([
    ["POST /api/media", "/api/media", "image/png", new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])],
    ["POST /api/contacts/import", "/api/contacts/import", "text/csv", "phone,name\n14155550100,Ada\n"],
  ])("counts %s against the heavy limit and the general one", async (_, path, contentType, body) => {
    const [gw] = await instances(1, { rateLimits: { generalPerWindow: 5, heavyPerWindow: 3 } })
    const upload = () =>
      fetch(`${gw?.url}${path}`, {
        method: "POST",
        headers: { "x-api-key": key.key, "content-type": contentType },
        body,
      })
    for (const remaining of ["2", "1", "0"]) {
      const passed = await upload()
      expect(passed.status).toBe(200)
      expect(passed.headers.get("ratelimit-limit")).toBe("3")
      expect(passed.headers.get("ratelimit-remaining")).toBe(remaining)
      expect(passed.headers.get("ratelimit-policy")).toBe("3;w=60")
    }
    const refused = await upload()
    expect(refused.status).toBe(429)
    expect(await refused.json()).toEqual({ error: "Too many requests, slow down", code: "rate_limited" })
    expect(refused.headers.get("ratelimit-limit")).toBe("3")
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)
    // The three that passed took three of the organization's five general requests (the refused
    // one took none): one light request is left after this one.
    const light = await fetch(`${gw?.url}/api/templates`, { headers: { "x-api-key": key.key } })
    expect(light.status).toBe(200)
    expect(light.headers.get("ratelimit-limit")).toBe("5")
    expect(light.headers.get("ratelimit-remaining")).toBe("1")
  })

  it("gives one widget key a budget per client IP behind a trusted proxy, and the private API one per organization", async () => {
    const [gw] = await instances(1, { trustedProxies: ["127.0.0.1"], rateLimits: { generalPerWindow: 2 } })
    const widget = await createKey(setupGateway.url, org, { scopes: ["chat:write"] })
    const chat = (clientIp: string) =>
      fetch(`${gw?.url}/api/public/chat`, {
        method: "POST",
        headers: { "x-api-key": widget.key, "content-type": "application/json", "x-forwarded-for": clientIp },
        body: '{"message":"hi"}',
      })
    const statusesOf = async (calls: ReadonlyArray<() => Promise<Response>>) => {
      const answers: Array<number> = []
      for (const call of calls) answers.push((await call()).status)
      return answers
    }
    expect(await statusesOf([() => chat("203.0.113.1"), () => chat("203.0.113.1"), () => chat("203.0.113.1")])).toEqual(
      [200, 200, 429],
    )
    // The same key from another visitor starts with a budget of its own.
    const other = await chat("203.0.113.2")
    expect(other.status).toBe(200)
    expect(other.headers.get("ratelimit-remaining")).toBe("1")
    expect((await chat("203.0.113.2")).status).toBe(200)
    expect((await chat("203.0.113.2")).status).toBe(429)

    // The private API counts the organization, whichever address its calls come from.
    const templates = (clientIp: string) =>
      fetch(`${gw?.url}/api/templates`, { headers: { "x-api-key": key.key, "x-forwarded-for": clientIp } })
    expect(
      await statusesOf([
        () => templates("198.51.100.1"),
        () => templates("198.51.100.2"),
        () => templates("198.51.100.3"),
      ]),
    ).toEqual([200, 200, 429])
  })

  it("ignores X-Forwarded-For unless told to trust a proxy", async () => {
    const [gw] = await instances(1, { rateLimits: { generalPerWindow: 2 } })
    const widget = await createKey(setupGateway.url, org, { scopes: ["chat:write"] })
    const chat = (clientIp: string) =>
      fetch(`${gw?.url}/api/public/chat`, {
        method: "POST",
        headers: { "x-api-key": widget.key, "content-type": "application/json", "x-forwarded-for": clientIp },
        body: '{"message":"hi"}',
      })
    expect((await chat("203.0.113.1")).status).toBe(200)
    expect((await chat("203.0.113.2")).status).toBe(200)
    // A client cannot mint itself fresh budgets by sending a header: both came from loopback.
    expect((await chat("203.0.113.3")).status).toBe(429)
  })

  describe("behind trusted proxies (PARLEY_GATEWAY_TRUSTED_PROXIES)", () => {
    // The anonymous bucket: a refused key (or a login) is counted per client address.
    const badKey = (url: string | undefined, forwardedFor: string) =>
      fetch(`${url}/api/org/webhooks`, {
        headers: { "x-api-key": "parley_notarealkey0.x", "x-forwarded-for": forwardedFor },
      }).then((answer) => answer.status)

    it("gives two clients behind a trusted proxy a bucket each", async () => {
      // The test's loopback connection is the ingress: in the list, so its X-Forwarded-For is believed.
      const [gw] = await instances(1, {
        trustedProxies: ["10.0.0.0/8", "127.0.0.1"],
        rateLimits: { generalPerWindow: 2 },
      })
      const one = "203.0.113.10"
      const two = "203.0.113.20"
      expect([await badKey(gw?.url, one), await badKey(gw?.url, one), await badKey(gw?.url, one)]).toEqual([
        401, 401, 429,
      ])
      // One client sending bad keys does not take the other's budget (login and all).
      expect([await badKey(gw?.url, two), await badKey(gw?.url, two), await badKey(gw?.url, two)]).toEqual([
        401, 401, 429,
      ])
    })

    it("counts the address the trusted proxy saw, not one the client wrote in front of it", async () => {
      const [gw] = await instances(1, { trustedProxies: ["127.0.0.1"], rateLimits: { generalPerWindow: 2 } })
      // The client sent `X-Forwarded-For: <anything>`; the ingress appended the address it saw.
      const answers = [
        await badKey(gw?.url, "198.51.100.1, 203.0.113.30"),
        await badKey(gw?.url, "198.51.100.2, 203.0.113.30"),
        await badKey(gw?.url, "198.51.100.3, 203.0.113.30"),
      ]
      expect(answers).toEqual([401, 401, 429])
      // The access line names the same client: the address the trusted proxy saw.
      expect(await clientIpsLogged(gw?.logs ?? [], 3)).toEqual(["203.0.113.30", "203.0.113.30", "203.0.113.30"])
    })

    it("ignores X-Forwarded-For from a peer that is not a trusted proxy", async () => {
      // Only 10.0.0.0/8 is trusted; the test connects from loopback, as a client straight to the gateway.
      const [gw] = await instances(1, { trustedProxies: ["10.0.0.0/8"], rateLimits: { generalPerWindow: 2 } })
      const answers = [
        await badKey(gw?.url, "203.0.113.40"),
        await badKey(gw?.url, "203.0.113.41"),
        await badKey(gw?.url, "203.0.113.42"),
      ]
      // A spoofed header mints no fresh budget: all three came from one peer.
      expect(answers).toEqual([401, 401, 429])
      // Nor does it reach the access log: the line names the peer.
      const logged = await clientIpsLogged(gw?.logs ?? [], 3)
      expect(logged).toHaveLength(3)
      for (const ip of logged) expect(ip).toMatch(/^(?:::ffff:)?127\.0\.0\.1$/)
    })
  })

  it("counts unauthenticated requests per client IP, refused credentials included", async () => {
    const [gw] = await instances(1, { rateLimits: { generalPerWindow: 3 } })
    const answers: Array<number> = []
    for (let i = 0; i < 4; i++) answers.push((await fetch(`${gw?.url}/api/org/webhooks`)).status)
    expect(answers).toEqual([401, 401, 401, 429])
    // A valid key is counted under its organization, not the IP.
    expect((await fetch(`${gw?.url}/api/templates`, { headers: { "x-api-key": key.key } })).status).toBe(200)
  })

  it("counts a widget request whose body is refused against the client IP, with the RateLimit headers", async () => {
    const [gw] = await instances(1, { rateLimits: { generalPerWindow: 3 } })
    const bad = () =>
      fetch(`${gw?.url}/api/public/chat`, {
        method: "POST",
        headers: { "x-api-key": key.key, "content-type": "application/json" },
        body: "{not json",
      })
    const first = await bad()
    expect(first.status).toBe(400)
    expect(first.headers.get("ratelimit-limit")).toBe("3")
    expect(first.headers.get("ratelimit-remaining")).toBe("2")
    const wrongType = await fetch(`${gw?.url}/api/public/chat`, {
      method: "POST",
      headers: { "x-api-key": key.key, "content-type": "text/plain" },
      body: "hello",
    })
    expect(wrongType.status).toBe(415)
    expect(wrongType.headers.get("ratelimit-remaining")).toBe("1")
    expect((await bad()).status).toBe(400)
    const refused = await bad()
    expect(refused.status).toBe(429)
    expect(await refused.json()).toEqual({ error: "Too many requests, slow down", code: "rate_limited" })
    // The key's organization keeps its own budget on the private API.
    expect((await fetch(`${gw?.url}/api/templates`, { headers: { "x-api-key": key.key } })).status).toBe(200)
  })

  it("counts the API docs per client IP, with the RateLimit headers", async () => {
    const [gw] = await instances(1, { rateLimits: { generalPerWindow: 3 } })
    const page = await fetch(`${gw?.url}/docs`)
    expect(page.status).toBe(200)
    expect(page.headers.get("ratelimit-limit")).toBe("3")
    expect(page.headers.get("ratelimit-remaining")).toBe("2")
    expect(page.headers.get("ratelimit-policy")).toBe("3;w=60")
    expect(Number(page.headers.get("ratelimit-reset"))).toBeGreaterThanOrEqual(59)
    const document = await fetch(`${gw?.url}/docs/openapi.json`)
    expect(document.status).toBe(200)
    expect(document.headers.get("ratelimit-remaining")).toBe("1")
    // The docs share the client IP's budget with its other unauthenticated requests.
    expect((await fetch(`${gw?.url}/api/org/webhooks`)).status).toBe(401)
    const refused = await fetch(`${gw?.url}/docs/openapi.json`)
    expect(refused.status).toBe(429)
    expect(await refused.json()).toEqual({ error: "Too many requests, slow down", code: "rate_limited" })
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)
    expect((await fetch(`${gw?.url}/docs`)).status).toBe(429)
    // A key's organization has a budget of its own.
    expect((await fetch(`${gw?.url}/api/templates`, { headers: { "x-api-key": key.key } })).status).toBe(200)
  })

  it("counts the widget's files per client IP, like every unauthenticated request", async () => {
    const widgetDir = await mkdtemp(join(tmpdir(), "parley-widget-build-"))
    await mkdir(join(widgetDir, "widget"))
    await writeFile(join(widgetDir, "widget.js"), "(function(){})()\n")
    await writeFile(join(widgetDir, "widget", "panel-AbC123.js"), "export const mount = () => 1\n")
    const [gw] = await instances(1, { rateLimits: { generalPerWindow: 2 }, widgetDir })
    const loader = await fetch(`${gw?.url}/widget.js`)
    expect(loader.status).toBe(200)
    expect(loader.headers.get("ratelimit-remaining")).toBe("1")
    expect((await fetch(`${gw?.url}/widget/panel-AbC123.js`)).status).toBe(200)
    const refused = await fetch(`${gw?.url}/widget.js`)
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)
    await rm(widgetDir, { recursive: true, force: true })
  })

  it("does not count health probes or provider callbacks", async () => {
    const [gw] = await instances(1, { rateLimits: { generalPerWindow: 1 } })
    for (let i = 0; i < 3; i++) {
      const health = await fetch(`${gw?.url}/health/live`)
      expect(health.status).toBe(200)
      expect(health.headers.get("ratelimit-limit")).toBeNull()
      expect((await fetch(`${gw?.url}/channels/bridge/inbound`, { method: "POST" })).status).toBe(200)
    }
  })
})

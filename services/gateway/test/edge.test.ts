/**
 * The edge's answers to bad input and missing services (docs/contract.md §1, §8, §11): JSON errors with
 * the contract's codes, a request id on every response, never a 500 for a client's mistake.
 */
import { request as httpRequest } from "node:http"
import { Readable } from "node:stream"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type CreatedKey,
  createKey,
  createOrganization,
  type RunningGateway,
  startSystem,
  type TestSystem,
} from "./system.ts"

let system: TestSystem
let gw: RunningGateway
let key: CreatedKey

beforeAll(async () => {
  system = await startSystem()
  gw = await system.startGateway()
  key = await createKey(gw.url, await createOrganization(gw.url))
})
afterAll(async () => system?.close())

const keyed = (extra: Record<string, string> = {}) => ({ "x-api-key": key.key, ...extra })

describe("answers at the edge", () => {
  it("answers an unknown route with a JSON 404 and a request id", async () => {
    for (const path of ["/nope", "/api/nothing-here", "/api/public/chat%2F..%2Fx"]) {
      const response = await fetch(`${gw.url}${path}`, { headers: keyed() })
      expect(response.status, path).toBe(404)
      expect(await response.json()).toEqual({ error: "Not found", code: "not_found" })
      expect(response.headers.get("x-request-id")).toMatch(/^req_/)
    }
  })

  it("refuses a path with dot segments instead of reading it differently from the service", async () => {
    // fetch would normalise these paths; a raw request sends them as written.
    for (const path of ["/api/public/../org/api-keys", "/api/public/%2e%2e/org/api-keys"]) {
      const status = await new Promise<number>((resolve, reject) => {
        const url = new URL(gw.url)
        httpRequest({ host: url.hostname, port: url.port, path, headers: keyed() }, (response) => {
          response.resume()
          resolve(response.statusCode ?? 0)
        })
          .on("error", reject)
          .end()
      })
      expect(status, path).toBe(404)
    }
  })

  it("echoes the caller's request id and passes it to the service", async () => {
    const response = await fetch(`${gw.url}/api/templates`, { headers: keyed({ "x-request-id": "trace-42" }) })
    expect(response.headers.get("x-request-id")).toBe("trace-42")
    expect(system.upstream.requests.at(-1)?.headers["x-request-id"]).toBe("trace-42")
  })

  it("forwards method, path, query and body bytes unchanged, and the service's answer back", async () => {
    system.upstream.setHandler(() => ({
      status: 201,
      headers: { "content-type": "application/json", "x-upstream": "yes" },
      body: { created: true },
    }))
    try {
      const body = '{"to":"14155550100",  "text":"héllo"}'
      const response = await fetch(`${gw.url}/api/messages?dry=1&b=%20x`, {
        method: "POST",
        headers: keyed({ "content-type": "application/json; charset=utf-8" }),
        body,
      })
      expect(response.status).toBe(201)
      expect(response.headers.get("x-upstream")).toBe("yes")
      expect(await response.json()).toEqual({ created: true })
      const forwarded = system.upstream.requests.at(-1)
      expect(forwarded?.method).toBe("POST")
      expect(forwarded?.url).toBe("/api/messages?dry=1&b=%20x")
      expect(forwarded?.text()).toBe(body)
      expect(forwarded?.headers["x-api-key"]).toBeUndefined()
    } finally {
      system.upstream.setHandler(() => ({ status: 200, body: { ok: true } }))
    }
  })

  it("refuses malformed JSON with 400", async () => {
    const response = await fetch(`${gw.url}/api/messages`, {
      method: "POST",
      headers: keyed({ "content-type": "application/json" }),
      body: '{"to": ',
    })
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({
      code: "invalid_request",
      error: "Invalid request: malformed JSON body",
    })
  })

  it("refuses a body of the wrong type with 415", async () => {
    const cases: Array<[string, string]> = [
      ["/api/messages", "text/plain"],
      ["/api/media", "application/json"],
      ["/api/contacts/import", "application/json"],
    ]
    for (const [path, type] of cases) {
      const response = await fetch(`${gw.url}${path}`, {
        method: "POST",
        headers: keyed({ "content-type": type }),
        body: "x",
      })
      expect(response.status, path).toBe(415)
      expect(await response.json()).toEqual({ error: "Unsupported media type", code: "unsupported_media_type" })
    }
  })

  it("refuses bodies over each route's limit with 413", async () => {
    const json = await fetch(`${gw.url}/api/messages`, {
      method: "POST",
      headers: keyed({ "content-type": "application/json" }),
      body: JSON.stringify({ text: "x".repeat(1024 * 1024) }),
    })
    expect(json.status).toBe(413)
    expect(await json.json()).toEqual({ error: "Payload too large", code: "payload_too_large" })
    const declared = await fetch(`${gw.url}/api/contacts/import`, {
      method: "POST",
      headers: keyed({ "content-type": "text/csv" }),
      body: Buffer.alloc(10 * 1024 * 1024 + 1, 97),
    })
    expect(declared.status).toBe(413)
  })

  it("streams uploads within the limit and refuses a chunked one that runs over", async () => {
    const image = Buffer.alloc(3 * 1024 * 1024, 7)
    const ok = await fetch(`${gw.url}/api/media`, {
      method: "POST",
      headers: keyed({ "content-type": "image/png" }),
      body: image,
    })
    expect(ok.status).toBe(200)
    expect(system.upstream.requests.at(-1)?.body.equals(image)).toBe(true)

    // No Content-Length: the budget is enforced on the stream itself.
    const chunks = Array.from({ length: 17 }, () => Buffer.alloc(1024 * 1024, 1))
    const status = await new Promise<number>((resolve, reject) => {
      const url = new URL(`${gw.url}/api/media`)
      const request = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: "POST",
          headers: keyed({ "content-type": "video/mp4" }),
        },
        (response) => {
          response.resume()
          resolve(response.statusCode ?? 0)
        },
      )
      request.on("error", reject)
      Readable.from(chunks).pipe(request)
    })
    expect(status).toBe(413)
  })

  it("answers 503 with Retry-After when the owning service is down", async () => {
    const lonely = await system.startGateway({
      services: {
        identity: system.identityUrl,
        webhookRegistry: "http://127.0.0.1:9",
        assistant: "http://127.0.0.1:9",
        messaging: "http://127.0.0.1:9",
      },
    })
    const response = await fetch(`${lonely.url}/api/templates`, { headers: keyed() })
    expect(response.status).toBe(503)
    expect(response.headers.get("retry-after")).toMatch(/^[1-9]\d*$/)
    expect(await response.json()).toEqual({ error: "Service temporarily unavailable", code: "unavailable" })
  })

  it("answers 503, not 401, when identity cannot be asked", async () => {
    const blind = await system.startGateway({
      services: {
        identity: "http://127.0.0.1:9",
        webhookRegistry: system.upstream.url,
        assistant: system.upstream.url,
        messaging: system.upstream.url,
      },
    })
    const response = await fetch(`${blind.url}/api/templates`, { headers: keyed() })
    expect(response.status).toBe(503)
    expect(response.headers.get("retry-after")).not.toBeNull()
    const ready = await fetch(`${blind.metricsUrl}/health/ready`)
    expect(ready.status).toBe(503)
  })
})

describe("the widget surface's CORS", () => {
  it("answers preflights from any origin, allowing the key headers", async () => {
    const response = await fetch(`${gw.url}/api/public/chat`, {
      method: "OPTIONS",
      headers: {
        origin: "https://anywhere.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "x-api-key, content-type",
      },
    })
    expect(response.status).toBe(204)
    expect(response.headers.get("access-control-allow-origin")).toBe("https://anywhere.example")
    expect(response.headers.get("access-control-allow-headers")).toBe("X-API-Key, Authorization, Content-Type")
    expect(response.headers.get("access-control-allow-methods")).toContain("POST")
  })

  it("lets the browser read errors and limits of actual requests", async () => {
    const response = await fetch(`${gw.url}/api/public/chat`, {
      method: "POST",
      headers: { origin: "https://site.example", "content-type": "application/json" },
      body: "{}",
    })
    expect(response.status).toBe(401)
    expect(response.headers.get("access-control-allow-origin")).toBe("https://site.example")
    expect(response.headers.get("access-control-expose-headers")).toContain("RateLimit-Remaining")
  })
})

describe("operations", () => {
  it("serves health on the public port and metrics only on the internal one", async () => {
    expect((await fetch(`${gw.url}/health/live`)).status).toBe(200)
    const ready = await fetch(`${gw.url}/health/ready`)
    expect(ready.status).toBe(200)
    expect(await ready.json()).toMatchObject({ checks: { identity: "ok" } })
    expect((await fetch(`${gw.url}/metrics`)).status).toBe(404)
    const metrics = await fetch(`${gw.metricsUrl}/metrics`)
    expect(metrics.status).toBe(200)
    const text = await metrics.text()
    expect(text).toContain("parley_gateway_key_cache_lookups_total")
    expect(text).toContain("parley_gateway_rate_limiter_fallback")
  })

  it("forwards provider callbacks untouched, unauthenticated and uncounted", async () => {
    const raw = '{"object":"whatsapp_business_account" ,"entry":[]}'
    const response = await fetch(`${gw.url}/channels/cloud/webhook`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-hub-signature-256": "sha256=abc" },
      body: raw,
    })
    expect(response.status).toBe(200)
    expect(response.headers.get("ratelimit-limit")).toBeNull()
    const forwarded = system.upstream.requests.at(-1)
    expect(forwarded?.text()).toBe(raw)
    expect(forwarded?.headers["x-hub-signature-256"]).toBe("sha256=abc")
    const verify = await fetch(`${gw.url}/channels/cloud/webhook?hub.mode=subscribe&hub.challenge=c`)
    expect(verify.status).toBe(200)
    expect(system.upstream.requests.at(-1)?.url).toBe("/channels/cloud/webhook?hub.mode=subscribe&hub.challenge=c")
  })
})

describe("the API's documentation", () => {
  it("serves the OpenAPI document and a page without a credential", async () => {
    const json = await fetch(`${gw.url}/docs/openapi.json`)
    expect(json.status).toBe(200)
    // Counted per client IP like any unauthenticated request (test/rate-limits.test.ts).
    expect(json.headers.get("ratelimit-limit")).not.toBeNull()
    expect(((await json.json()) as { openapi: string }).openapi).toBe("3.1.0")
    const page = await fetch(`${gw.url}/docs`)
    expect(page.status).toBe(200)
    expect(page.headers.get("content-type")).toContain("text/html")
    expect(await page.text()).toContain("/api/public/chat")
  })
})

describe("malformed requests", () => {
  it("answer with a 4xx, never a 500", async () => {
    const json = { "content-type": "application/json" }
    const cases: Array<[string, RequestInit]> = [
      ["/api/templates%zz", { headers: keyed() }],
      ["/api/public/chat/%E0%A4%A", { headers: keyed() }],
      ["/api/public/chat", { method: "POST", headers: json, body: '{"apiKey":{"nested":true},"message":"x"}' }],
      ["/api/public/chat", { method: "POST", headers: json, body: '[{"apiKey":"x"}]' }],
      ["/api/public/chat?apiKey=%zz", { method: "POST", headers: json, body: "{}" }],
      ["/api/public/chat", { method: "POST", headers: { ...json, authorization: "Bearer" }, body: "{}" }],
      ["/api/messages", { method: "POST", headers: keyed(json), body: '{"__proto__":{"admin":true}}' }],
      [
        "/api/messages",
        { method: "POST", headers: keyed({ "content-type": "application/json" }), body: "\u0000\u0001" },
      ],
      ["/api/messages", { method: "POST", headers: keyed({ "content-type": "" }), body: "{}" }],
      ["/api/templates", { headers: { cookie: "parley_session=; parley_session" } }],
      ["/api/templates", { headers: { "x-api-key": "parley_" } }],
      ["/api/templates", { headers: { "x-api-key": `${key.key}, ${key.key}` } }],
      ["/api/media", { method: "POST", headers: keyed({ "content-type": "image/" }), body: "x" }],
    ]
    for (const [path, init] of cases) {
      const response = await fetch(`${gw.url}${path}`, init)
      expect(response.status, `${init.method ?? "GET"} ${path}`).toBeGreaterThanOrEqual(400)
      expect(response.status, `${init.method ?? "GET"} ${path}`).toBeLessThan(500)
      expect(response.headers.get("x-request-id"), path).not.toBeNull()
      const body = (await response.json()) as { code: string; error: string }
      expect(typeof body.code, path).toBe("string")
      expect(typeof body.error, path).toBe("string")
    }
  })

  it("refuse a login posted from a foreign origin (login CSRF)", async () => {
    const response = await fetch(`${gw.url}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: "https://evil.example" },
      body: JSON.stringify({ email: "a@example.com", password: "whatever-password" }),
    })
    expect(response.status).toBe(403)
    expect(await response.json()).toEqual({ error: "Origin not allowed for this API key", code: "origin_not_allowed" })
  })
})

describe("NUL characters", () => {
  it("are refused with 400 in JSON bodies and CSV uploads, before any service sees them", async () => {
    const before = system.upstream.requests.length
    const json = await fetch(`${gw.url}/api/messages`, {
      method: "POST",
      headers: keyed({ "content-type": "application/json" }),
      body: '{"to":"14155550100","text":"a\\u0000b"}',
    })
    expect(json.status).toBe(400)
    expect(await json.json()).toEqual({
      error: "Invalid request: text must not contain NUL characters",
      code: "invalid_request",
    })
    const csv = await fetch(`${gw.url}/api/contacts/import`, {
      method: "POST",
      headers: keyed({ "content-type": "text/csv" }),
      body: "phone,name\n14155550100,a\u0000b\n",
    })
    expect(csv.status).toBe(400)
    expect(system.upstream.requests.length).toBe(before)
    // An escaped backslash followed by "u0000" is text, not a NUL.
    const text = await fetch(`${gw.url}/api/messages`, {
      method: "POST",
      headers: keyed({ "content-type": "application/json" }),
      body: '{"text":"C:\\\\u0000"}',
    })
    expect(text.status).toBe(200)
  })
})

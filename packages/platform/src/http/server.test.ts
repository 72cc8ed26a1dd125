import { Writable } from "node:stream"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { conflict, unavailable } from "../errors.ts"
import { makeLogger } from "../logger.ts"
import { makeServiceMetrics } from "../metrics.ts"
import { makeHttpServer, makeMetricsServer } from "./server.ts"

const lines: Array<string> = []
const logger = makeLogger({
  service: "test",
  level: "info",
  destination: new Writable({
    write(chunk, _encoding, callback) {
      lines.push(String(chunk))
      callback()
    },
  }),
})

let ready = true
let cacheUp = true
const app = makeHttpServer({
  service: "test",
  logger,
  bodyLimit: 1024,
  metrics: makeServiceMetrics("test", { defaultMetrics: false }),
  readiness: [
    { name: "flag", check: () => (ready ? undefined : Promise.reject(new Error("down"))) },
    { name: "slow", check: () => new Promise((resolve) => setTimeout(resolve, ready ? 0 : 10_000)), timeoutMs: 100 },
    { name: "cache", optional: true, check: () => (cacheUp ? undefined : Promise.reject(new Error("down"))) },
  ],
})
app.post("/echo", async (request) => ({ body: request.body }))
app.get("/cached", async (_request, reply) => reply.header("cache-control", "public, max-age=60").send({ ok: true }))
app.post("/small", { bodyLimit: 16 }, async (request) => ({ body: request.body }))
app.post("/signed", { config: { rawBody: true } }, async (request) => ({
  raw: request.rawBody?.toString("utf8"),
  parsed: request.body,
}))
app.post("/signed-unparsed", { config: { rawBody: { json: "raw" } } }, async (request) => ({
  isBuffer: Buffer.isBuffer(request.body),
  raw: request.rawBody?.toString("utf8"),
}))
app.post("/import", { config: { rawBody: { mediaTypes: ["text/csv"] } } }, async (request) => ({
  text: (request.body as Buffer).toString("utf8"),
}))
app.post("/media", { bodyLimit: 64, config: { rawBody: { mediaTypes: ["image/*"] } } }, async (request) => ({
  size: (request.body as Buffer).length,
}))
app.get("/boom", async () => {
  throw new Error("database password=hunter2 at 10.0.0.3")
})
app.get("/conflict", async () => {
  throw conflict("Slot is full")
})
app.get("/unavailable", async () => {
  throw unavailable(7)
})
app.get(
  "/schema/:id",
  { schema: { params: { type: "object", properties: { id: { type: "integer" } } } } },
  async () => ({
    ok: true,
  }),
)

beforeAll(() => app.ready())
afterAll(() => app.close())

const post = (url: string, payload: string | Buffer, contentType?: string) =>
  app.inject({
    method: "POST",
    url,
    payload,
    headers: contentType === undefined ? {} : { "content-type": contentType },
  })

describe("makeHttpServer", () => {
  it("parses a JSON body and answers JSON", async () => {
    const res = await post("/echo", JSON.stringify({ a: [1, 2] }), "application/json; charset=utf-8")
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ body: { a: [1, 2] } })
  })

  it("answers a malformed JSON body with 400 invalid_request", async () => {
    const res = await post("/echo", '{"a":', "application/json")
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ error: "Invalid request: malformed JSON body", code: "invalid_request" })
  })

  it("refuses a JSON body that tries to set __proto__", async () => {
    const res = await post("/echo", '{"__proto__":{"admin":true}}', "application/json")
    expect(res.statusCode).toBe(400)
    expect(res.json().code).toBe("invalid_request")
  })

  it("refuses a JSON body carrying an unpaired surrogate, in a value or a key, but keeps paired ones", async () => {
    for (const body of ['{"name":"\\ud800"}', '{"a":{"b":["x\\uDC00y"]}}', '{"\\ud83d":1}']) {
      const res = await post("/echo", body, "application/json")
      expect(res.statusCode, body).toBe(400)
      expect(res.json()).toEqual({ error: "Invalid request: malformed JSON body", code: "invalid_request" })
    }
    const emoji = await post("/echo", '{"name":"\\ud83d\\ude00"}', "application/json")
    expect(emoji.statusCode).toBe(200)
    expect(emoji.json()).toEqual({ body: { name: "😀" } })
  })

  it("answers another content type on a JSON route with 415", async () => {
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "text/csv"]) {
      const res = await post("/echo", "a=1", type)
      expect(res.statusCode).toBe(415)
      expect(res.json()).toEqual({ error: "Unsupported media type", code: "unsupported_media_type" })
    }
  })

  it("answers a body without a content type on a JSON route with 415", async () => {
    const res = await app.inject({ method: "POST", url: "/echo", payload: "hello", headers: { "content-type": "" } })
    expect(res.statusCode).toBe(415)
  })

  it("answers a body over the server limit with 413", async () => {
    const res = await post("/echo", JSON.stringify({ a: "x".repeat(2000) }), "application/json")
    expect(res.statusCode).toBe(413)
    expect(res.json()).toEqual({ error: "Payload too large", code: "payload_too_large" })
    expect(res.headers["x-request-id"]).toBeTruthy()
  })

  it("applies a route's own body limit", async () => {
    expect((await post("/small", JSON.stringify({ a: 1 }), "application/json")).statusCode).toBe(200)
    expect((await post("/small", JSON.stringify({ a: "0123456789abcdef" }), "application/json")).statusCode).toBe(413)
  })

  it("keeps the exact bytes of a JSON body for routes that ask", async () => {
    const bytes = '{ "b" : 1,\n "a": [ ] }'
    const res = await post("/signed", bytes, "application/json")
    expect(res.json()).toEqual({ raw: bytes, parsed: { b: 1, a: [] } })
  })

  it("does not parse the JSON of a route that wants the raw bytes only", async () => {
    const res = await post("/signed-unparsed", "{not json", "application/json")
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ isBuffer: true, raw: "{not json" })
  })

  it("accepts a route's declared raw media types and refuses others", async () => {
    const csv = "phone,name\n14155550100,Dana\n"
    expect((await post("/import", csv, "text/csv; charset=utf-8")).json()).toEqual({ text: csv })
    expect((await post("/import", csv, "text/plain")).statusCode).toBe(415)
    expect((await post("/media", Buffer.alloc(10), "image/png")).json()).toEqual({ size: 10 })
    expect((await post("/media", Buffer.alloc(10), "application/pdf")).statusCode).toBe(415)
    expect((await post("/media", Buffer.alloc(100), "image/png")).statusCode).toBe(413)
    expect((await post("/media", "{}", "application/json")).statusCode).toBe(415)
  })

  it("answers an unknown route with a JSON 404 carrying a request id", async () => {
    const res = await app.inject({ method: "GET", url: "/nope" })
    expect(res.statusCode).toBe(404)
    expect(res.json()).toEqual({ error: "Not found", code: "not_found" })
    expect(res.headers["x-request-id"]).toMatch(/^req_[0-9A-Za-z]{22}$/)
  })

  it("answers an unexpected failure with 500 Internal error, logging the cause with the request id", async () => {
    const res = await app.inject({ method: "GET", url: "/boom", headers: { "x-request-id": "trace-500" } })
    expect(res.statusCode).toBe(500)
    expect(res.json()).toEqual({ error: "Internal error", code: "internal" })
    expect(res.body).not.toContain("hunter2")
    expect(res.headers["x-request-id"]).toBe("trace-500")
    const logged = lines.map((line) => JSON.parse(line)).find((entry) => entry.msg === "request failed")
    expect(logged?.requestId).toBe("trace-500")
    expect(logged?.err?.message).toContain("database")
  })

  it("answers an ApiError with its status and body, and Retry-After on 503", async () => {
    const res = await app.inject({ method: "GET", url: "/conflict" })
    expect(res.statusCode).toBe(409)
    expect(res.json()).toEqual({ error: "Slot is full", code: "conflict" })
    const down = await app.inject({ method: "GET", url: "/unavailable" })
    expect(down.statusCode).toBe(503)
    expect(down.headers["retry-after"]).toBe("7")
    expect(down.json()).toEqual({ error: "Service temporarily unavailable", code: "unavailable" })
  })

  it("maps Fastify schema validation failures to 400 invalid_request with issues", async () => {
    const res = await app.inject({ method: "GET", url: "/schema/abc" })
    expect(res.statusCode).toBe(400)
    expect(res.json().code).toBe("invalid_request")
    expect(res.json().issues[0].path).toBe("id")
  })

  it("answers a malformed URL with a contract 400", async () => {
    const res = await app.inject({ method: "GET", url: "/schema/%E0%A4%A" })
    expect(res.statusCode).toBe(400)
    expect(res.json().code).toBe("invalid_request")
    expect(res.headers["x-request-id"]).toBeTruthy()
  })

  it("echoes an acceptable X-Request-Id and replaces an unacceptable one", async () => {
    const echoed = await app.inject({ method: "GET", url: "/health/live", headers: { "x-request-id": "abc-123.x:y" } })
    expect(echoed.headers["x-request-id"]).toBe("abc-123.x:y")
    const replaced = await app.inject({
      method: "GET",
      url: "/health/live",
      headers: { "x-request-id": "bad id\u0000<script>" },
    })
    expect(replaced.headers["x-request-id"]).toMatch(/^req_[0-9A-Za-z]{22}$/)
    const tooLong = await app.inject({
      method: "GET",
      url: "/health/live",
      headers: { "x-request-id": "a".repeat(129) },
    })
    expect(tooLong.headers["x-request-id"]).toMatch(/^req_/)
  })

  it("answers liveness with ok and readiness by running the checks", async () => {
    expect((await app.inject({ method: "GET", url: "/health/live" })).json()).toEqual({ status: "ok" })
    ready = true
    const up = await app.inject({ method: "GET", url: "/health/ready" })
    expect(up.statusCode).toBe(200)
    expect(up.json()).toEqual({ status: "ok", checks: { flag: "ok", slow: "ok", cache: "ok" } })
    ready = false
    const started = Date.now()
    const down = await app.inject({ method: "GET", url: "/health/ready" })
    expect(Date.now() - started).toBeLessThan(2_000)
    expect(down.statusCode).toBe(503)
    expect(down.json()).toMatchObject({ code: "unavailable", checks: { flag: "failed", slow: "timeout" } })
    expect(down.headers["retry-after"]).toBeTruthy()
    ready = true
  })

  it("stays ready without an optional dependency, and says so in the body", async () => {
    cacheUp = false
    const degraded = await app.inject({ method: "GET", url: "/health/ready" })
    expect(degraded.statusCode).toBe(200)
    expect(degraded.json()).toEqual({ status: "ok", checks: { flag: "ok", slow: "ok", cache: "failed" } })
    cacheUp = true
  })

  it("exposes request counts by route template and status on /metrics", async () => {
    await app.inject({ method: "GET", url: "/conflict" })
    const res = await app.inject({ method: "GET", url: "/metrics" })
    expect(res.statusCode).toBe(200)
    expect(res.headers["content-type"]).toContain("text/plain")
    expect(res.body).toMatch(/http_requests_total\{[^}]*route="\/conflict"[^}]*status="409"[^}]*\} \d+/)
    expect(res.body).toMatch(/http_requests_total\{[^}]*route="unmatched"[^}]*status="404"/)
  })
})

describe("hardening headers", () => {
  it("says nosniff and no-store on every answer: success, JSON 404, refused body, framework error, health", async () => {
    const answers = await Promise.all([
      app.inject({ method: "POST", url: "/echo", payload: { a: 1 } }),
      app.inject({ method: "GET", url: "/nowhere" }),
      app.inject({ method: "POST", url: "/echo", headers: { "content-type": "application/json" }, payload: "{" }),
      app.inject({ method: "GET", url: "/%E0%A4%A" }),
      app.inject({ method: "GET", url: "/health/live" }),
    ])
    expect(answers.map((a) => a.statusCode)).toEqual([200, 404, 400, 400, 200])
    for (const answer of answers) {
      expect(answer.headers["x-content-type-options"]).toBe("nosniff")
      expect(answer.headers["cache-control"]).toBe("no-store")
    }
  })

  it("lets a route that caches say so", async () => {
    const cached = await app.inject({ method: "GET", url: "/cached" })
    expect(cached.headers["cache-control"]).toBe("public, max-age=60")
    expect(cached.headers["x-content-type-options"]).toBe("nosniff")
  })
})

describe("metrics on a separate server", () => {
  it("serves /metrics only on the internal server when the public one says exposeMetrics: false", async () => {
    const metrics = makeServiceMetrics("gateway", { defaultMetrics: false })
    const publicServer = makeHttpServer({ service: "gateway", logger, metrics, exposeMetrics: false })
    publicServer.get("/api/x", async () => ({ ok: true }))
    const internalServer = makeMetricsServer({ service: "gateway", logger, metrics })
    try {
      await publicServer.inject({ method: "GET", url: "/api/x" })
      expect((await publicServer.inject({ method: "GET", url: "/metrics" })).statusCode).toBe(404)
      const res = await internalServer.inject({ method: "GET", url: "/metrics" })
      expect(res.statusCode).toBe(200)
      expect(res.body).toMatch(/http_requests_total\{[^}]*route="\/api\/x"[^}]*\} 1/)
      expect((await internalServer.inject({ method: "GET", url: "/health/live" })).statusCode).toBe(200)
    } finally {
      await publicServer.close()
      await internalServer.close()
    }
  })
})

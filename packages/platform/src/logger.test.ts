import { Writable } from "node:stream"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { makeHttpServer } from "./http/server.ts"
import { censorUrl, makeLogger, pinoLoggerLayer } from "./logger.ts"
import { makeServiceMetrics } from "./metrics.ts"

const collect = () => {
  const lines: Array<string> = []
  const destination = new Writable({
    write(chunk, _encoding, callback) {
      lines.push(String(chunk))
      callback()
    },
  })
  return { lines, destination }
}

const apiKey = "parley_AbCdEfGhIjKl.K3yS3cr3tK3yS3cr3tK3yS3cr3tK3yS3cr3tK3yS3cr3tabcdef"
const password = "correct-horse-battery-staple"
const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

describe("makeLogger", () => {
  it("writes JSON lines with level, service and message", () => {
    const { lines, destination } = collect()
    makeLogger({ service: "identity", destination }).info({ keyId: "key_1" }, "key created")
    const entry = JSON.parse(lines[0] as string)
    expect(entry).toMatchObject({ level: "info", service: "identity", msg: "key created", keyId: "key_1" })
    expect(typeof entry.time).toBe("string")
  })

  it("censors secret fields at any depth, credential headers and credential query parameters", () => {
    const { lines, destination } = collect()
    const logger = makeLogger({ service: "test", destination })
    logger.info(
      {
        req: {
          method: "POST",
          url: `/api/public/chat?apiKey=${apiKey}&x=1`,
          headers: { "x-api-key": apiKey, authorization: `Bearer ${apiKey}`, cookie: `parley_session=${secret}` },
        },
        body: { email: "a@b.c", password, webhook: { url: "https://x", secret }, channel: { accessToken: secret } },
        apiKey,
        nested: [{ token: secret, clientSecret: secret, key: apiKey, keyId: "key_visible" }],
      },
      "incoming",
    )
    const line = lines.join("")
    expect(line).not.toContain(apiKey)
    expect(line).not.toContain(password)
    expect(line).not.toContain(secret)
    expect(line).toContain("key_visible")
    expect(line).toContain("a@b.c")
    expect(line).toContain("x=1")
  })

  it("keeps secrets out of the access log of a real request carrying a key, a password and a secret", async () => {
    const { lines, destination } = collect()
    const app = makeHttpServer({
      service: "test",
      logger: makeLogger({ service: "test", destination }),
      metrics: makeServiceMetrics("test", { defaultMetrics: false }),
    })
    app.post("/api/public/login", async (request) => {
      request.log.info({ body: request.body, headers: request.headers }, "handling")
      throw new Error("boom")
    })
    const res = await app
      .inject({
        method: "POST",
        url: `/api/public/login?apiKey=${apiKey}`,
        headers: { "x-api-key": apiKey, "content-type": "application/json" },
        payload: { password, secret },
      })
      .finally(() => app.close())
    expect(res.statusCode).toBe(500)
    const output = lines.join("")
    expect(output).toContain("request completed")
    expect(output).toContain("handling")
    expect(output).not.toContain(apiKey)
    expect(output).not.toContain(password)
    expect(output).not.toContain(secret)
  })

  it("writes no access line for a server whose logger leaves them to a gateway in front, and every other line", async () => {
    const { lines, destination } = collect()
    const app = makeHttpServer({
      service: "behind-the-gateway",
      logger: makeLogger({ service: "behind-the-gateway", destination, accessLog: false }),
      metrics: makeServiceMetrics("behind-the-gateway", { defaultMetrics: false }),
    })
    app.get("/api/thing", async (request) => {
      request.log.info("handling")
      return { ok: true }
    })
    const res = await app.inject({ method: "GET", url: "/api/thing" }).finally(() => app.close())
    expect(res.statusCode).toBe(200)
    expect(lines.map((line) => JSON.parse(line).msg)).toEqual(["handling"])
  })

  it("censors credential query parameters in URLs", () => {
    expect(censorUrl("/x?apiKey=abc&hub.verify_token=t&q=1")).toBe(
      "/x?apiKey=[redacted]&hub.verify_token=[redacted]&q=1",
    )
  })

  it("censors a key however its parameter is spelled, and an API key wherever it is in the URL", () => {
    const key = `parley_${"A".repeat(12)}.${"b".repeat(49)}`
    for (const query of ["apiKey[]", "apiKey%5B%5D", "x=1;apiKey", "%61piKey", "api%4Bey", "APIKEY", "apiKey[0]"]) {
      const censored = censorUrl(`/api/public/chat?date=2026-12-01&${query}=not-key-shaped-s3cret`)
      expect(censored, query).not.toContain("s3cret")
      expect(censored, query).toContain("date=2026-12-01")
    }
    expect(censorUrl(`/api/public/x?q=${key}&page=2`)).toBe("/api/public/x?q=[redacted]&page=2")
    expect(censorUrl(`/p/${key.replace(".", "%2E")}`)).toBe("/p/[redacted]")
    expect(censorUrl("/x?name=apiKey&q=1#apiKey=frag")).toBe("/x?name=apiKey&q=1#apiKey=frag")
  })
})

describe("pinoLoggerLayer", () => {
  it("routes Effect logs, their annotations and causes to pino, respecting its level", () => {
    const { lines, destination } = collect()
    const logger = makeLogger({ service: "test", level: "info", destination })
    Effect.runSync(
      Effect.gen(function* () {
        yield* Effect.logDebug("dropped")
        yield* Effect.logInfo("delivered", { webhookId: "wh_1", secret })
        yield* Effect.logError("failed").pipe(Effect.annotateLogs({ requestId: "r-9" }))
      }).pipe(Effect.provide(pinoLoggerLayer(logger))),
    )
    const entries = lines.map((line) => JSON.parse(line))
    expect(entries.map((e) => e.msg)).toEqual(["delivered", "failed"])
    expect(entries[0]).toMatchObject({ level: "info", webhookId: "wh_1", secret: "[redacted]" })
    expect(entries[1]).toMatchObject({ level: "error", requestId: "r-9" })
  })

  it("renders a Cause given as a field, so a warning says what failed", () => {
    const { lines, destination } = collect()
    const logger = makeLogger({ service: "test", level: "info", destination })
    Effect.runSync(
      Effect.fail(new Error("broker unreachable")).pipe(
        Effect.catchCause((cause) => Effect.logWarning("relay failed; retrying", { schema: "s", cause })),
        Effect.provide(pinoLoggerLayer(logger)),
      ),
    )
    const entry = JSON.parse(lines[0] as string)
    expect(entry).toMatchObject({ level: "warn", schema: "s", msg: "relay failed; retrying" })
    expect(typeof entry.cause).toBe("string")
    expect(entry.cause).toContain("broker unreachable")
  })
})

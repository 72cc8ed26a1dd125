import { Writable } from "node:stream"
import { Agent, request } from "undici"
import { describe, expect, it } from "vitest"
import { makeLogger } from "../logger.ts"
import { makeServiceMetrics } from "../metrics.ts"
import { makeHttpServer } from "./server.ts"

const quietLogger = makeLogger({
  service: "test",
  level: "warn",
  destination: new Writable({ write: (_chunk, _encoding, callback) => callback() }),
})

describe("closing a server", () => {
  it("ends once in-flight answers are sent, even on connections the client keeps alive", async () => {
    const app = makeHttpServer({
      service: "test",
      logger: quietLogger,
      metrics: makeServiceMetrics("test", { defaultMetrics: false }),
    })
    let release = () => {}
    const released = new Promise<void>((resolve) => {
      release = resolve
    })
    let started = () => {}
    const inFlight = new Promise<void>((resolve) => {
      started = resolve
    })
    app.get("/slow", async () => {
      started()
      await released
      return { ok: true }
    })
    const address = await app.listen({ host: "127.0.0.1", port: 0 })
    // A client that would keep the connection for a minute, as undici does after Node's keep-alive hint.
    const client = new Agent({ keepAliveTimeout: 60_000, keepAliveMaxTimeout: 60_000 })
    try {
      const answer = request(`${address}/slow`, { dispatcher: client })
      await inFlight
      const closed = app.close()
      // The answer is still being worked on when the close has begun (no new connections taken).
      await expect.poll(() => app.server.listening, { timeout: 2_000, interval: 10 }).toBe(false)
      release()
      const response = await answer
      expect(response.statusCode).toBe(200)
      expect(response.headers.connection).toBe("close")
      await response.body.json()
      const closedAt = Date.now()
      await closed
      expect(Date.now() - closedAt).toBeLessThan(2_000)
    } finally {
      await client.close()
    }
  })
})

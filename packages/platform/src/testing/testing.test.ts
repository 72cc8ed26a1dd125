import { describe, expect, it } from "vitest"
import { eventually } from "./eventually.ts"
import { startHttpServer } from "./http-server.ts"

describe("eventually", () => {
  it("returns the first value the check produces without throwing", async () => {
    let calls = 0
    const value = await eventually(
      () => {
        calls++
        if (calls < 3) throw new Error("not yet")
        return calls
      },
      { intervalMs: 1 },
    )
    expect(value).toBe(3)
  })

  it("rethrows the last failure after the deadline", async () => {
    const started = Date.now()
    await expect(
      eventually(
        () => {
          throw new Error("never")
        },
        { timeoutMs: 50, intervalMs: 5 },
      ),
    ).rejects.toThrow(/still failing after 50 ms: never/)
    expect(Date.now() - started).toBeGreaterThanOrEqual(50)
  })
})

describe("startHttpServer", () => {
  it("records each request's method, path, headers and exact body bytes, and answers as told", async () => {
    const server = await startHttpServer((request) =>
      request.path === "/fail" ? { status: 503, body: "down" } : { status: 201, body: { ok: true } },
    )
    try {
      const body = '{"event":"lead.created" }'
      const res = await fetch(`${server.url}/hook?x=1`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-service-event": "lead.created" },
        body,
      })
      expect(res.status).toBe(201)
      expect(await res.json()).toEqual({ ok: true })
      expect((await fetch(`${server.url}/fail`)).status).toBe(503)
      expect(server.requests).toHaveLength(2)
      const [first] = server.requests
      expect(first?.method).toBe("POST")
      expect(first?.url).toBe("/hook?x=1")
      expect(first?.path).toBe("/hook")
      expect(first?.headers["x-service-event"]).toBe("lead.created")
      expect(first?.text()).toBe(body)
      expect(first?.json()).toEqual({ event: "lead.created" })
    } finally {
      await server.close()
    }
  })

  it("closes promptly even while a handler hangs", async () => {
    const server = await startHttpServer(() => new Promise(() => {}))
    const pending = fetch(server.url).catch((error: unknown) => error)
    await eventually(() => expect(server.requests).toHaveLength(1))
    await server.close()
    expect(await pending).toBeInstanceOf(Error)
  })
})

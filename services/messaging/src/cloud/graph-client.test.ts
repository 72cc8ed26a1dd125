import { createServer, type IncomingMessage, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { Duration, Effect, Fiber, Redacted } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeGraphClient } from "./graph-client.ts"

// A provider on loopback: answers a send at once, or never (the path says which); it counts the
// calls whose client went away before an answer.
let server: Server
let base: string
const abandoned: Array<string> = []

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res) => {
    if (req.url?.includes("/silent/") === true) {
      res.on("close", () => {
        if (!res.writableEnded) abandoned.push(req.url ?? "")
      })
      return
    }
    res.writeHead(200, { "content-type": "application/json" })
    res.end(JSON.stringify({ messaging_product: "whatsapp", messages: [{ id: "wamid.sent" }] }))
  })
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => {
  server.closeAllConnections()
  return new Promise<void>((done) => server.close(() => done()))
})

const token = Redacted.make("token")
const message = { to: "4915100000001", type: "text", text: "hi" } as const

describe("the provider's client", () => {
  it("answers the provider's message id", async () => {
    const client = makeGraphClient({ baseUrl: base, version: "v21.0" })
    expect(await Effect.runPromise(client.sendMessage("123", token, message))).toEqual({
      _tag: "Accepted",
      value: "wamid.sent",
    })
  })

  it("gives up on a provider that does not answer in time, as a timeout, and closes the call", async () => {
    const client = makeGraphClient({ baseUrl: base, version: "silent", timeoutMs: 150 })
    const started = Date.now()
    expect(await Effect.runPromise(client.sendMessage("timeout", token, message))).toEqual({
      _tag: "Unavailable",
      detail: "timeout",
    })
    expect(Date.now() - started).toBeGreaterThanOrEqual(140)
    await expect.poll(() => abandoned.some((url) => url.includes("/timeout/"))).toBe(true)
  })

  it("abandons the call when its fiber is interrupted, before the timeout", async () => {
    const client = makeGraphClient({ baseUrl: base, version: "silent", timeoutMs: 60_000 })
    const fiber = Effect.runFork(client.sendMessage("interrupted", token, message))
    await Effect.runPromise(Effect.sleep(Duration.millis(100)))
    await Effect.runPromise(Fiber.interrupt(fiber))
    await expect.poll(() => abandoned.some((url) => url.includes("/interrupted/"))).toBe(true)
  })
})

/**
 * The inbox's live stream (`GET /api/conversations/events`, server-sent events) forwarded to a
 * service over HTTP, as a distributed gateway does: more open streams than the service's keep-alive
 * pool has connections, and other calls to that service still answered at once.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
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
let assistant: Server
const open = new Set<import("node:http").ServerResponse>()

beforeAll(async () => {
  system = await startSystem()
  // The assistant: an event stream that stays open, and a plain JSON answer for anything else.
  assistant = createServer((request, response) => {
    if (request.url?.startsWith("/api/conversations/events")) {
      response.writeHead(200, { "content-type": "text/event-stream; charset=utf-8" })
      response.write("retry: 3000\n\n")
      open.add(response)
      response.on("close", () => open.delete(response))
      return
    }
    response.writeHead(200, { "content-type": "application/json" }).end('{"data":[],"nextCursor":null}')
  })
  await new Promise<void>((resolve) => assistant.listen(0, "127.0.0.1", resolve))
  const assistantUrl = `http://127.0.0.1:${(assistant.address() as AddressInfo).port}`
  gw = await system.startGateway({
    services: {
      identity: system.identityUrl,
      webhookRegistry: system.upstream.url,
      assistant: assistantUrl,
      messaging: system.upstream.url,
    },
  })
  key = await createKey(gw.url, await createOrganization(gw.url))
})
afterAll(async () => {
  assistant?.closeAllConnections()
  assistant?.close()
  await system?.close()
})

describe("the inbox's event stream through the gateway", () => {
  it("holds more streams than the service pool's 64 connections, and other calls still pass", async () => {
    const streams = await Promise.all(
      Array.from({ length: 80 }, () =>
        fetch(`${gw.url}/api/conversations/events`, { headers: { "x-api-key": key.key } }),
      ),
    )
    try {
      expect(streams.map((response) => response.status)).toEqual(streams.map(() => 200))
      expect(streams[0]?.headers.get("content-type")).toContain("text/event-stream")
      const started = performance.now()
      const listed = await fetch(`${gw.url}/api/conversations`, { headers: { "x-api-key": key.key } })
      expect(listed.status).toBe(200)
      expect(performance.now() - started).toBeLessThan(2_000)
      // An event written by the service reaches the client as it is written.
      const reader = ((streams.at(-1) as Response).body as ReadableStream<Uint8Array>).getReader()
      for (const response of open) response.write('event: conversation\ndata: {"id":"cnv_x"}\n\n')
      let text = ""
      while (!text.includes("event: conversation")) {
        const { value, done } = await reader.read()
        if (done) break
        text += new TextDecoder().decode(value)
      }
      expect(text).toContain('data: {"id":"cnv_x"}')
    } finally {
      for (const response of streams) await response.body?.cancel().catch(() => undefined)
    }
  })
})

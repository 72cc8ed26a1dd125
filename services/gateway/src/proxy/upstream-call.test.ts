import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { Readable } from "node:stream"
import { Pool } from "undici"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { callUpstream } from "./upstream-call.ts"

let server: Server
let pool: Pool
let abandoned = false

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === "/small") {
      const body = JSON.stringify({ ok: true })
      response.writeHead(201, { "content-type": "application/json", "content-length": body.length, "x-extra": "yes" })
      response.end(body)
    } else if (request.url === "/chunked") {
      response.writeHead(200, { "content-type": "text/csv" })
      response.write("a,b\n")
      setImmediate(() => response.end("1,2\n"))
    } else if (request.url === "/endless") {
      response.writeHead(200, { "content-type": "text/plain" })
      const timer = setInterval(() => response.write("x".repeat(1024)), 1)
      response.on("close", () => {
        clearInterval(timer)
        abandoned = true
      })
    }
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  pool = new Pool(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)
})

afterAll(async () => {
  await pool.close()
  server.close()
})

const readAll = async (stream: Readable): Promise<string> => {
  let text = ""
  for await (const chunk of stream) text += String(chunk)
  return text
}

describe("callUpstream", () => {
  it("collects a small answer of known length into one Buffer, with its status and headers", async () => {
    const answer = await callUpstream(pool, { method: "GET", path: "/small" }, 1024)
    expect(answer.statusCode).toBe(201)
    expect(answer.headers["x-extra"]).toBe("yes")
    expect(Buffer.isBuffer(answer.body)).toBe(true)
    expect(String(answer.body)).toBe('{"ok":true}')
  })

  it("streams an answer of unknown length as it comes", async () => {
    const answer = await callUpstream(pool, { method: "GET", path: "/chunked" }, 1024)
    expect(answer.body).toBeInstanceOf(Readable)
    expect(await readAll(answer.body as Readable)).toBe("a,b\n1,2\n")
  })

  it("streams an answer larger than the buffer limit", async () => {
    const answer = await callUpstream(pool, { method: "GET", path: "/small" }, 4)
    expect(answer.body).toBeInstanceOf(Readable)
    expect(await readAll(answer.body as Readable)).toBe('{"ok":true}')
  })

  it("aborts the service's answer when the stream is destroyed", async () => {
    const answer = await callUpstream(pool, { method: "GET", path: "/endless" }, 1024)
    ;(answer.body as Readable).destroy()
    const deadline = Date.now() + 5_000
    while (!abandoned && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10))
    expect(abandoned).toBe(true)
  })

  it("rejects when the service cannot be reached", async () => {
    const closed = new Pool("http://127.0.0.1:1")
    await expect(callUpstream(closed, { method: "GET", path: "/" }, 1024)).rejects.toThrow()
    await closed.close()
  })
})

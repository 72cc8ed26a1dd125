import { Readable } from "node:stream"
import Fastify, { type FastifyInstance } from "fastify"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { InProcessDispatcher } from "./in-process.ts"
import { callUpstream } from "./upstream-call.ts"

let app: FastifyInstance
let dispatcher: InProcessDispatcher
let abandoned = false
let produced = 0
const ENDLESS_CHUNKS = 100_000

beforeAll(async () => {
  app = Fastify()
  app.addContentTypeParser("application/octet-stream", (_request, payload, done) => done(null, payload))
  app.get("/small", async (request, reply) => {
    reply.header("set-cookie", ["a=1", "b=2"])
    return reply.code(201).send({ ok: true, seen: request.headers["x-parley-test"], query: request.query })
  })
  app.post("/count", async (request) => {
    let bytes = 0
    for await (const chunk of request.body as Readable) bytes += (chunk as Buffer).length
    return { bytes }
  })
  app.post("/echo", async (request) => request.body)
  app.get("/endless", (_request, reply) => {
    const stream = new Readable({
      read() {
        // Bounded: a reader that never stops would still end here.
        if (produced++ >= ENDLESS_CHUNKS) this.push(null)
        else this.push("x".repeat(1024))
      },
      destroy(error, callback) {
        abandoned = true
        callback(error)
      },
    })
    return reply.type("text/plain").send(stream)
  })
  dispatcher = new InProcessDispatcher(app)
})

afterAll(async () => {
  await dispatcher.close()
  await app.close()
})

describe("the in-process dispatcher", () => {
  it("answers through undici's request API with status, headers (repeated ones as arrays) and body", async () => {
    const response = await dispatcher.request({
      method: "GET",
      path: "/small?x=1",
      headers: { "x-parley-test": "yes" },
    })
    expect(response.statusCode).toBe(201)
    expect(response.headers["set-cookie"]).toEqual(["a=1", "b=2"])
    expect(response.headers["content-type"]).toContain("application/json")
    expect(await response.body.json()).toEqual({ ok: true, seen: "yes", query: { x: "1" } })
  })

  it("collects a small answer whole for the forwarder", async () => {
    const answer = await callUpstream(dispatcher, { method: "GET", path: "/small", headers: {} }, 1024)
    expect(answer.statusCode).toBe(201)
    expect(Buffer.isBuffer(answer.body)).toBe(true)
    expect(JSON.parse(String(answer.body))).toMatchObject({ ok: true })
  })

  it("passes a JSON body as bytes and a client's stream as a stream", async () => {
    const echoed = await dispatcher.request({
      method: "POST",
      path: "/echo",
      headers: { "content-type": "application/json" },
      body: Buffer.from(JSON.stringify({ name: "Ada" })),
    })
    expect(await echoed.body.json()).toEqual({ name: "Ada" })

    const upload = Readable.from(Array.from({ length: 64 }, () => Buffer.alloc(16 * 1024, 1)))
    const counted = await dispatcher.request({
      method: "POST",
      path: "/count",
      headers: { "content-type": "application/octet-stream" },
      body: upload,
    })
    expect(await counted.body.json()).toEqual({ bytes: 64 * 16 * 1024 })
  })

  it("streams a large answer and stops the service's stream when the reader abandons it", async () => {
    const answer = await callUpstream(dispatcher, { method: "GET", path: "/endless", headers: {} }, 1024)
    expect(answer.body).toBeInstanceOf(Readable)
    const stream = answer.body as Readable
    let received = 0
    for await (const chunk of stream) {
      received += (chunk as Buffer).length
      if (received > 256 * 1024) break
    }
    expect(received).toBeGreaterThan(256 * 1024)
    await expect.poll(() => abandoned, { timeout: 2_000 }).toBe(true)
    // Stopped early, not run to its end: backpressure held it and the abandon reached it.
    expect(produced).toBeLessThan(ENDLESS_CHUNKS / 10)
  })

  it("refuses calls once closed, as a closed pool does", async () => {
    const closed = new InProcessDispatcher(app)
    await closed.close()
    await expect(closed.request({ method: "GET", path: "/small" })).rejects.toThrow(/closed/)
  })
})

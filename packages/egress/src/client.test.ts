import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { EgressClient } from "./client.ts"
import type { Resolver } from "./resolver.ts"
import { assertPublicUrl } from "./url.ts"

let server: Server
let port = 0
let hits = 0

const handler = (request: IncomingMessage, response: ServerResponse) => {
  hits++
  if (request.url === "/redirect") {
    response.writeHead(302, { location: "/ok" }).end()
  } else if (request.url === "/slow") {
    setTimeout(() => response.writeHead(200).end(), 2_000).unref()
  } else if (request.url === "/big") {
    response.writeHead(500).end("x".repeat(200 * 1024))
  } else {
    response.writeHead(200).end("fine")
  }
}

beforeAll(async () => {
  server = createServer(handler)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  port = (server.address() as AddressInfo).port
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const resolvesTo =
  (address: string): Resolver =>
  async () => [{ address, family: address.includes(":") ? 6 : 4 }]

describe("EgressClient", () => {
  it.each(["127.0.0.1", "10.0.0.1", "::ffff:127.0.0.1", "fe80::1"])(
    "refuses to connect to a hostname resolving to %s",
    async (address) => {
      const client = EgressClient.make({ allowPrivate: false, timeoutMs: 2_000, lookup: resolvesTo(address) })
      const before = hits
      const result = await client.send({ url: `http://receiver.test:${port}/`, headers: {}, body: "{}" })
      await client.close()
      expect(result).toMatchObject({ ok: false, status: null, error: "blocked address" })
      expect(hits).toBe(before)
    },
  )

  it("refuses at connect time a host that resolved public at registration and private afterwards", async () => {
    let answers = 0
    const rebinding: Resolver = async () => [{ address: answers++ === 0 ? "93.184.216.34" : "127.0.0.1", family: 4 }]
    // The registration-time check sees the public answer…
    const registered = await Effect.runPromise(
      assertPublicUrl(`http://receiver.test:${port}/`, { allowPrivate: false, resolver: rebinding }),
    )
    expect(registered.hostname).toBe("receiver.test")
    const client = EgressClient.make({ allowPrivate: false, timeoutMs: 2_000, lookup: rebinding })
    const before = hits
    const result = await client.send({ url: `http://receiver.test:${port}/`, headers: {}, body: "{}" })
    await client.close()
    // …and the connection itself is refused once the name points inside.
    expect(result.error).toBe("blocked address")
    expect(hits).toBe(before)
  })

  it("refuses a literal loopback address by the address actually connected to", async () => {
    const client = EgressClient.make({ allowPrivate: false, timeoutMs: 2_000 })
    const before = hits
    const result = await client.send({ url: `http://127.0.0.1:${port}/`, headers: {}, body: "{}" })
    await client.close()
    expect(result.error).toBe("blocked address")
    expect(hits).toBe(before)
  })

  it("refuses an IPv4-mapped IPv6 literal of loopback by the address actually connected to", async () => {
    // No name to resolve: the lookup is never asked, so only the check on the connected socket stands
    // between this URL and the loopback listener.
    const lookups: Array<string> = []
    const recording: Resolver = async (hostname) => {
      lookups.push(hostname)
      return []
    }
    const url = `http://[::ffff:127.0.0.1]:${port}/`
    const refusing = EgressClient.make({ allowPrivate: false, timeoutMs: 2_000, lookup: recording })
    const before = hits
    const refused = await refusing.send({ url, headers: {}, body: "{}" })
    await refusing.close()
    expect(refused).toMatchObject({ ok: false, status: null, error: "blocked address" })
    expect(hits).toBe(before)
    expect(lookups).toEqual([])

    // The same URL does reach the listener when private addresses are allowed, so the refusal above
    // was the address check and not a connection that could not be made.
    const allowing = EgressClient.make({ allowPrivate: true, timeoutMs: 2_000, lookup: recording })
    const reached = await allowing.send({ url, headers: {}, body: "{}" })
    await allowing.close()
    expect(reached).toMatchObject({ ok: true, status: 200 })
    expect(hits).toBe(before + 1)
  })

  describe("with private addresses allowed", () => {
    const client = EgressClient.make({ allowPrivate: true, timeoutMs: 500 })
    afterAll(() => client.close())

    it("delivers and reports a 2xx as success without reading the body", async () => {
      const result = await client.send({ url: `http://127.0.0.1:${port}/ok`, headers: {}, body: "{}" })
      expect(result).toMatchObject({ ok: true, status: 200, error: null, body: null })
    })

    it("does not follow redirects and reports them as failures", async () => {
      const before = hits
      const result = await client.send({ url: `http://127.0.0.1:${port}/redirect`, headers: {}, body: "{}" })
      expect(result).toMatchObject({ ok: false, status: 302, error: "redirect" })
      expect(hits).toBe(before + 1)
    })

    it("gives up after the total timeout", async () => {
      const result = await client.send({ url: `http://127.0.0.1:${port}/slow`, headers: {}, body: "{}" })
      expect(result).toMatchObject({ ok: false, status: null, error: "timeout" })
      expect(result.durationMs).toBeGreaterThanOrEqual(450)
      expect(result.durationMs).toBeLessThan(1_500)
    })

    it("reads at most 64 KiB of a failed response", async () => {
      const result = await client.send({ url: `http://127.0.0.1:${port}/big`, headers: {}, body: "{}" })
      expect(result.status).toBe(500)
      expect(result.body?.length).toBe(64 * 1024)
    })

    it("reports a closed port as connection refused", async () => {
      const closed = createServer()
      await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve))
      const closedPort = (closed.address() as AddressInfo).port
      await new Promise<void>((resolve) => closed.close(() => resolve()))
      const result = await client.send({ url: `http://127.0.0.1:${closedPort}/`, headers: {}, body: "{}" })
      expect(result).toMatchObject({ ok: false, status: null, error: "connection refused" })
    })
  })
})

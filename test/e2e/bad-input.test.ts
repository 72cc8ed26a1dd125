import { connect } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type MintedKey, type System, startSystem, type Tenant } from "./support/system.ts"

// docs/contract.md §1, "bad input gets a clear 4xx, never a 500", for what issue #13 found reaching a
// 500 or a hang: invalid bytes and over-long values in path ids and queries, requests Node's own
// parser refuses, and oversized bodies on a kept-alive connection.
let system: System
let tenant: Tenant
let key: MintedKey
let widget: MintedKey

beforeAll(async () => {
  system = await startSystem()
  tenant = await system.createTenant()
  ;[key, widget] = await Promise.all([tenant.mintKey(), tenant.mintKey(["chat:read", "chat:write"])])
}, 60_000)
afterAll(async () => {
  await system?.close()
})

/** One request written by hand (bytes fetch would refuse to send), answered on a fresh connection. */
const rawRequest = (head: string, body: Buffer = Buffer.alloc(0)) =>
  new Promise<string>((resolve, reject) => {
    const url = new URL(system.url)
    const socket = connect(Number(url.port), url.hostname)
    const chunks: Array<Buffer> = []
    socket.on("data", (chunk: Buffer) => chunks.push(chunk))
    socket.on("end", () => resolve(Buffer.concat(chunks).toString("latin1")))
    socket.on("error", reject)
    socket.setTimeout(10_000, () => {
      socket.destroy()
      resolve(Buffer.concat(chunks).toString("latin1"))
    })
    socket.write(Buffer.concat([Buffer.from(head, "latin1"), body]))
  })

const contractBody = (raw: string) => JSON.parse(raw.slice(raw.indexOf("\r\n\r\n") + 4)) as Record<string, unknown>

describe("ids and queries", () => {
  it("answers 400 invalid_request to a NUL or a control character in any id, never a 500", async () => {
    const webhook = await key.client.post("/api/org/webhooks", { url: "https://example.com/hook" })
    expect(webhook.status).toBe(201)
    const wh = webhook.body.id as string
    for (const bad of ["%00", "a%00b", "%01", "%7F"]) {
      for (const [client, path] of [
        [key.client, `/api/org/webhooks/${bad}`],
        [key.client, `/api/org/webhooks/${bad}/deliveries`],
        [key.client, `/api/org/webhooks/${wh}/deliveries/${bad}/redeliver`],
        [key.client, `/api/campaigns/${bad}`],
        [key.client, `/api/org/api-keys/${bad}`],
        [widget.client, `/api/public/chat/${bad}`],
      ] as const) {
        const answer = path.endsWith("/redeliver") ? await client.post(path, undefined) : await client.get(path)
        expect({ status: answer.status, code: answer.body?.code }, path).toEqual({
          status: 400,
          code: "invalid_request",
        })
      }
      const replay = await key.client.post(`/api/org/webhooks/${bad}/replay`, { since: "2026-01-01T00:00:00.000Z" })
      expect({ status: replay.status, code: replay.body?.code }).toEqual({ status: 400, code: "invalid_request" })
    }
  })

  it("answers an id thousands of characters long with 400, and a NUL in a query with 400", async () => {
    for (const path of [`/api/org/webhooks/wh_${"a".repeat(3_000)}`, `/api/campaigns/cmp_${"b".repeat(3_000)}`]) {
      const answer = await key.client.get(path)
      expect({ status: answer.status, code: answer.body?.code }).toEqual({ status: 400, code: "invalid_request" })
    }
    for (const path of ["/api/leads?type=%00", "/api/messages?phone=1%00", "/api/contacts?cursor=%00"]) {
      const answer = await key.client.get(path)
      expect({ status: answer.status, code: answer.body?.code }, path).toEqual({ status: 400, code: "invalid_request" })
    }
  })
})

describe("cursors", () => {
  it("answers a cursor no list issued with the one same 400 on every list that pages", async () => {
    const created = await key.client.post("/api/org/webhooks", { url: "https://example.com/hook" })
    expect(created.status).toBe(201)
    const webhookId = String(created.body?.id)
    const foreign = Buffer.from(JSON.stringify(["not", "ours"])).toString("base64url")
    const lists = [
      "/api/leads",
      "/api/bookings",
      "/api/messages",
      "/api/campaigns",
      "/api/contacts",
      "/api/contacts/opt-outs",
      "/api/conversations",
      "/api/sandbox/outbox",
      `/api/org/webhooks/${webhookId}/deliveries`,
    ]
    for (const list of lists) {
      for (const [cursor, error] of [
        [foreign, "Invalid request: cursor is not one this API issued"],
        ["", "Invalid request: cursor: Expected a cursor from nextCursor"],
      ] as const) {
        const answer = await key.client.get(`${list}?cursor=${cursor}`)
        expect(
          { status: answer.status, code: answer.body?.code, error: answer.body?.error },
          `${list} ${cursor}`,
        ).toEqual({
          status: 400,
          code: "invalid_request",
          error,
        })
      }
    }
  })
})

describe("what Node's parser refuses", () => {
  it("answers a URL over 16 KB with 431 and a raw byte in the path with 400, both in the contract's shape", async () => {
    const long = await rawRequest(`GET /api/leads?x=${"a".repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`)
    expect(long).toMatch(/^HTTP\/1\.1 431 /)
    expect(contractBody(long)).toEqual({ error: expect.stringContaining("Invalid request"), code: "invalid_request" })
    expect(long.toLowerCase()).toContain("x-content-type-options: nosniff")
    const raw = await rawRequest("GET /api/leads/\xff HTTP/1.1\r\nHost: x\r\n\r\n")
    expect(raw).toMatch(/^HTTP\/1\.1 400 /)
    expect(contractBody(raw)).toMatchObject({ code: "invalid_request" })
  })
})

describe("oversized bodies", () => {
  it("answers an oversized provider post and does not leave its keep-alive connection hanging", async () => {
    for (const path of ["/channels/cloud/webhook", "/channels/bridge/inbound"]) {
      const size = 2 * 1024 * 1024
      const head =
        `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${size}\r\n` +
        "Connection: keep-alive\r\n\r\n"
      const second = "GET /health/live HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
      const started = Date.now()
      const answer = await rawRequest(head, Buffer.concat([Buffer.alloc(size, 0x20), Buffer.from(second, "latin1")]))
      expect(answer, path).toMatch(/^HTTP\/1\.1 4\d\d /)
      // Either the connection was closed after the refusal or the next request was answered: no hang.
      expect(Date.now() - started, path).toBeLessThan(8_000)
      const statuses = [...answer.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => m[1])
      expect(statuses.length === 1 || statuses[1] === "200", `${path}: ${statuses.join()}`).toBe(true)
    }
  })
})

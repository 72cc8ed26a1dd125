import { type IncomingMessage, request } from "node:http"
import { eventually } from "@parley/platform/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type MintedKey, type System, startSystem, type Tenant } from "./support/system.ts"

// docs/contract.md §17 through the gateway: every conversation route answers another organization's
// conversation as missing, lists only the caller's own, and the live stream
// (`GET /api/conversations/events`) authenticates like every other session request and carries
// only the caller's organization's changes.
let system: System
let a: Tenant
let b: Tenant
let widgetA: MintedKey
let conversationA = ""
let sessionA = ""

beforeAll(async () => {
  system = await startSystem()
  ;[a, b] = await Promise.all([system.createTenant(), system.createTenant()])
  widgetA = await a.mintKey(["chat:write", "chat:read"])
  const chat = await widgetA.client.post("/api/public/chat", { message: "Hello, I'm Ada" })
  expect(chat.status, chat.text).toBe(200)
  sessionA = chat.body.sessionId
  const listed = await a.admin.client.get("/api/conversations")
  expect(listed.status, listed.text).toBe(200)
  conversationA = listed.body.data[0].id
}, 60_000)
afterAll(async () => {
  await system?.close()
})

interface OpenStream {
  readonly status: number
  readonly received: () => string
  close(): void
}

/** Opens the live stream with these headers; resolves on the answer's head (its body keeps coming). */
const openStream = (headers: Record<string, string>): Promise<OpenStream> =>
  new Promise((resolve, reject) => {
    let text = ""
    const req = request(`${system.url}/api/conversations/events`, { headers }, (res: IncomingMessage) => {
      res.setEncoding("utf8")
      res.on("data", (chunk: string) => {
        text += chunk
      })
      resolve({ status: res.statusCode ?? 0, received: () => text, close: () => req.destroy() })
    })
    req.on("error", reject)
    req.end()
  })

describe("conversations belong to one organization", () => {
  it("answers B's session and key 404 on each of A's conversation routes, and lists none of A's", async () => {
    const keyB = await b.mintKey()
    for (const client of [b.admin.client, keyB.client]) {
      const listed = await client.get("/api/conversations")
      expect(listed.status).toBe(200)
      expect(listed.body.data).toEqual([])
      const notFound = { status: 404, body: { error: "Not found", code: "not_found" } }
      for (const answer of [
        await client.get(`/api/conversations/${conversationA}`),
        await client.post(`/api/conversations/${conversationA}/takeover`),
        await client.post(`/api/conversations/${conversationA}/messages`, { text: "hi from B" }),
        await client.post(`/api/conversations/${conversationA}/release`),
      ]) {
        expect({ status: answer.status, body: answer.body }).toEqual(notFound)
      }
    }
    const stillA = await a.admin.client.get(`/api/conversations/${conversationA}`)
    expect(stillA.body).toMatchObject({ state: "assistant", assignee: null })
    expect(stillA.body.messages.map((m: { role: string }) => m.role)).toEqual(["customer", "assistant"])
  })

  it("refuses a widget key on the inbox, and a takeover from another origin (CSRF)", async () => {
    const refused = await widgetA.client.get("/api/conversations")
    expect(refused.status).toBe(403)
    expect(refused.body.code).toBe("widget_key_forbidden")
    const forged = await a.admin.client.post(`/api/conversations/${conversationA}/takeover`, undefined, {
      headers: { origin: "https://evil.example" },
    })
    expect(forged.status).toBe(403)
  })

  it("names the member who took a conversation over by their email", async () => {
    const member = await a.addMember()
    const taken = await member.client.post(`/api/conversations/${conversationA}/takeover`)
    expect(taken.status, taken.text).toBe(200)
    expect(taken.body.assignee).toEqual({ id: member.id, email: member.email })
    const other = await a.addMember()
    const refused = await other.client.post(`/api/conversations/${conversationA}/messages`, { text: "me too" })
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 409,
      body: { error: "Conversation is held by another member", code: "conflict" },
    })
    expect(
      (await widgetA.client.post("/api/public/chat", { message: "hello?", sessionId: sessionA })).body,
    ).toMatchObject({ reply: null })
    expect((await member.client.post(`/api/conversations/${conversationA}/release`)).status).toBe(200)
  })

  it("streams A's changes to A's session only, and refuses the stream without a session", async () => {
    expect((await openStream({})).status).toBe(401)
    const mine = await openStream({ cookie: a.admin.cookie, accept: "text/event-stream" })
    const theirs = await openStream({ cookie: b.admin.cookie, accept: "text/event-stream" })
    try {
      expect([mine.status, theirs.status]).toEqual([200, 200])
      await eventually(() => expect(mine.received()).toContain("retry:"))
      const chat = await widgetA.client.post("/api/public/chat", { message: "A new visitor" })
      expect(chat.status).toBe(200)
      await eventually(() => expect(mine.received()).toContain("event: conversation"))
      const announced = /data: (\{.*\})/.exec(mine.received())?.[1] ?? "{}"
      const listed = await a.admin.client.get("/api/conversations")
      expect(listed.body.data.map((c: { id: string }) => c.id)).toContain(JSON.parse(announced).id)
      expect(theirs.received()).not.toContain("event: conversation")
    } finally {
      mine.close()
      theirs.close()
    }
  })
})

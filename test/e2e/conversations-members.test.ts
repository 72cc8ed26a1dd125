import { eventually } from "@parley/platform/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type System, startSystem, type Tenant } from "./support/system.ts"

// docs/contract.md §2.4 and §17 through `npm start`'s composition: identity announces a removed
// member on the bus and the assistant gives the conversations they held back, so nobody is locked
// out of a conversation by a person who has left.
let system: System
let tenant: Tenant

beforeAll(async () => {
  system = await startSystem()
  tenant = await system.createTenant()
}, 60_000)
afterAll(async () => {
  await system?.close()
})

describe("a removed member's conversations", () => {
  it("return to the assistant within seconds, so other members can take them and the assistant answers", async () => {
    const widget = await tenant.mintKey(["chat:write", "chat:read"])
    const first = await widget.client.post("/api/public/chat", { message: "Hello, I'm Ada" })
    expect(first.status, first.text).toBe(200)
    const conversationId = (await tenant.admin.client.get("/api/conversations")).body.data[0].id
    const leaving = await tenant.addMember()
    const staying = await tenant.addMember()
    const taken = await leaving.client.post(`/api/conversations/${conversationId}/takeover`)
    expect(taken.status, taken.text).toBe(200)
    expect(
      (await widget.client.post("/api/public/chat", { sessionId: first.body.sessionId, message: "hi?" })).body,
    ).toMatchObject({ reply: null })
    const refused = await staying.client.post(`/api/conversations/${conversationId}/takeover`)
    expect(refused.status).toBe(409)

    const removal = await tenant.admin.client.delete(`/api/org/members/${leaving.id}`)
    expect(removal.status, removal.text).toBe(204)

    await eventually(
      async () => {
        const read = await staying.client.get(`/api/conversations/${conversationId}`)
        expect(read.body).toMatchObject({ state: "assistant", assignee: null })
      },
      { timeoutMs: 5_000 },
    )
    const answered = await widget.client.post("/api/public/chat", {
      sessionId: first.body.sessionId,
      message: "What are your opening hours?",
    })
    expect(answered.body.reply?.text).toBeTruthy()
    const retaken = await staying.client.post(`/api/conversations/${conversationId}/takeover`)
    expect(retaken.status, retaken.text).toBe(200)
    expect(retaken.body).toMatchObject({ state: "human", assignee: { id: staying.id } })
  })
})

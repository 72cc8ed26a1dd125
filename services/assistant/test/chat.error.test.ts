import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { newOrg, type RunningApp, startApp, startInfrastructure, type TestInfrastructure, widget } from "./harness.ts"

let infra: TestInfrastructure
let app: RunningApp

beforeAll(async () => {
  infra = await startInfrastructure()
  app = await startApp(infra, { background: false })
})
afterAll(async () => {
  await app?.stop()
  await infra?.close()
})

describe("widget chat refuses bad input with a 400", () => {
  it.each([
    [{}, "message"],
    [{ message: "" }, "message"],
    [{ message: "x".repeat(2001) }, "message"],
    [{ message: 42 }, "message"],
    [{ message: "hi", sessionId: 7 }, "sessionId"],
    [{ message: "hi", visitor: { phone: "12" } }, "visitor.phone"],
  ])("body %j names %s", async (body, field) => {
    const response = await widget(app, newOrg(), "POST", "/api/public/chat", body)
    expect(response.statusCode).toBe(400)
    const error = response.json() as { code: string; issues: Array<{ path: string }> }
    expect(error.code).toBe("invalid_request")
    expect(error.issues.map((i) => i.path)).toContain(field)
  })

  it("accepts a message of exactly 2000 characters", async () => {
    const response = await widget(app, newOrg(), "POST", "/api/public/chat", { message: "a".repeat(2000) })
    expect(response.statusCode).toBe(200)
  })

  it("answers 404 for an unknown session on reset and read", async () => {
    const orgId = newOrg()
    expect((await widget(app, orgId, "POST", "/api/public/chat/reset", { sessionId: "ses_nope" })).statusCode).toBe(404)
    expect((await widget(app, orgId, "GET", "/api/public/chat/ses_nope")).statusCode).toBe(404)
  })

  it("refuses a request without the gateway's principal", async () => {
    const response = await app.app.inject({ method: "POST", url: "/api/public/chat", payload: { message: "hi" } })
    expect(response.statusCode).toBe(401)
  })
})

describe("widget chat keeps organizations apart", () => {
  it("never shows, resets or continues another organization's session", async () => {
    const owner = newOrg()
    const stranger = newOrg()
    const started = await widget(app, owner, "POST", "/api/public/chat", { message: "I'm Dana, 4155550123" })
    const { sessionId } = started.json() as { sessionId: string }

    const read = await widget(app, stranger, "GET", `/api/public/chat/${sessionId}`)
    expect(read.statusCode).toBe(404)
    expect(read.json()).toEqual({ error: "Not found", code: "not_found" })
    expect((await widget(app, stranger, "POST", "/api/public/chat/reset", { sessionId })).statusCode).toBe(404)

    const hijack = await widget(app, stranger, "POST", "/api/public/chat", { message: "what did I say?", sessionId })
    expect(hijack.statusCode).toBe(200)
    expect((hijack.json() as { sessionId: string }).sessionId).not.toBe(sessionId)

    const still = await widget(app, owner, "GET", `/api/public/chat/${sessionId}`)
    expect((still.json() as { messages: Array<unknown> }).messages).toHaveLength(2)
  })
})

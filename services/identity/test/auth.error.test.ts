import { KeyId } from "@parley/contracts"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  addMember,
  createOrganization,
  type Harness,
  principalHeader,
  startIdentity,
  type TestOrganization,
} from "./harness.ts"

let harness: Harness
let org: TestOrganization
beforeAll(async () => {
  harness = await startIdentity()
  org = await createOrganization(harness)
})
afterAll(() => harness.close())

const login = (payload: unknown) =>
  harness.app.inject({ method: "POST", url: "/api/auth/login", payload: payload as object })

const INVALID = { error: "Invalid email or password", code: "unauthorized" }

describe("login errors", () => {
  it("answers the same 401 for an unknown email and for a wrong password", async () => {
    const unknown = await login({ email: "nobody@example.com", password: "whatever-password" })
    const wrong = await login({ email: org.adminEmail, password: `${org.adminPassword}x` })
    expect(unknown.statusCode).toBe(401)
    expect(wrong.statusCode).toBe(401)
    expect(unknown.json()).toEqual(INVALID)
    expect(wrong.json()).toEqual(INVALID)
    expect(unknown.headers["set-cookie"]).toBeUndefined()
  })

  it("refuses a removed member with the same 401", async () => {
    const member = await addMember(harness, org)
    expect((await login({ email: member.email, password: member.password })).statusCode).toBe(200)
    const removed = await harness.app.inject({
      method: "DELETE",
      url: `/api/org/members/${member.id}`,
      headers: org.admin,
    })
    expect(removed.statusCode).toBe(204)
    const response = await login({ email: member.email, password: member.password })
    expect(response.statusCode).toBe(401)
    expect(response.json()).toEqual(INVALID)
  })

  it("answers 400 naming the fields for a body without email or password", async () => {
    const response = await login({ email: 42 })
    expect(response.statusCode).toBe(400)
    const paths = response.json().issues.map((i: { path: string }) => i.path)
    expect(paths).toEqual(expect.arrayContaining(["email", "password"]))
  })

  it("answers 400, not 500, for an email carrying U+0000", async () => {
    const response = await login({ email: "a\u0000@example.com", password: "whatever-password" })
    expect(response.statusCode).toBe(400)
  })

  it("answers 400 without a body at all", async () => {
    const response = await harness.app.inject({ method: "POST", url: "/api/auth/login" })
    expect(response.statusCode).toBe(400)
    expect(response.json().code).toBe("invalid_request")
  })
})

describe("me and logout errors", () => {
  it("answers 401 Session required for me called by an API key", async () => {
    const response = await harness.app.inject({
      method: "GET",
      url: "/api/auth/me",
      headers: principalHeader({
        orgId: org.orgId,
        role: "admin",
        actor: { type: "api_key", keyId: KeyId.make("key_0000000000000000000000"), scopes: [] },
      }),
    })
    expect(response.statusCode).toBe(401)
    expect(response.json()).toEqual({ error: "Session required", code: "unauthorized" })
  })

  it("answers 401 Session required for me of a user removed since the session was vouched for", async () => {
    const member = await addMember(harness, org)
    await harness.app.inject({ method: "DELETE", url: `/api/org/members/${member.id}`, headers: org.admin })
    const response = await harness.app.inject({ method: "GET", url: "/api/auth/me", headers: member.headers })
    expect(response.statusCode).toBe(401)
    expect(response.json().error).toBe("Session required")
  })

  it("logout without a cookie still answers 204 and ends nothing else", async () => {
    const response = await harness.app.inject({ method: "POST", url: "/api/auth/logout", headers: org.admin })
    expect(response.statusCode).toBe(204)
  })
})

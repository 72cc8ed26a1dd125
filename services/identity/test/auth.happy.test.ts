import { KeyId, OrgId } from "@parley/contracts"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  cookieToken,
  createOrganization,
  digestOf,
  type Harness,
  internalPost,
  principalHeader,
  startIdentity,
  type TestOrganization,
} from "./harness.ts"

let harness: Harness
let org: TestOrganization
beforeAll(async () => {
  harness = await startIdentity()
  org = await createOrganization(harness, { name: "Sessions Inc" })
})
afterAll(() => harness.close())

const login = (email: string, password: string) =>
  harness.app.inject({ method: "POST", url: "/api/auth/login", payload: { email, password } })

describe("login, me and logout", () => {
  it("sets an HttpOnly, SameSite=Lax session cookie (not Secure on an http public URL)", async () => {
    const response = await login(org.adminEmail, org.adminPassword)
    expect(response.statusCode).toBe(200)
    const cookie = String(response.headers["set-cookie"])
    expect(cookie).toMatch(/^parley_session=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Lax; Path=\//)
    expect(cookie).not.toContain("Secure")
  })

  it("accepts the email in any letter case", async () => {
    const response = await login(org.adminEmail.toUpperCase(), org.adminPassword)
    expect(response.statusCode).toBe(200)
  })

  it("stores only the token's digest, and the gateway finds the session by that digest", async () => {
    const response = await login(org.adminEmail, org.adminPassword)
    const token = cookieToken(response)
    const rows = await harness.sql`select token_digest, expires_at, created_at from identity.sessions`
    expect(rows.some((r) => r.token_digest === digestOf(token))).toBe(true)
    expect(JSON.stringify(rows)).not.toContain(token)

    const lookup = await internalPost(harness, "/internal/sessions/lookup", { tokenDigest: digestOf(token) })
    expect(lookup.statusCode).toBe(200)
    const session = lookup.json()
    expect(session).toEqual({
      sessionId: expect.stringMatching(/^ses_/),
      userId: org.adminId,
      orgId: org.orgId,
      role: "admin",
      email: org.adminEmail,
      expiresAt: expect.any(String),
      orgName: "Sessions Inc",
    })
    const lifetime = Date.parse(session.expiresAt) - Date.now()
    expect(lifetime).toBeGreaterThan(7 * 24 * 3600 * 1000 - 60_000)
    expect(lifetime).toBeLessThanOrEqual(7 * 24 * 3600 * 1000)
  })

  it("answers me with the current user and organization", async () => {
    const response = await harness.app.inject({ method: "GET", url: "/api/auth/me", headers: org.admin })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({
      user: { id: org.adminId, email: org.adminEmail, role: "admin" },
      organization: { id: org.orgId, name: "Sessions Inc" },
    })
  })

  it("logout answers 204 and deletes the presented session server-side", async () => {
    const token = cookieToken(await login(org.adminEmail, org.adminPassword))
    const other = cookieToken(await login(org.adminEmail, org.adminPassword))
    const response = await harness.app.inject({
      method: "POST",
      url: "/api/auth/logout",
      headers: { ...org.admin, cookie: `parley_session=${token}` },
    })
    expect(response.statusCode).toBe(204)
    expect(response.body).toBe("")
    expect(String(response.headers["set-cookie"])).toMatch(/^parley_session=; .*Max-Age=0/)
    expect(
      (await internalPost(harness, "/internal/sessions/lookup", { tokenDigest: digestOf(token) })).statusCode,
    ).toBe(404)
    // Only that session: the same user's other session lives on.
    expect(
      (await internalPost(harness, "/internal/sessions/lookup", { tokenDigest: digestOf(other) })).statusCode,
    ).toBe(200)
  })
})

describe("with an https public URL", () => {
  let secure: Harness
  beforeAll(async () => {
    secure = await startIdentity({ operatorToken: undefined, publicUrl: "https://app.parley.example" })
  })
  afterAll(() => secure.close())

  it("marks the session cookie Secure", async () => {
    await secure.sql`insert into identity.organizations (id, name) values ('org_secure00000000000000000', 'S')`
    // The operator API is off here; seed a user through the members route as a key acting as admin.
    const admin = principalHeader({
      orgId: OrgId.make("org_secure00000000000000000"),
      role: "admin",
      actor: { type: "api_key", keyId: KeyId.make("key_0000000000000000000000"), scopes: [] },
    })
    const added = await secure.app.inject({
      method: "POST",
      url: "/api/org/members",
      headers: admin,
      payload: { email: "secure@example.com", password: "kettle-umbrella-42", role: "member" },
    })
    expect(added.statusCode).toBe(201)
    const response = await secure.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { email: "secure@example.com", password: "kettle-umbrella-42" },
    })
    expect(response.statusCode).toBe(200)
    expect(String(response.headers["set-cookie"])).toMatch(/; Secure$/)
  })
})

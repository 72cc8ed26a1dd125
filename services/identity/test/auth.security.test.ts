import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  addMember,
  cookieToken,
  createOrganization,
  digestOf,
  type Harness,
  internalPost,
  startIdentity,
  type TestOrganization,
} from "./harness.ts"

let harness: Harness
let org: TestOrganization
let other: TestOrganization
beforeAll(async () => {
  harness = await startIdentity()
  org = await createOrganization(harness)
  other = await createOrganization(harness)
})
afterAll(() => harness.close())

const login = (email: string, password: string) =>
  harness.app.inject({ method: "POST", url: "/api/auth/login", payload: { email, password } })

const median = (values: Array<number>) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number

describe("session security", () => {
  it("takes comparable time for an unknown email and a wrong password (a dummy hash is checked)", async () => {
    const time = async (email: string) => {
      const start = performance.now()
      await login(email, "not-the-password")
      return performance.now() - start
    }
    // One failure per account: five in a row would lock it, and a locked account answers at once.
    const members = await Promise.all(Array.from({ length: 8 }, () => addMember(harness, org)))
    await time((members[7] as { email: string }).email) // warm-up
    const known: Array<number> = []
    const unknown: Array<number> = []
    for (let i = 0; i < 7; i++) {
      known.push(await time((members[i] as { email: string }).email))
      unknown.push(await time(`ghost${i}@example.com`))
    }
    // Without the dummy hash an unknown email would answer in well under a tenth of the time.
    expect(median(unknown)).toBeGreaterThan(median(known) * 0.5)
  })

  it("refuses every /api route without a valid principal from the gateway", async () => {
    const routes = [
      { method: "GET", url: "/api/auth/me" },
      { method: "POST", url: "/api/auth/logout" },
      { method: "GET", url: "/api/org/members" },
      {
        method: "POST",
        url: "/api/org/members",
        payload: { email: "a@b.co", password: "lantern-orchard-7", role: "admin" },
      },
      { method: "DELETE", url: `/api/org/members/${org.adminId}` },
      { method: "GET", url: "/api/org/api-keys" },
      { method: "POST", url: "/api/org/api-keys", payload: { name: "x" } },
      { method: "GET", url: "/api/org/api-keys/key_0000000000000000000000" },
      { method: "DELETE", url: "/api/org/api-keys/key_0000000000000000000000" },
    ] as const
    for (const route of routes) {
      for (const headers of [
        {},
        { "x-parley-principal": "forged.signature" },
        { "x-parley-principal": `x${org.admin["x-parley-principal"]}` },
      ]) {
        const response = await harness.app.inject({ ...route, headers })
        expect(response.statusCode, `${route.method} ${route.url}`).toBe(401)
      }
    }
    const members = await harness.sql`select count(*)::int as n from identity.users where email = 'a@b.co'`
    expect(members[0]?.n).toBe(0)
  })

  it("a logout can only end the caller's own session, never another user's", async () => {
    const victimToken = cookieToken(await login(other.adminEmail, other.adminPassword))
    const response = await harness.app.inject({
      method: "POST",
      url: "/api/auth/logout",
      headers: { ...org.admin, cookie: `parley_session=${victimToken}` },
    })
    expect(response.statusCode).toBe(204)
    const lookup = await internalPost(harness, "/internal/sessions/lookup", { tokenDigest: digestOf(victimToken) })
    expect(lookup.statusCode).toBe(200)
  })

  it("the internal lookups refuse calls without a valid x-parley-internal", async () => {
    for (const url of ["/internal/sessions/lookup", "/internal/keys/lookup"]) {
      const missing = await harness.app.inject({
        method: "POST",
        url,
        payload: { tokenDigest: "0".repeat(64), digest: "0".repeat(64) },
      })
      expect(missing.statusCode).toBe(401)
      const wrongPath = await harness.app.inject({
        method: "POST",
        url,
        headers: (await import("@parley/platform")).internalCallHeaders("another-secret", {
          method: "POST",
          path: url,
        }),
        payload: { tokenDigest: "0".repeat(64), digest: "0".repeat(64) },
      })
      expect(wrongPath.statusCode).toBe(401)
    }
  })

  it("an expired session is not found by the gateway's lookup", async () => {
    const token = cookieToken(await login(org.adminEmail, org.adminPassword))
    await harness.sql`update identity.sessions set expires_at = now() - interval '1 second' where token_digest = ${digestOf(token)}`
    const lookup = await internalPost(harness, "/internal/sessions/lookup", { tokenDigest: digestOf(token) })
    expect(lookup.statusCode).toBe(404)
    expect(lookup.json()).toEqual({ error: "Not found", code: "not_found" })
  })

  it("logs of a login and logout contain neither the password nor the session token", async () => {
    const response = await login(org.adminEmail, org.adminPassword)
    const token = cookieToken(response)
    await harness.app.inject({
      method: "POST",
      url: "/api/auth/logout",
      headers: { ...org.admin, cookie: `parley_session=${token}` },
    })
    await login(org.adminEmail, "wrong-password-here")
    const log = harness.logs.join("")
    expect(log).toContain("request completed")
    expect(log).not.toContain(org.adminPassword)
    expect(log).not.toContain("wrong-password-here")
    expect(log).not.toContain(token)
  })
})

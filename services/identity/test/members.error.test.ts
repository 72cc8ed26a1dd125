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

const ADMIN_REQUIRED = { error: "Organization administrator required", code: "admin_required" }

describe("member errors", () => {
  it("refuses a password under 10 characters and an unknown role, naming the fields", async () => {
    const response = await harness.app.inject({
      method: "POST",
      url: "/api/org/members",
      headers: org.admin,
      payload: { email: "short@example.com", password: "123456789", role: "owner" },
    })
    expect(response.statusCode).toBe(400)
    const paths = response.json().issues.map((i: { path: string }) => i.path)
    expect(paths).toEqual(expect.arrayContaining(["password", "role"]))
    const rows = await harness.sql`select 1 from identity.users where email = 'short@example.com'`
    expect(rows.length).toBe(0)
  })

  it("refuses a password of ten spaces, or one easy to guess, naming the field and creating no one", async () => {
    for (const password of ["          ", "0123456789", "password12", "qwertyuiop", "guessable@example.com"]) {
      const response = await harness.app.inject({
        method: "POST",
        url: "/api/org/members",
        headers: org.admin,
        payload: { email: "guessable@example.com", password, role: "member" },
      })
      expect(response.statusCode, password).toBe(400)
      expect(response.json()).toMatchObject({ code: "invalid_request", issues: [{ path: "password" }] })
    }
    const rows = await harness.sql`select 1 from identity.users where email = 'guessable@example.com'`
    expect(rows.length).toBe(0)
  })

  it("answers 400, not 500, for an email carrying U+0000", async () => {
    const response = await harness.app.inject({
      method: "POST",
      url: "/api/org/members",
      headers: org.admin,
      payload: { email: "nul\u0000@example.com", password: "lantern-orchard-7", role: "member" },
    })
    expect(response.statusCode).toBe(400)
    expect(response.json().issues.map((i: { path: string }) => i.path)).toEqual(["email"])
  })

  it("answers 409 for an email already used, in any letter case", async () => {
    const response = await harness.app.inject({
      method: "POST",
      url: "/api/org/members",
      headers: org.admin,
      payload: { email: org.adminEmail.toUpperCase(), password: "lantern-orchard-7", role: "member" },
    })
    expect(response.statusCode).toBe(409)
    expect(response.json()).toEqual({ error: "A user with this email already exists", code: "conflict" })
  })

  it("refuses members on administrator routes with 403 admin_required", async () => {
    const member = await addMember(harness, org)
    const add = await harness.app.inject({
      method: "POST",
      url: "/api/org/members",
      headers: member.headers,
      payload: { email: "x@example.com", password: "lantern-orchard-7", role: "admin" },
    })
    expect(add.statusCode).toBe(403)
    expect(add.json()).toEqual(ADMIN_REQUIRED)
    const remove = await harness.app.inject({
      method: "DELETE",
      url: `/api/org/members/${org.adminId}`,
      headers: member.headers,
    })
    expect(remove.statusCode).toBe(403)
    expect(remove.json()).toEqual(ADMIN_REQUIRED)
  })

  it("answers 404 for an unknown member", async () => {
    const response = await harness.app.inject({
      method: "DELETE",
      url: "/api/org/members/usr_0000000000000000000000",
      headers: org.admin,
    })
    expect(response.statusCode).toBe(404)
    expect(response.json()).toEqual({ error: "Not found", code: "not_found" })
  })

  it("refuses to remove yourself with 409", async () => {
    const response = await harness.app.inject({
      method: "DELETE",
      url: `/api/org/members/${org.adminId}`,
      headers: org.admin,
    })
    expect(response.statusCode).toBe(409)
    expect(response.json()).toEqual({
      error: "You cannot remove yourself; another administrator can",
      code: "conflict",
    })
  })

  it("refuses to remove the last administrator with 409", async () => {
    // A key acts as administrator without being a user, so only the last-admin rule stands in the way.
    const asKey = principalHeader({
      orgId: org.orgId,
      role: "admin",
      actor: { type: "api_key", keyId: KeyId.make("key_0000000000000000000000"), scopes: [] },
    })
    const response = await harness.app.inject({
      method: "DELETE",
      url: `/api/org/members/${org.adminId}`,
      headers: asKey,
    })
    expect(response.statusCode).toBe(409)
    expect(response.json()).toEqual({ error: "An organization must keep at least one administrator", code: "conflict" })
  })

  it("of two administrators removing each other at once, one succeeds and one administrator remains", async () => {
    const a = await addMember(harness, org, "admin")
    const b = await addMember(harness, org, "admin")
    // Remove the founder first so a and b are the only administrators.
    expect(
      (await harness.app.inject({ method: "DELETE", url: `/api/org/members/${org.adminId}`, headers: a.headers }))
        .statusCode,
    ).toBe(204)
    const [ab, ba] = await Promise.all([
      harness.app.inject({ method: "DELETE", url: `/api/org/members/${b.id}`, headers: a.headers }),
      harness.app.inject({ method: "DELETE", url: `/api/org/members/${a.id}`, headers: b.headers }),
    ])
    expect([ab.statusCode, ba.statusCode].sort()).toEqual([204, 409])
    const admins = await harness.sql`
      select count(*)::int as n from identity.users where org_id = ${org.orgId} and role = 'admin' and removed_at is null`
    expect(admins[0]?.n).toBe(1)
  })
})

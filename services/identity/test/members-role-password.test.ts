import { KeyId } from "@parley/contracts"
/**
 * Changing a member's role (`PATCH /api/org/members/:id`, an administrator's) and one's own password
 * (`PUT /api/auth/password`, any session): what they change, what they refuse and which sessions end.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  addMember,
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
  org = await createOrganization(harness)
})
afterAll(() => harness.close())

const patchRole = (headers: Record<string, string>, id: string, role: unknown) =>
  harness.app.inject({ method: "PATCH", url: `/api/org/members/${id}`, headers, payload: { role } })

const login = (email: string, password: string) =>
  harness.app.inject({ method: "POST", url: "/api/auth/login", payload: { email, password } })

const sessionAlive = async (token: string) =>
  (await internalPost(harness, "/internal/sessions/lookup", { tokenDigest: digestOf(token) })).statusCode === 200

describe("changing a member's role", () => {
  it("makes a member an administrator, whose live session carries the new role at once", async () => {
    const member = await addMember(harness, org)
    const token = cookieToken(await login(member.email, member.password))
    const response = await patchRole(org.admin, member.id, "admin")
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json()).toEqual({ id: member.id, email: member.email, role: "admin" })
    const session = await internalPost(harness, "/internal/sessions/lookup", { tokenDigest: digestOf(token) })
    expect(session.json().role).toBe("admin")
    // And back: another administrator remains, so it is allowed.
    expect((await patchRole(org.admin, member.id, "member")).json().role).toBe("member")
  })

  it("refuses to make the last administrator a member with 409, and the role stays", async () => {
    const lone = await createOrganization(harness, { name: "Lone" })
    const response = await patchRole(lone.admin, lone.adminId, "member")
    expect(response.statusCode).toBe(409)
    expect(response.json()).toEqual({ error: "An organization must keep at least one administrator", code: "conflict" })
    const [row] = await harness.sql`select role from identity.users where id = ${lone.adminId}`
    expect(row?.role).toBe("admin")
  })

  it("is an administrator's: a member gets 403 admin_required; an unknown role is 400, an unknown id 404", async () => {
    const member = await addMember(harness, org)
    const refused = await patchRole(member.headers, member.id, "admin")
    expect(refused.statusCode).toBe(403)
    expect(refused.json().code).toBe("admin_required")
    const bad = await patchRole(org.admin, member.id, "owner")
    expect(bad.statusCode).toBe(400)
    expect(bad.json().code).toBe("invalid_request")
    expect((await patchRole(org.admin, "usr_nobody", "admin")).statusCode).toBe(404)
    const [row] = await harness.sql`select role from identity.users where id = ${member.id}`
    expect(row?.role).toBe("member")
  })
})

describe("changing one's own password", () => {
  const change = (headers: Record<string, string>, token: string, payload: unknown) =>
    harness.app.inject({
      method: "PUT",
      url: "/api/auth/password",
      headers: { ...headers, cookie: `parley_session=${token}` },
      payload: payload as Record<string, unknown>,
    })

  it("answers 204, keeps the asking session, ends the others, and the new password signs in", async () => {
    const member = await addMember(harness, org)
    const here = cookieToken(await login(member.email, member.password))
    const elsewhere = cookieToken(await login(member.email, member.password))
    const response = await change(member.headers, here, {
      currentPassword: member.password,
      newPassword: "a brand new passphrase",
    })
    expect(response.statusCode, response.body).toBe(204)
    expect(await sessionAlive(here)).toBe(true)
    expect(await sessionAlive(elsewhere)).toBe(false)
    expect((await login(member.email, member.password)).statusCode).toBe(401)
    expect((await login(member.email, "a brand new passphrase")).statusCode).toBe(200)
  })

  it("refuses a wrong current password with 400 naming the field, and changes nothing", async () => {
    const member = await addMember(harness, org)
    const here = cookieToken(await login(member.email, member.password))
    const elsewhere = cookieToken(await login(member.email, member.password))
    const response = await change(member.headers, here, {
      currentPassword: "not my password",
      newPassword: "a brand new passphrase",
    })
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({
      error: "Invalid request: currentPassword is not your current password",
      code: "invalid_request",
      issues: [{ path: "currentPassword", message: "is not your current password" }],
    })
    expect(await sessionAlive(elsewhere)).toBe(true)
    expect((await login(member.email, member.password)).statusCode).toBe(200)
  })

  it("refuses a new password under 10 characters or easy to guess, naming newPassword", async () => {
    const member = await addMember(harness, org)
    const here = cookieToken(await login(member.email, member.password))
    for (const newPassword of ["short", "password123"]) {
      const response = await change(member.headers, here, { currentPassword: member.password, newPassword })
      expect(response.statusCode, newPassword).toBe(400)
      expect(JSON.stringify(response.json().issues)).toContain("newPassword")
    }
    expect((await login(member.email, member.password)).statusCode).toBe(200)
  })

  it("is a dashboard user's: an API key's principal gets 401, and another organization's user id is no one", async () => {
    const keyActor = principalHeader({
      orgId: org.orgId,
      role: "admin",
      actor: { type: "api_key", keyId: KeyId.make("key_0000000000000000000000"), scopes: [] },
    })
    const byKey = await harness.app.inject({
      method: "PUT",
      url: "/api/auth/password",
      headers: keyActor,
      payload: { currentPassword: "whatever it is", newPassword: "a brand new passphrase" },
    })
    expect(byKey.statusCode).toBe(401)
    const other = await createOrganization(harness, { name: "Other" })
    const crossed = principalHeader({
      orgId: org.orgId,
      role: "admin",
      actor: { type: "user", userId: other.adminId },
    })
    const response = await harness.app.inject({
      method: "PUT",
      url: "/api/auth/password",
      headers: crossed,
      payload: { currentPassword: other.adminPassword, newPassword: "a brand new passphrase" },
    })
    expect(response.statusCode).toBe(401)
    expect((await login(other.adminEmail, other.adminPassword)).statusCode).toBe(200)
  })
})

import { KeyId } from "@parley/contracts"
/**
 * Organization A's credentials against organization B's resources, on every identity route that
 * takes an id or lists something: always 404 or A's own data, and B is left unchanged.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  addMember,
  createKey,
  createOrganization,
  type Harness,
  principalHeader,
  startIdentity,
  type TestOrganization,
} from "./harness.ts"

let harness: Harness
let a: TestOrganization
let b: TestOrganization
let bKey: { id: string; key: string }
let bMember: { id: string }
let aKeyActor: Record<string, string>

beforeAll(async () => {
  harness = await startIdentity()
  a = await createOrganization(harness, { name: "Org A" })
  b = await createOrganization(harness, { name: "Org B" })
  const created = await createKey(harness, b, { name: "B's key" })
  if (created.statusCode !== 201) throw new Error(`B's key: ${created.statusCode} ${created.body}`)
  bKey = created.json()
  bMember = await addMember(harness, b)
  await createKey(harness, a, { name: "A's key" })
  aKeyActor = principalHeader({
    orgId: a.orgId,
    role: "admin",
    actor: { type: "api_key", keyId: KeyId.make("key_0000000000000000000000"), scopes: [] },
  })
})
afterAll(() => harness.close())

const NOT_FOUND = { error: "Not found", code: "not_found" }

describe("tenant isolation", () => {
  for (const who of ["session", "key"] as const) {
    const headers = () => (who === "session" ? a.admin : aKeyActor)

    it(`A's ${who} gets 404 for B's key on GET and DELETE, and B's key stays active`, async () => {
      for (const method of ["GET", "DELETE"] as const) {
        const response = await harness.app.inject({ method, url: `/api/org/api-keys/${bKey.id}`, headers: headers() })
        expect(response.statusCode, response.body).toBe(404)
        expect(response.json()).toEqual(NOT_FOUND)
      }
      const row = await harness.sql`select revoked_at from identity.api_keys where id = ${bKey.id}`
      expect(row[0]?.revoked_at).toBeNull()
    })

    it(`A's ${who} lists only A's keys and A's members`, async () => {
      const keys = await harness.app.inject({ method: "GET", url: "/api/org/api-keys", headers: headers() })
      expect(keys.json().data.map((k: { name: string }) => k.name)).toEqual(["A's key"])
      const members = await harness.app.inject({ method: "GET", url: "/api/org/members", headers: headers() })
      expect(members.json().data.map((m: { id: string }) => m.id)).toEqual([a.adminId])
    })

    it(`A's ${who} gets 404 changing the role of B's member or B's admin, whose roles stay`, async () => {
      for (const [id, role] of [
        [bMember.id, "admin"],
        [b.adminId, "member"],
      ] as const) {
        const response = await harness.app.inject({
          method: "PATCH",
          url: `/api/org/members/${id}`,
          headers: headers(),
          payload: { role },
        })
        expect(response.statusCode, response.body).toBe(404)
        expect(response.json()).toEqual(NOT_FOUND)
      }
      const rows =
        await harness.sql`select id, role from identity.users where org_id = ${b.orgId} and removed_at is null`
      expect(Object.fromEntries(rows.map((r) => [r.id, r.role]))).toEqual({
        [bMember.id]: "member",
        [b.adminId]: "admin",
      })
    })

    it(`A's ${who} gets 404 removing B's member or B's admin, who stay`, async () => {
      for (const id of [bMember.id, b.adminId]) {
        const response = await harness.app.inject({
          method: "DELETE",
          url: `/api/org/members/${id}`,
          headers: headers(),
        })
        expect(response.statusCode, response.body).toBe(404)
        expect(response.json()).toEqual(NOT_FOUND)
      }
      const rows =
        await harness.sql`select count(*)::int as n from identity.users where org_id = ${b.orgId} and removed_at is null`
      expect(rows[0]?.n).toBe(2)
    })
  }

  it("a principal of A naming B's user is no one: me answers 401 and reveals nothing of B", async () => {
    const crossed = principalHeader({
      orgId: a.orgId,
      role: "admin",
      actor: { type: "user", userId: b.adminId },
    })
    const response = await harness.app.inject({ method: "GET", url: "/api/auth/me", headers: crossed })
    expect(response.statusCode).toBe(401)
    expect(response.body).not.toContain(b.adminEmail)
    expect(response.body).not.toContain("Org B")
  })

  it("a member A adds never appears in B's list", async () => {
    const member = await addMember(harness, a)
    const bMembers = await harness.app.inject({ method: "GET", url: "/api/org/members", headers: b.admin })
    expect(bMembers.json().data.map((m: { id: string }) => m.id)).not.toContain(member.id)
  })
})

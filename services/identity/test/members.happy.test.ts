import { decodeBusValue, MemberRemoved, Topics } from "@parley/contracts"
import { eventually } from "@parley/platform/testing"
import { Effect } from "effect"
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
  uniqueEmail,
} from "./harness.ts"

let harness: Harness
let org: TestOrganization
beforeAll(async () => {
  harness = await startIdentity()
  org = await createOrganization(harness)
})
afterAll(() => harness.close())

describe("members", () => {
  it("an administrator adds a member, who can log in with that role", async () => {
    const email = uniqueEmail("Dana")
    const response = await harness.app.inject({
      method: "POST",
      url: "/api/org/members",
      headers: org.admin,
      payload: { email, password: "ten chars!", role: "member" },
    })
    expect(response.statusCode).toBe(201)
    expect(response.json()).toEqual({ id: expect.stringMatching(/^usr_/), email, role: "member" })
    const login = await harness.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { email, password: "ten chars!" },
    })
    expect(login.statusCode).toBe(200)
    expect(login.json().user.role).toBe("member")
  })

  it("lists the organization's members newest first, to members too", async () => {
    const member = await addMember(harness, org)
    const response = await harness.app.inject({ method: "GET", url: "/api/org/members", headers: member.headers })
    expect(response.statusCode).toBe(200)
    const { data } = response.json()
    expect(data[0]).toEqual({ id: member.id, email: member.email, role: "member" })
    expect(data.at(-1)).toEqual({ id: org.adminId, email: org.adminEmail, role: "admin" })
  })

  it("removing a member answers 204, ends their sessions and drops them from the list", async () => {
    const member = await addMember(harness, org)
    const login = await harness.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { email: member.email, password: member.password },
    })
    const token = cookieToken(login)
    const response = await harness.app.inject({
      method: "DELETE",
      url: `/api/org/members/${member.id}`,
      headers: org.admin,
    })
    expect(response.statusCode).toBe(204)
    expect(
      (await internalPost(harness, "/internal/sessions/lookup", { tokenDigest: digestOf(token) })).statusCode,
    ).toBe(404)
    const sessions = await harness.sql`select count(*)::int as n from identity.sessions where user_id = ${member.id}`
    expect(sessions[0]?.n).toBe(0)
    const list = await harness.app.inject({ method: "GET", url: "/api/org/members", headers: org.admin })
    expect(list.json().data.map((m: { id: string }) => m.id)).not.toContain(member.id)
  })

  it("removing a member announces it once on parley.identity.members.v1, keyed by the member", async () => {
    const member = await addMember(harness, org)
    const remove = () =>
      harness.app.inject({ method: "DELETE", url: `/api/org/members/${member.id}`, headers: org.admin })
    expect((await remove()).statusCode).toBe(204)
    expect((await remove()).statusCode).toBe(404)

    const records = await harness.collect(Topics.identityMembers)
    const [mine] = await eventually(() => {
      const matching = records.filter((r) => r.key === member.id)
      expect(matching).toHaveLength(1)
      return matching
    })
    const removed = await Effect.runPromise(decodeBusValue(MemberRemoved)(String(mine?.value)))
    expect(removed).toEqual({ orgId: org.orgId, userId: member.id, removedAt: expect.any(String) })
    // The removal that was refused (404) announced nothing more.
    expect(records.filter((r) => r.key === member.id)).toHaveLength(1)
  })

  it("an administrator can remove another administrator while one remains", async () => {
    const second = await addMember(harness, org, "admin")
    const response = await harness.app.inject({
      method: "DELETE",
      url: `/api/org/members/${second.id}`,
      headers: org.admin,
    })
    expect(response.statusCode).toBe(204)
  })

  it("a removed member's email can be registered again", async () => {
    const member = await addMember(harness, org)
    await harness.app.inject({ method: "DELETE", url: `/api/org/members/${member.id}`, headers: org.admin })
    const again = await harness.app.inject({
      method: "POST",
      url: "/api/org/members",
      headers: org.admin,
      payload: { email: member.email, password: "lantern-orchard-7", role: "member" },
    })
    expect(again.statusCode).toBe(201)
  })
})

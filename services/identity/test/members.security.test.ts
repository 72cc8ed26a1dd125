/**
 * Adding a member tells an organization nothing about other organizations' users (issue #22): an
 * email may belong to several organizations, so an email with an account elsewhere is added as a
 * membership — same status, same body, the same work. Each membership signs in with the password
 * its own organization set: no administrator can choose the password of a membership another
 * organization adds (a black-box tester took over an account that way).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  createOrganization,
  type Harness,
  operatorHeaders,
  startIdentity,
  type TestOrganization,
  uniqueEmail,
} from "./harness.ts"

let harness: Harness
let home: TestOrganization
let other: TestOrganization
beforeAll(async () => {
  harness = await startIdentity()
  home = await createOrganization(harness, { name: "Home" })
  other = await createOrganization(harness, { name: "Other" })
})
afterAll(() => harness.close())

const add = (org: TestOrganization, email: string, password = "lantern-orchard-7", role = "member") =>
  harness.app.inject({
    method: "POST",
    url: "/api/org/members",
    headers: org.admin,
    payload: { email, password, role },
  })

const login = (email: string, password: string, organizationId?: string) =>
  harness.app.inject({
    method: "POST",
    url: "/api/auth/login",
    payload: { email, password, ...(organizationId === undefined ? {} : { organizationId }) },
  })

/** Everything an answer shows, with the values that differ per call (ids, request ids, dates) reduced to their form. */
const shape = (response: Awaited<ReturnType<typeof add>>) => ({
  status: response.statusCode,
  headers: Object.keys(response.headers)
    .filter((name) => name !== "date")
    .sort(),
  body: Object.fromEntries(
    Object.entries(response.json() as Record<string, string>).map(([key, value]) => [
      key,
      key === "id" ? value.replace(/^usr_[0-9A-Za-z]+$/, "usr_…") : value,
    ]),
  ),
})

describe("adding a member whose email has an account in another organization", () => {
  it("answers exactly as for a new person: 201, the same headers and body", async () => {
    const elsewhere = uniqueEmail("elsewhere")
    expect((await add(other, elsewhere, "river-stone-lamp-4")).statusCode).toBe(201)
    const fresh = uniqueEmail("fresh")
    const existing = shape(await add(home, elsewhere))
    const created = shape(await add(home, fresh))
    expect(existing).toEqual({ ...created, body: { ...created.body, email: elsewhere } })
    expect(existing.body).toEqual({ id: "usr_…", email: elsewhere, role: "member" })
  })

  it("signs each membership in with the password its own organization set", async () => {
    const email = uniqueEmail("person")
    expect((await add(other, email, "river-stone-lamp-4")).statusCode).toBe(201)
    const joined = await add(home, email, "a-different-pass-9")
    expect(joined.statusCode).toBe(201)
    const first = await login(email, "river-stone-lamp-4")
    expect(first.statusCode).toBe(200)
    expect(first.json().organization.id).toBe(other.orgId)
    const second = await login(email, "a-different-pass-9")
    expect(second.statusCode).toBe(200)
    expect(second.json()).toMatchObject({ organization: { id: home.orgId }, user: { id: joined.json().id } })
    // One organization's password never opens the other's membership.
    expect((await login(email, "river-stone-lamp-4", home.orgId)).statusCode).toBe(401)
    expect((await login(email, "a-different-pass-9", other.orgId)).statusCode).toBe(401)
    // Home lists the person as its member; the other organization's list is untouched by it.
    const homeList = await harness.app.inject({ method: "GET", url: "/api/org/members", headers: home.admin })
    expect(homeList.json().data.map((m: { email: string }) => m.email)).toContain(email)
  })

  it("lands a password two memberships share in the one joined first, or in the one asked for", async () => {
    const email = uniqueEmail("shared")
    expect((await add(other, email, "river-stone-lamp-4")).statusCode).toBe(201)
    const joined = await add(home, email, "river-stone-lamp-4")
    expect((await login(email, "river-stone-lamp-4")).json().organization.id).toBe(other.orgId)
    const chosen = await login(email, "river-stone-lamp-4", home.orgId)
    expect(chosen.json()).toMatchObject({ organization: { id: home.orgId }, user: { id: joined.json().id } })
  })

  it("answers a sign-in to an organization the person does not belong to as wrong credentials", async () => {
    const email = uniqueEmail("outsider")
    expect((await add(other, email, "river-stone-lamp-4")).statusCode).toBe(201)
    const refused = await login(email, "river-stone-lamp-4", home.orgId)
    expect(refused.statusCode).toBe(401)
    expect(refused.json()).toEqual({ error: "Invalid email or password", code: "unauthorized" })
  })

  it("removing the membership in one organization leaves the other membership signed in", async () => {
    const email = uniqueEmail("leaver")
    expect((await add(other, email, "river-stone-lamp-4")).statusCode).toBe(201)
    const joined = await add(home, email)
    const removed = await harness.app.inject({
      method: "DELETE",
      url: `/api/org/members/${joined.json().id}`,
      headers: home.admin,
    })
    expect(removed.statusCode).toBe(204)
    expect((await login(email, "river-stone-lamp-4")).json().organization.id).toBe(other.orgId)
    expect((await login(email, "river-stone-lamp-4", home.orgId)).statusCode).toBe(401)
  })

  it("still answers 409 for an email already a member of this organization (its own members only)", async () => {
    const email = uniqueEmail("twice")
    expect((await add(home, email)).statusCode).toBe(201)
    const again = await add(home, email.toUpperCase())
    expect(again.statusCode).toBe(409)
  })

  it("adds a new person that two organizations add at once to both, each with its own password", async () => {
    const email = uniqueEmail("race")
    const [a, b] = await Promise.all([add(home, email, "first-password-1"), add(other, email, "second-password-2")])
    expect([a.statusCode, b.statusCode]).toEqual([201, 201])
    expect((await login(email, "first-password-1", home.orgId)).statusCode).toBe(200)
    expect((await login(email, "second-password-2", other.orgId)).statusCode).toBe(200)
  })

  it("takes as long for an email with an account elsewhere as for a new one", async () => {
    // Both run the same scrypt and the same queries. The fastest of interleaved runs is what the work
    // itself costs (a busy neighbour only ever adds time); a wide margin for a shared machine.
    const timed = async (email: string) => {
      const started = performance.now()
      const response = await add(home, email)
      expect(response.statusCode).toBe(201)
      return performance.now() - started
    }
    const existing: Array<number> = []
    const fresh: Array<number> = []
    for (let i = 0; i < 9; i++) {
      const elsewhere = uniqueEmail("timed")
      expect((await add(other, elsewhere)).statusCode).toBe(201)
      existing.push(await timed(elsewhere))
      fresh.push(await timed(uniqueEmail("timed-new")))
    }
    const fastest = (values: Array<number>) => Math.min(...values)
    const ratio = fastest(existing) / fastest(fresh)
    const said = `existing ${fastest(existing).toFixed(1)} ms, new ${fastest(fresh).toFixed(1)} ms`
    expect(ratio, said).toBeGreaterThan(0.5)
    expect(ratio, said).toBeLessThan(2)
  })
})

describe("an administrator who adds someone else's address first (account takeover, found by a black-box tester)", () => {
  const attackerPassword = "Attacker-chosen-pass-55"

  it("holds no key to the membership another organization adds later, before or after removing its own", async () => {
    const email = uniqueEmail("newhire")
    const squat = await add(home, email.toUpperCase(), attackerPassword)
    expect(squat.statusCode).toBe(201)
    const real = await add(other, email, "Newhire-own-pass-1", "admin")
    expect(real.statusCode).toBe(201)
    // The person signs in to their organization with the password it set for them.
    const own = await login(email, "Newhire-own-pass-1")
    expect(own.statusCode).toBe(200)
    expect(own.json()).toMatchObject({ organization: { id: other.orgId }, user: { id: real.json().id, role: "admin" } })
    // The squatter's password opens only the squatter's own membership, and nothing once it is removed.
    expect((await login(email, attackerPassword, other.orgId)).statusCode).toBe(401)
    expect((await login(email, attackerPassword)).json().organization.id).toBe(home.orgId)
    const removed = await harness.app.inject({
      method: "DELETE",
      url: `/api/org/members/${squat.json().id}`,
      headers: home.admin,
    })
    expect(removed.statusCode).toBe(204)
    expect((await login(email, attackerPassword)).statusCode).toBe(401)
    expect((await login(email, "Newhire-own-pass-1")).statusCode).toBe(200)
  })

  it("holds no key to the administrator of an organization the operator creates later", async () => {
    const email = uniqueEmail("future-admin")
    expect((await add(home, email, attackerPassword)).statusCode).toBe(201)
    const created = await harness.app.inject({
      method: "POST",
      url: "/api/operator/organizations",
      headers: operatorHeaders,
      payload: { name: "Later", admin: { email, password: "Later-admin-pass-1" } },
    })
    expect(created.statusCode).toBe(201)
    const later = created.json().organization.id as string
    expect((await login(email, "Later-admin-pass-1")).json()).toMatchObject({ organization: { id: later } })
    expect((await login(email, attackerPassword, later)).statusCode).toBe(401)
  })

  it("tells the adding organization nothing: its own password opens its own membership either way", async () => {
    const taken = uniqueEmail("exists")
    expect((await add(other, taken, "river-stone-lamp-4")).statusCode).toBe(201)
    const fresh = uniqueEmail("fresh")
    for (const email of [taken, fresh]) {
      expect((await add(home, email, "probe-password-7")).statusCode).toBe(201)
      const probe = await login(email, "probe-password-7")
      expect(probe.statusCode).toBe(200)
      expect(probe.json().organization.id).toBe(home.orgId)
    }
  })
})

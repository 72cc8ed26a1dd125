import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { FreeFailures, membershipKeyOf } from "../src/accounts/login-throttle.ts"
import {
  addMember,
  cookieToken,
  createOrganization,
  type Harness,
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

const login = (email: string, password: string, cookie?: string, organizationId?: string) =>
  harness.app.inject({
    method: "POST",
    url: "/api/auth/login",
    payload: { email, password, ...(organizationId === undefined ? {} : { organizationId }) },
    ...(cookie === undefined ? {} : { headers: { cookie } }),
  })

const deviceCookieOf = (response: Awaited<ReturnType<typeof login>>): string => {
  const cookies = ([] as Array<string>).concat(response.headers["set-cookie"] ?? [])
  const device = cookies.find((c) => c.startsWith("parley_device="))
  if (device === undefined) throw new Error(`no parley_device cookie in ${JSON.stringify(cookies)}`)
  return device.split(";")[0] as string
}

const RATE_LIMITED = { error: "Too many requests, slow down", code: "rate_limited" }

/** Lets the membership's lock run out, as waiting would. */
const expireLock = (member: { id: string }) =>
  harness.sql`update identity.login_failures set locked_until = now() - interval '1 second'
              where account_key = ${membershipKeyOf(member.id)}`

describe("failed logins for one account", () => {
  it("locks the account for unknown browsers after five failures — the right password too — with Retry-After, and lets it go when the lock runs out", async () => {
    const member = await addMember(harness, org)
    for (let i = 1; i < FreeFailures; i++) expect((await login(member.email, `wrong-${i}`)).statusCode).toBe(401)
    // The fifth failure earns a lock of 30 s.
    expect((await login(member.email, "wrong-5")).statusCode).toBe(401)
    const refused = await login(member.email, member.password)
    expect(refused.statusCode).toBe(429)
    expect(refused.json()).toEqual(RATE_LIMITED)
    expect(Number(refused.headers["retry-after"])).toBeGreaterThanOrEqual(25)
    expect(Number(refused.headers["retry-after"])).toBeLessThanOrEqual(30)
    await expireLock(member)
    // One more failure now locks for twice as long.
    expect((await login(member.email, "wrong-6")).statusCode).toBe(401)
    expect(Number((await login(member.email, member.password)).headers["retry-after"])).toBeGreaterThan(50)
    await expireLock(member)
    expect((await login(member.email, member.password)).statusCode).toBe(200)
    // A success starts the count over: five more free attempts.
    for (let i = 1; i < FreeFailures; i++) expect((await login(member.email, `again-${i}`)).statusCode).toBe(401)
    expect((await login(member.email, member.password)).statusCode).toBe(200)
  })

  it("never locks a user out of a browser they signed in from, however long someone else guesses", async () => {
    const member = await addMember(harness, org)
    const device = deviceCookieOf(await login(member.email, member.password))
    // An attacker without the cookie keeps the account locked for unknown browsers...
    for (let i = 0; i < FreeFailures + 3; i++) await login(member.email, `guess-${i}`)
    expect((await login(member.email, member.password)).statusCode).toBe(429)
    // ...and the user signs in from their own browser all the same, even after a typo.
    expect((await login(member.email, "a typo", device)).statusCode).toBe(401)
    const signedIn = await login(member.email, member.password, device)
    expect(signedIn.statusCode).toBe(200)
    expect(signedIn.headers["set-cookie"]?.toString()).toContain("parley_session=")
    // The cookie is that user's only: another account gets no pass from it.
    const other = await addMember(harness, org)
    for (let i = 0; i < FreeFailures; i++) await login(other.email, `guess-${i}`)
    expect((await login(other.email, other.password, device)).statusCode).toBe(429)
  })

  it("takes a browser's standing away after five failures of its own", async () => {
    const member = await addMember(harness, org)
    const device = deviceCookieOf(await login(member.email, member.password))
    for (let i = 0; i < FreeFailures; i++)
      expect((await login(member.email, `stolen-${i}`, device)).statusCode).toBe(401)
    for (let i = 0; i < FreeFailures; i++) await login(member.email, `guess-${i}`)
    expect((await login(member.email, member.password, device)).statusCode).toBe(429)
  })

  it("counts an unknown email exactly as a known one, so the answers tell nothing about who has an account", async () => {
    const unknown = `nobody-${crypto.randomUUID()}@example.com`
    const answers = []
    for (let i = 0; i < FreeFailures + 1; i++) answers.push((await login(unknown, `guess-${i}`)).statusCode)
    expect(answers).toEqual([401, 401, 401, 401, 401, 429])
  })

  it("sends the device cookie only to the sign-in routes, out of scripts' reach", async () => {
    const member = await addMember(harness, org)
    const cookies = ([] as Array<string>).concat(
      (await login(member.email, member.password)).headers["set-cookie"] ?? [],
    )
    const device = cookies.find((c) => c.startsWith("parley_device=")) ?? ""
    expect(device).toMatch(/^parley_device=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Strict; Path=\/api\/auth; Max-Age=\d+/)
    const [row] = await harness.sql<Array<{ n: number }>>`
      select count(*)::int as n from identity.trusted_devices where token_digest = ${device.split(";")[0]?.split("=")[1] ?? ""}`
    // Only the token's digest is stored.
    expect(row?.n).toBe(0)
  })
})

describe("wrong current passwords when changing one's own password", () => {
  const changePassword = (member: { headers: Record<string, string> }, token: string, currentPassword: string) =>
    harness.app.inject({
      method: "PUT",
      url: "/api/auth/password",
      headers: { ...member.headers, cookie: `parley_session=${token}` },
      payload: { currentPassword, newPassword: "a brand new passphrase" },
    })

  it("count against the account like failed logins: five are answered 400, then 429 with Retry-After — the right one too — and nothing changes", async () => {
    const member = await addMember(harness, org)
    const token = cookieToken(await login(member.email, member.password))
    const answers = []
    for (let i = 1; i <= FreeFailures; i++) answers.push((await changePassword(member, token, `guess-${i}`)).statusCode)
    expect(answers).toEqual([400, 400, 400, 400, 400])
    const refused = await changePassword(member, token, member.password)
    expect(refused.statusCode).toBe(429)
    expect(refused.json()).toEqual(RATE_LIMITED)
    expect(Number(refused.headers["retry-after"])).toBeGreaterThanOrEqual(25)
    // The same counter as login's: the account is locked for browsers it has not signed in from.
    expect((await login(member.email, member.password)).statusCode).toBe(429)
    await expireLock(member)
    // The password never changed, and once the lock runs out the right current password changes it.
    expect((await changePassword(member, token, member.password)).statusCode).toBe(204)
    expect((await login(member.email, "a brand new passphrase")).statusCode).toBe(200)
  })

  it("start over after the right current password", async () => {
    const member = await addMember(harness, org)
    const token = cookieToken(await login(member.email, member.password))
    for (let i = 1; i < FreeFailures; i++)
      expect((await changePassword(member, token, `guess-${i}`)).statusCode).toBe(400)
    expect((await changePassword(member, token, member.password)).statusCode).toBe(204)
    // Without the fresh start the second of these would be the account's sixth failure in a row: 429.
    for (let i = 1; i < FreeFailures; i++) {
      expect((await changePassword(member, token, `again-${i}`)).statusCode).toBe(400)
    }
  })
})

describe("one email in two organizations (a black-box tester's way around the lock)", () => {
  /** The victim's membership in `org`, and the attacker's own membership of the same email elsewhere. */
  const twoMemberships = async () => {
    const victim = await addMember(harness, org)
    const attackerOrg = await createOrganization(harness, { name: "Squatter" })
    const added = await harness.app.inject({
      method: "POST",
      url: "/api/org/members",
      headers: attackerOrg.admin,
      payload: { email: victim.email, password: "Attacker-Known-55", role: "member" },
    })
    expect(added.statusCode).toBe(201)
    return { victim, attackerOrg }
  }

  it("does not let a success in one membership clear the guesses against the other", async () => {
    const { victim, attackerOrg } = await twoMemberships()
    const answers: Array<number> = []
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 4; i++)
        answers.push((await login(victim.email, `guess-${round}-${i}`, undefined, org.orgId)).statusCode)
      // The attacker's own password opens the attacker's own membership, and resets nothing else.
      expect((await login(victim.email, "Attacker-Known-55", undefined, attackerOrg.orgId)).statusCode).toBe(200)
    }
    expect(answers.slice(0, 5)).toEqual([401, 401, 401, 401, 401])
    expect(answers.slice(5).every((status) => status === 429)).toBe(true)
    // The victim's right password from a new browser waits out the lock like any other attempt.
    expect((await login(victim.email, victim.password, undefined, org.orgId)).statusCode).toBe(429)
  })

  it("counts guesses made without naming the organization against each membership they were tried on", async () => {
    const { victim } = await twoMemberships()
    for (let i = 0; i < FreeFailures; i++) expect((await login(victim.email, `guess-${i}`)).statusCode).toBe(401)
    // Both memberships are locked now; the attacker's own success in theirs does not unlock the victim's.
    expect((await login(victim.email, victim.password, undefined, org.orgId)).statusCode).toBe(429)
  })

  it("keeps each membership's own browser out of the other's lock", async () => {
    const { victim } = await twoMemberships()
    const device = deviceCookieOf(await login(victim.email, victim.password, undefined, org.orgId))
    for (let i = 0; i < FreeFailures + 2; i++) await login(victim.email, `guess-${i}`, undefined, org.orgId)
    expect((await login(victim.email, victim.password, undefined, org.orgId)).statusCode).toBe(429)
    expect((await login(victim.email, victim.password, device, org.orgId)).statusCode).toBe(200)
  })
})

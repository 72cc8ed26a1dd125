import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { deleteExpiredSessions } from "../src/sessions/session-repository.ts"
import { cookieToken, createOrganization, digestOf, type Harness, startIdentity } from "./harness.ts"

let harness: Harness
beforeAll(async () => {
  harness = await startIdentity()
})
afterAll(() => harness.close())

describe("session housekeeping", () => {
  it("deletes expired sessions and keeps live ones", async () => {
    const org = await createOrganization(harness)
    const login = () =>
      harness.app.inject({
        method: "POST",
        url: "/api/auth/login",
        payload: { email: org.adminEmail, password: org.adminPassword },
      })
    const expired = cookieToken(await login())
    const live = cookieToken(await login())
    await harness.sql`update identity.sessions set expires_at = now() - interval '1 minute' where token_digest = ${digestOf(expired)}`
    const deleted = await Effect.runPromise(deleteExpiredSessions(harness.sql))
    expect(deleted).toBe(1)
    const left = await harness.sql`select token_digest from identity.sessions`
    expect(left.map((r) => r.token_digest)).toEqual([digestOf(live)])
  })
})

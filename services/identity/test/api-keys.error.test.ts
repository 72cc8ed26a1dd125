import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  addMember,
  createKey,
  createOrganization,
  type Harness,
  internalPost,
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

const issuePaths = (body: { issues: Array<{ path: string }> }) => body.issues.map((i) => i.path)
const keyCount = async (orgId: string) =>
  (await harness.sql`select count(*)::int as n from identity.api_keys where org_id = ${orgId}`)[0]?.n

describe("API key errors", () => {
  it("refuses an unknown scope with a 400 naming the field, and creates nothing", async () => {
    const response = await createKey(harness, org, { name: "k", scopes: ["chat:write", "everything"] })
    expect(response.statusCode).toBe(400)
    expect(response.json().code).toBe("invalid_request")
    expect(response.json().error).toMatch(/^Invalid request: scopes/)
    expect(issuePaths(response.json())).toEqual(["scopes[1]"])
    expect(await keyCount(org.orgId)).toBe(0)
  })

  it("refuses origins that are not https://host[:port] (or http on loopback)", async () => {
    for (const origin of [
      "http://shop.example.com",
      "https://shop.example.com/path",
      "*",
      "https://*.example.com",
      "shop.example.com",
    ]) {
      const response = await createKey(harness, org, { name: "k", allowedOrigins: [origin] })
      expect(response.statusCode, origin).toBe(400)
      expect(issuePaths(response.json()), origin).toEqual(["allowedOrigins[0]"])
    }
    expect(await keyCount(org.orgId)).toBe(0)
  })

  it("refuses a missing, empty, over-long or NUL-carrying name", async () => {
    for (const name of [undefined, "", "   ", "x".repeat(101), "nul\u0000name"]) {
      const response = await createKey(harness, org, name === undefined ? {} : { name })
      expect(response.statusCode, String(name)).toBe(400)
      expect(issuePaths(response.json())).toEqual(["name"])
    }
  })

  it("an eleventh active key gets 403 key_limit and nothing is created; revoking one frees a place", async () => {
    const ids: Array<string> = []
    for (let i = 0; i < 10; i++) {
      const response = await createKey(harness, org, { name: `k${i}` })
      expect(response.statusCode).toBe(201)
      ids.push(response.json().id)
    }
    const eleventh = await createKey(harness, org, { name: "one too many" })
    expect(eleventh.statusCode).toBe(403)
    expect(eleventh.json()).toEqual({ error: "Maximum 10 active API keys", code: "key_limit" })
    expect(await keyCount(org.orgId)).toBe(10)
    await harness.app.inject({ method: "DELETE", url: `/api/org/api-keys/${ids[0]}`, headers: org.admin })
    expect((await createKey(harness, org, { name: "replacement" })).statusCode).toBe(201)
  })

  it("without the api_access feature, creating and revoking answer 403 plan_feature_required; listing works", async () => {
    const plain = await createOrganization(harness, { features: [] })
    const create = await createKey(harness, plain, { name: "k" })
    expect(create.statusCode).toBe(403)
    expect(create.json()).toEqual({ error: "Plan feature required: api_access", code: "plan_feature_required" })
    const revoke = await harness.app.inject({
      method: "DELETE",
      url: "/api/org/api-keys/key_0000000000000000000000",
      headers: plain.admin,
    })
    expect(revoke.statusCode).toBe(403)
    expect(revoke.json().code).toBe("plan_feature_required")
    const list = await harness.app.inject({ method: "GET", url: "/api/org/api-keys", headers: plain.admin })
    expect(list.statusCode).toBe(200)
    expect(list.json()).toEqual({ data: [] })
  })

  it("members get 403 admin_required on every key route", async () => {
    const member = await addMember(harness, org)
    const routes = [
      { method: "POST", url: "/api/org/api-keys", payload: { name: "k" } },
      { method: "GET", url: "/api/org/api-keys" },
      { method: "GET", url: "/api/org/api-keys/key_0000000000000000000000" },
      { method: "DELETE", url: "/api/org/api-keys/key_0000000000000000000000" },
    ] as const
    for (const route of routes) {
      const response = await harness.app.inject({ ...route, headers: member.headers })
      expect(response.statusCode, `${route.method} ${route.url}`).toBe(403)
      expect(response.json()).toEqual({ error: "Organization administrator required", code: "admin_required" })
    }
  })

  it("answers 400, not 500, for an id carrying U+0000", async () => {
    const response = await harness.app.inject({ method: "GET", url: "/api/org/api-keys/key_%00", headers: org.admin })
    expect(response.statusCode).toBe(400)
  })

  it("answers 404 for an unknown key on GET and DELETE", async () => {
    for (const method of ["GET", "DELETE"] as const) {
      const response = await harness.app.inject({ method, url: "/api/org/api-keys/key_unknown", headers: org.admin })
      expect(response.statusCode).toBe(404)
      expect(response.json()).toEqual({ error: "Not found", code: "not_found" })
    }
  })

  it("the internal lookups answer 400 for a digest that is not SHA-256 hex", async () => {
    const response = await internalPost(harness, "/internal/keys/lookup", { digest: "parley_abc" })
    expect(response.statusCode).toBe(400)
    const session = await internalPost(harness, "/internal/sessions/lookup", { tokenDigest: 7 })
    expect(session.statusCode).toBe(400)
  })
})

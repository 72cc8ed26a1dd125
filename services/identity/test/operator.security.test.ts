import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Harness, OPERATOR_TOKEN, startIdentity, uniqueEmail } from "./harness.ts"

const payload = () => ({ name: "X", admin: { email: uniqueEmail(), password: `pw-${crypto.randomUUID()}` } })

describe("the operator API with PARLEY_OPERATOR_TOKEN unset", () => {
  let harness: Harness
  beforeAll(async () => {
    harness = await startIdentity({ operatorToken: undefined })
  })
  afterAll(() => harness.close())

  it("answers 404 on every route, whatever the credentials and body", async () => {
    const requests = [
      { method: "POST", url: "/api/operator/organizations", payload: payload() },
      {
        method: "POST",
        url: "/api/operator/organizations",
        payload: "{broken",
        headers: { "content-type": "application/json" },
      },
      { method: "PATCH", url: "/api/operator/organizations/org_x", payload: { name: "y" } },
      { method: "GET", url: "/api/operator/organizations/org_x" },
    ] as const
    for (const request of requests) {
      for (const authorization of [undefined, `Bearer ${OPERATOR_TOKEN}`, "Bearer undefined", "Bearer "]) {
        const response = await harness.app.inject({
          ...request,
          headers: { ...("headers" in request ? request.headers : {}), ...(authorization ? { authorization } : {}) },
        })
        expect(response.statusCode, `${request.method} ${request.url} ${authorization}`).toBe(404)
        expect(response.json().code).toBe("not_found")
      }
    }
    const count = await harness.sql`select count(*)::int as n from identity.organizations`
    expect(count[0]?.n).toBe(0)
  })
})

describe("the operator API with a token", () => {
  let harness: Harness
  beforeAll(async () => {
    harness = await startIdentity()
  })
  afterAll(() => harness.close())

  it("answers 401 without a bearer token, with a wrong one, or with a prefix of the right one", async () => {
    for (const authorization of [
      undefined,
      "Bearer wrong",
      `Bearer ${OPERATOR_TOKEN.slice(0, -1)}`,
      `Basic ${OPERATOR_TOKEN}`,
      OPERATOR_TOKEN,
    ]) {
      const response = await harness.app.inject({
        method: "POST",
        url: "/api/operator/organizations",
        headers: authorization === undefined ? {} : { authorization },
        payload: payload(),
      })
      expect(response.statusCode, String(authorization)).toBe(401)
      expect(response.json()).toEqual({ error: "Invalid operator token", code: "unauthorized" })
    }
    const count = await harness.sql`select count(*)::int as n from identity.organizations`
    expect(count[0]?.n).toBe(0)
  })

  it("never writes the operator token or the admin password to the log", async () => {
    const body = payload()
    const response = await harness.app.inject({
      method: "POST",
      url: "/api/operator/organizations",
      headers: { authorization: `Bearer ${OPERATOR_TOKEN}` },
      payload: body,
    })
    expect(response.statusCode).toBe(201)
    const log = harness.logs.join("")
    expect(log).toContain("request completed")
    expect(log).not.toContain(OPERATOR_TOKEN)
    expect(log).not.toContain(body.admin.password)
  })
})

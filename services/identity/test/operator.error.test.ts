import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Harness, operatorHeaders, startIdentity, uniqueEmail } from "./harness.ts"

let harness: Harness
beforeAll(async () => {
  harness = await startIdentity()
})
afterAll(() => harness.close())

const create = (payload: unknown) =>
  harness.app.inject({
    method: "POST",
    url: "/api/operator/organizations",
    headers: operatorHeaders,
    payload: payload as object,
  })

describe("operator API errors", () => {
  it("refuses an unknown feature with a 400 naming the field", async () => {
    const response = await create({
      name: "X",
      features: ["api_access", "teleport"],
      admin: { email: uniqueEmail(), password: "lantern-orchard-7" },
    })
    expect(response.statusCode).toBe(400)
    const body = response.json()
    expect(body.code).toBe("invalid_request")
    expect(body.error).toMatch(/^Invalid request: /)
    expect(body.issues.map((i: { path: string }) => i.path)).toContain("features[1]")
  })

  it("refuses a PATCH with an unknown feature or a feature list that is not a list, changing nothing", async () => {
    const created = await create({
      name: "Stable",
      features: ["api_access"],
      admin: { email: uniqueEmail(), password: "lantern-orchard-7" },
    })
    const { id } = created.json().organization
    for (const payload of [{ features: ["api_access", "unlimited"] }, { features: "api_access" }, { name: "" }]) {
      const response = await harness.app.inject({
        method: "PATCH",
        url: `/api/operator/organizations/${id}`,
        headers: operatorHeaders,
        payload,
      })
      expect(response.statusCode, JSON.stringify(payload)).toBe(400)
    }
    const read = await harness.app.inject({
      method: "GET",
      url: `/api/operator/organizations/${id}`,
      headers: operatorHeaders,
    })
    expect(read.json()).toMatchObject({ name: "Stable", features: ["api_access"] })
  })

  it("refuses a short admin password, a bad email and a missing name, listing each", async () => {
    const response = await create({ admin: { email: "not-an-email", password: "short" } })
    expect(response.statusCode).toBe(400)
    const paths = response.json().issues.map((i: { path: string }) => i.path)
    expect(paths).toEqual(expect.arrayContaining(["name", "admin.email", "admin.password"]))
  })

  it("refuses an admin password that is the organization's name over again, naming admin.password", async () => {
    const response = await create({
      name: "Harborview Dental",
      admin: { email: uniqueEmail(), password: "HarborviewDental" },
    })
    expect(response.statusCode).toBe(400)
    expect(response.json()).toMatchObject({ code: "invalid_request", issues: [{ path: "admin.password" }] })
  })

  it("makes a person who already has an account the new organization's admin, with the password given for it", async () => {
    const email = uniqueEmail()
    const first = await create({ name: "First", admin: { email, password: "lantern-orchard-7" } })
    expect(first.statusCode).toBe(201)
    const second = await create({
      name: "Second",
      admin: { email: email.toUpperCase(), password: "other-pass-word-8" },
    })
    expect(second.statusCode).toBe(201)
    expect(second.json().admin).toMatchObject({ email: email.toUpperCase(), role: "admin" })
    const signIn = (password: string) =>
      harness.app.inject({
        method: "POST",
        url: "/api/auth/login",
        payload: { email, password, organizationId: second.json().organization.id },
      })
    // Each membership has its own password: the first organization's opens only the first.
    expect((await signIn("other-pass-word-8")).statusCode).toBe(200)
    expect((await signIn("lantern-orchard-7")).statusCode).toBe(401)
  })

  it("answers 404 for an unknown organization on GET and PATCH", async () => {
    for (const method of ["GET", "PATCH"] as const) {
      const response = await harness.app.inject({
        method,
        url: "/api/operator/organizations/org_0000000000000000000000",
        headers: operatorHeaders,
        ...(method === "PATCH" ? { payload: { name: "x" } } : {}),
      })
      expect(response.statusCode).toBe(404)
      expect(response.json()).toEqual({ error: "Not found", code: "not_found" })
    }
  })

  it("answers 400 for malformed JSON and 415 for another content type", async () => {
    const malformed = await harness.app.inject({
      method: "POST",
      url: "/api/operator/organizations",
      headers: { ...operatorHeaders, "content-type": "application/json" },
      payload: "{nope",
    })
    expect(malformed.statusCode).toBe(400)
    const text = await harness.app.inject({
      method: "POST",
      url: "/api/operator/organizations",
      headers: { ...operatorHeaders, "content-type": "text/plain" },
      payload: "name=x",
    })
    expect(text.statusCode).toBe(415)
  })
})

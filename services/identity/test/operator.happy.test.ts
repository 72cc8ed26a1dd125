import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Harness, operatorHeaders, startIdentity, uniqueEmail } from "./harness.ts"

let harness: Harness
beforeAll(async () => {
  harness = await startIdentity()
})
afterAll(() => harness.close())

describe("the operator API", () => {
  it("creates an organization with its first administrator, who can then log in", async () => {
    const email = uniqueEmail("founder")
    const created = await harness.app.inject({
      method: "POST",
      url: "/api/operator/organizations",
      headers: operatorHeaders,
      payload: { name: "Acme Dental", features: ["api_access"], admin: { email, password: "a long password" } },
    })
    expect(created.statusCode).toBe(201)
    const body = created.json()
    expect(body).toEqual({
      organization: {
        id: expect.stringMatching(/^org_[0-9A-Za-z]{22}$/),
        name: "Acme Dental",
        features: ["api_access"],
        createdAt: expect.any(String),
      },
      admin: { id: expect.stringMatching(/^usr_[0-9A-Za-z]{22}$/), email, role: "admin" },
    })
    expect(body.organization.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)

    const login = await harness.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { email, password: "a long password" },
    })
    expect(login.statusCode).toBe(200)
    expect(login.json()).toEqual({
      user: { id: body.admin.id, email, role: "admin" },
      organization: { id: body.organization.id, name: "Acme Dental" },
    })
  })

  it("starts an organization without features when none are given", async () => {
    const created = await harness.app.inject({
      method: "POST",
      url: "/api/operator/organizations",
      headers: operatorHeaders,
      payload: { name: "Plain", admin: { email: uniqueEmail(), password: "lantern-orchard-7" } },
    })
    expect(created.statusCode).toBe(201)
    expect(created.json().organization.features).toEqual([])
  })

  it("reads and patches an organization's name and features", async () => {
    const created = await harness.app.inject({
      method: "POST",
      url: "/api/operator/organizations",
      headers: operatorHeaders,
      payload: { name: "Before", admin: { email: uniqueEmail(), password: "lantern-orchard-7" } },
    })
    const { id } = created.json().organization
    const patched = await harness.app.inject({
      method: "PATCH",
      url: `/api/operator/organizations/${id}`,
      headers: operatorHeaders,
      payload: { name: "After", features: ["api_access", "api_access"] },
    })
    expect(patched.statusCode).toBe(200)
    expect(patched.json()).toMatchObject({ id, name: "After", features: ["api_access"] })

    const namedOnly = await harness.app.inject({
      method: "PATCH",
      url: `/api/operator/organizations/${id}`,
      headers: operatorHeaders,
      payload: { name: "Renamed" },
    })
    expect(namedOnly.json()).toMatchObject({ name: "Renamed", features: ["api_access"] })

    const read = await harness.app.inject({
      method: "GET",
      url: `/api/operator/organizations/${id}`,
      headers: operatorHeaders,
    })
    expect(read.statusCode).toBe(200)
    expect(read.json()).toEqual({
      id,
      name: "Renamed",
      features: ["api_access"],
      createdAt: created.json().organization.createdAt,
    })
  })
})

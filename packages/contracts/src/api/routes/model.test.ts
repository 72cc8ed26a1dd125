import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { allServiceRoutes } from "./index.ts"
import { type RouteDeclaration, serviceRoutes } from "./model.ts"

const ok = { description: "ok" }
const route = (overrides: Partial<RouteDeclaration>): RouteDeclaration => ({
  method: "GET",
  path: "/api/things",
  access: "member",
  summary: "A thing",
  tag: "Things",
  responses: { 200: ok },
  ...overrides,
})
const declare = (declaration: RouteDeclaration) => () =>
  serviceRoutes("identity", ["/api/things"], { thing: declaration })

describe("route declarations", () => {
  it("refuse a path outside the service's mounts", () => {
    expect(declare(route({ path: "/api/other" }))).toThrow(/under none of the service's mounts/)
  })

  it("refuse params that are not the path's", () => {
    expect(declare(route({ path: "/api/things/:id" }))).toThrow(/params must be the path's/)
    expect(
      declare(route({ path: "/api/things/:id", params: { key: { description: "", schema: Schema.String } } })),
    ).toThrow(/params must be the path's/)
  })

  it("give a scope to public routes and to no other", () => {
    expect(declare(route({ access: "public" }))).toThrow(/needs a scope/)
    expect(declare(route({ scope: "chat:read" }))).toThrow(/needs a scope/)
  })

  it("have exactly one success answer", () => {
    expect(declare(route({ responses: { 200: ok, 201: ok } }))).toThrow(/exactly one success/)
  })

  it("are consistent for every service of Parley, with unique names", () => {
    const names = allServiceRoutes.flatMap((service) => Object.keys(service.routes))
    expect(new Set(names).size).toBe(names.length)
    const routes = allServiceRoutes.flatMap((service) => Object.values(service.routes))
    const keys = routes.map((r) => `${r.method} ${r.path}`)
    expect(new Set(keys).size).toBe(keys.length)
  })
})

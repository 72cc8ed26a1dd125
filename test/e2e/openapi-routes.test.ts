import { allServiceRoutes, openApiOperations } from "@parley/contracts"
import { type FreshDatabase, freshDatabase } from "@parley/db/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { routeOf } from "../../services/gateway/src/routing/route-table.ts"
import { type ServedRoute, servedRoutes } from "./support/served-routes.ts"

/** `/api/org/webhooks/{id}` → `/api/org/webhooks/:id`, the form Fastify prints. */
const fastifyPath = (openApiPath: string): string => openApiPath.replace(/\{([^}]+)\}/g, ":$1")
const name = (method: string, path: string) => `${method.toUpperCase()} ${path}`

// Both directions between the OpenAPI document and the code: every route a service serves behind
// the gateway's route table is documented, and every documented operation is served.
describe("the OpenAPI document and the routes served behind the gateway", () => {
  let db: FreshDatabase
  let served: Array<ServedRoute>

  beforeAll(async () => {
    db = await freshDatabase()
    served = await servedRoutes(db.url)
  }, 60_000)

  afterAll(async () => {
    await db?.close()
  })

  it("finds the routes of every service (the listing itself works)", () => {
    for (const service of ["identity", "webhook-registry", "assistant", "messaging"]) {
      expect(served.filter((route) => route.service === service).length, service).toBeGreaterThan(2)
    }
  })

  it("documents every route the gateway forwards to a service", () => {
    const documented = new Set(openApiOperations.map((op) => name(op.method, fastifyPath(op.path))))
    // CORS preflights (OPTIONS) are answered for every widget route alike; they are not operations.
    const forwarded = served.filter(
      (route) => route.method !== "OPTIONS" && routeOf(route.method, route.path) !== undefined,
    )
    const missing = forwarded.map((route) => name(route.method, route.path)).filter((route) => !documented.has(route))
    expect(missing, `served but not in the OpenAPI document: ${missing.join(", ")}`).toEqual([])
  })

  it("serves every documented operation, through the gateway's route table to the service behind it", () => {
    const servedNames = new Set(served.map((route) => name(route.method, route.path)))
    const unserved = openApiOperations
      .map((op) => name(op.method, fastifyPath(op.path)))
      .filter((route) => !servedNames.has(route))
    expect(unserved, `in the OpenAPI document but served by no service: ${unserved.join(", ")}`).toEqual([])
    const unrouted = openApiOperations
      .filter((op) => routeOf(op.method.toUpperCase(), fastifyPath(op.path)) === undefined)
      .map((op) => name(op.method, op.path))
    expect(unrouted, `in the OpenAPI document but not in the gateway's route table: ${unrouted.join(", ")}`).toEqual([])
  })

  it("serves exactly the declared routes of each service, the internal ones included", () => {
    const owner: Record<string, string> = { webhookRegistry: "webhook-registry" }
    const declared = allServiceRoutes.flatMap((service) =>
      Object.values(service.routes).map(
        (route) => `${owner[service.service] ?? service.service} ${route.method} ${route.path}`,
      ),
    )
    const servedNames = served
      .filter((route) => !route.path.startsWith("/health") && route.path !== "/metrics")
      .map((route) => `${route.service} ${route.method} ${route.path}`)
    expect(servedNames.filter((route) => !declared.includes(route))).toEqual([])
    expect(declared.filter((route) => !servedNames.includes(route))).toEqual([])
  })
})

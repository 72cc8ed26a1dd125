import {
  allServiceRoutes,
  CAMPAIGN_BODY_LIMIT,
  IMPORT_BODY_LIMIT,
  JSON_BODY_LIMIT,
  MEDIA_BODY_LIMIT,
  openApiOperations,
  type RouteDeclaration,
  type ServiceName,
  type ServiceRoutes,
} from "@parley/contracts"
import { describe, expect, it } from "vitest"
import { compileRouteTable, hasDotSegment, routeOf } from "./route-table.ts"

describe("the route table", () => {
  it("sends each prefix of docs/internal-apis.md to its owning service", () => {
    const owners: Array<[string, string]> = [
      ["/api/operator/organizations", "identity"],
      ["/api/auth/login", "identity"],
      ["/api/org/members/usr_1", "identity"],
      ["/api/org/api-keys", "identity"],
      ["/api/org/webhooks/wh_1/deliveries", "webhookRegistry"],
      ["/api/org/webhook-events", "webhookRegistry"],
      ["/api/public/chat", "assistant"],
      ["/api/leads/export", "assistant"],
      ["/api/bookings/settings", "assistant"],
      ["/api/channels/cloud", "messaging"],
      ["/api/messages", "messaging"],
      ["/api/templates", "messaging"],
      ["/api/campaigns/cmp_1", "messaging"],
      ["/api/contacts/import", "messaging"],
      ["/api/media", "messaging"],
      ["/channels/cloud/webhook", "messaging"],
    ]
    for (const [path, service] of owners) expect(routeOf("GET", path)?.service, path).toBe(service)
  })

  it("matches prefixes on segment boundaries only", () => {
    expect(routeOf("GET", "/api/mediaX")).toBeUndefined()
    expect(routeOf("GET", "/api/org/membersandmore")).toBeUndefined()
    expect(routeOf("GET", "/api/unknown")).toBeUndefined()
    expect(routeOf("GET", "/")).toBeUndefined()
    expect(routeOf("GET", "/API/templates")).toBeUndefined()
  })

  it("marks exactly the three heavy routes, by method", () => {
    expect(routeOf("POST", "/api/media")?.heavy).toBe(true)
    expect(routeOf("POST", "/api/contacts/import")?.heavy).toBe(true)
    expect(routeOf("GET", "/api/leads/export")?.heavy).toBe(true)
    expect(routeOf("GET", "/api/media")?.heavy).toBe(false)
    expect(routeOf("GET", "/api/leads")?.heavy).toBe(false)
    expect(routeOf("POST", "/api/contacts")?.heavy).toBe(false)
  })

  it("gives each widget route its scope", () => {
    expect(routeOf("POST", "/api/public/chat")?.scope).toBe("chat:write")
    expect(routeOf("POST", "/api/public/chat/reset")?.scope).toBe("chat:write")
    expect(routeOf("GET", "/api/public/chat/ses_123")?.scope).toBe("chat:read")
    expect(routeOf("GET", "/api/public/bookings/slots")?.scope).toBe("bookings:read")
    expect(routeOf("POST", "/api/public/bookings")?.scope).toBe("bookings:write")
    expect(routeOf("GET", "/api/templates")?.scope).toBeUndefined()
  })

  it("sets the body limits of CONTRACT.md §1", () => {
    expect(routeOf("POST", "/api/messages")?.bodyLimit).toBe(JSON_BODY_LIMIT)
    expect(routeOf("POST", "/api/media")).toMatchObject({ body: "media", bodyLimit: MEDIA_BODY_LIMIT })
    expect(routeOf("POST", "/api/contacts/import")).toMatchObject({ body: "csv", bodyLimit: IMPORT_BODY_LIMIT })
    expect(routeOf("POST", "/channels/bridge/inbound")?.body).toBe("raw")
  })

  it("gives a campaign room for 100,000 formatted recipients, which 1 MiB cannot hold", () => {
    const recipients = Array.from({ length: 100_000 }, (_, i) => `+1 (415) 555-${String(i % 10_000).padStart(4, "0")}`)
    const body = JSON.stringify({ name: "Spring sale", template: { name: "sale", language: "en_US" }, recipients })
    expect(Buffer.byteLength(body)).toBeGreaterThan(JSON_BODY_LIMIT)
    expect(Buffer.byteLength(body)).toBeLessThan(CAMPAIGN_BODY_LIMIT)
    expect(routeOf("POST", "/api/campaigns")).toMatchObject({ body: "json", bodyLimit: CAMPAIGN_BODY_LIMIT })
    expect(routeOf("GET", "/api/campaigns/cmp_1")?.bodyLimit).toBe(JSON_BODY_LIMIT)
  })

  it("puts each prefix on its surface", () => {
    expect(routeOf("POST", "/api/public/chat")?.surface).toBe("public")
    expect(routeOf("POST", "/api/auth/login")?.surface).toBe("auth")
    expect(routeOf("POST", "/api/operator/organizations")?.surface).toBe("operator")
    expect(routeOf("POST", "/channels/cloud/webhook")?.surface).toBe("channels")
    expect(routeOf("GET", "/api/org/api-keys")?.surface).toBe("private")
  })

  it("forwards the inbox's event stream, and only it, over connections of its own", () => {
    expect(routeOf("GET", "/api/conversations/events")).toMatchObject({ service: "assistant", stream: true })
    expect(routeOf("GET", "/api/conversations/cnv_0123456789abcdefABCD")?.stream).toBeUndefined()
    expect(routeOf("GET", "/api/conversations")?.stream).toBeUndefined()
  })

  it("recognises dot segments, encoded or not", () => {
    expect(hasDotSegment("/api/public/../org/api-keys")).toBe(true)
    expect(hasDotSegment("/api/public/%2e%2e/org/api-keys")).toBe(true)
    expect(hasDotSegment("/api/public/chat%2F..%2Fx")).toBe(true)
    expect(hasDotSegment("/api/public/./chat")).toBe(true)
    expect(hasDotSegment("/api/public/chat/ses.123")).toBe(false)
    expect(hasDotSegment("/api/templates")).toBe(false)
  })
})

type Service = ServiceRoutes<Record<string, RouteDeclaration>, ServiceName>

describe("the route table, compiled from the route declarations", () => {
  const declared = allServiceRoutes.flatMap((service) =>
    Object.entries(service.routes).map(([name, route]) => ({ service: service.service, name, route })),
  )

  it("matches every declared route to its owner with the declaration's scope, heavy flag and body limit", () => {
    for (const { service, name, route } of declared) {
      const path = route.path.replace(/:[^/]+/g, "x_1")
      const found = routeOf(route.method, path)
      if (route.access === "internal") {
        expect(found, `${name} is internal: never routed`).toBeUndefined()
        continue
      }
      expect(found, name).toMatchObject({
        service,
        scope: route.scope,
        heavy: route.heavy ?? false,
        bodyLimit: route.body?.limit ?? JSON_BODY_LIMIT,
      })
    }
  })

  it("agrees with the OpenAPI document on every scope and heavy flag", () => {
    for (const op of openApiOperations) {
      const found = routeOf(op.method.toUpperCase(), op.path.replace(/\{[^}]+\}/g, "x_1"))
      expect(found?.scope, op.operationId).toBe(op.scope)
      expect(found?.heavy, op.operationId).toBe(op.heavy === true)
    }
  })

  it("refuses two services claiming one prefix, and a mount whose routes would authenticate differently", () => {
    const [identity, registry] = allServiceRoutes as [Service, Service]
    expect(() => compileRouteTable([identity, { ...registry, mounts: [...registry.mounts, "/api/org"] }])).toThrow(
      /overlaps/,
    )
    expect(() => compileRouteTable([{ ...identity, mounts: ["/api", "/internal"] }])).toThrow(/must share one surface/)
  })
})

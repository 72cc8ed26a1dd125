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
import { filledPath, spellingsOf } from "@parley/platform/testing"
import { fastify } from "fastify"
import { afterAll, describe, expect, it } from "vitest"
import {
  canonicalPath,
  compileRouteTable,
  hasDotSegment,
  preflightRouteOf,
  type Route,
  routeOf,
  routingPath,
} from "./route-table.ts"

describe("the route table", () => {
  it("sends each prefix of docs/internal-apis.md to its owning service", () => {
    const owners: Array<[string, string, string]> = [
      ["POST", "/api/operator/organizations", "identity"],
      ["POST", "/api/auth/login", "identity"],
      ["DELETE", "/api/org/members/usr_1", "identity"],
      ["GET", "/api/org/api-keys", "identity"],
      ["GET", "/api/org/webhooks/wh_1/deliveries", "webhookRegistry"],
      ["GET", "/api/org/webhook-events", "webhookRegistry"],
      ["POST", "/api/public/chat", "assistant"],
      ["GET", "/api/leads/export", "assistant"],
      ["GET", "/api/bookings/settings", "assistant"],
      ["PUT", "/api/channels/cloud", "messaging"],
      ["GET", "/api/messages", "messaging"],
      ["GET", "/api/templates", "messaging"],
      ["GET", "/api/campaigns/cmp_1", "messaging"],
      ["POST", "/api/contacts/import", "messaging"],
      ["POST", "/api/media", "messaging"],
      ["GET", "/channels/cloud/webhook", "messaging"],
    ]
    for (const [method, path, service] of owners) expect(routeOf(method, path)?.service, path).toBe(service)
  })

  it("matches declared routes only: no fallback to a service's mount, on segment boundaries, by case", () => {
    expect(routeOf("GET", "/api/mediaX")).toBeUndefined()
    expect(routeOf("GET", "/api/org/membersandmore")).toBeUndefined()
    expect(routeOf("GET", "/api/unknown")).toBeUndefined()
    expect(routeOf("GET", "/")).toBeUndefined()
    expect(routeOf("GET", "/API/templates")).toBeUndefined()
    // Under a mount, but no declared route: the service would answer 404 — so does the gateway,
    // before any gate could be decided on a route that does not exist.
    expect(routeOf("GET", "/api/media")).toBeUndefined()
    expect(routeOf("GET", "/api/public/chat")).toBeUndefined()
    expect(routeOf("GET", "/api/public/bookings/slotz")).toBeUndefined()
    expect(routeOf("GET", "/api/public/bookings/slots/")).toBeUndefined()
    expect(routeOf("GET", "/api/public//bookings/slots")).toBeUndefined()
    expect(routeOf("GET", "/api/public/chat/")).toBeUndefined()
  })

  it("serves HEAD by the GET route, and no OPTIONS but as a preflight question", () => {
    expect(routeOf("HEAD", "/api/public/bookings/slots")?.scope).toBe("bookings:read")
    expect(routeOf("HEAD", "/api/leads/export")?.heavy).toBe(true)
    expect(routeOf("HEAD", "/api/public/chat")).toBeUndefined()
    expect(routeOf("OPTIONS", "/api/public/chat")).toBeUndefined()
    expect(preflightRouteOf("/api/public/chat")?.surface).toBe("public")
    expect(preflightRouteOf("/api/public/nothing")).toBeUndefined()
  })

  it("reads a path as the services' router does: escapes decoded but those of reserved characters", () => {
    expect(routingPath("/api/public/bookings/slots")).toBe("/api/public/bookings/slots")
    expect(routingPath("/api/public/bookings/slot%73")).toBe("/api/public/bookings/slots")
    expect(routingPath("/api/public/%62ookings/slots")).toBe("/api/public/bookings/slots")
    expect(routingPath("/api/public/bookings%2Fslots")).toBe("/api/public/bookings%2Fslots")
    expect(routingPath("/api/public/bookings%2fslots")).toBe("/api/public/bookings%2fslots")
    expect(routingPath("/api/public/chat/ses%2525")).toBe("/api/public/chat/ses%2525")
    expect(routingPath("/api/public/chat/ses%25")).toBe("/api/public/chat/ses%25")
    expect(routingPath("/api/public/chat/caf%C3%A9")).toBe("/api/public/chat/café")
    expect(routingPath("/api/public/bookings/slots#x")).toBeUndefined()
    expect(routingPath("/api/public/chat/%E0%A4%A")).toBeUndefined()
  })

  it("forwards the declared segments and the parameters as sent", () => {
    const slots = routeOf("GET", "/api/public/bookings/slots")
    const transcript = routeOf("GET", "/api/public/chat/ses_1")
    if (slots === undefined || transcript === undefined) throw new Error("routes missing")
    expect(canonicalPath(slots, "/api/public/bookings/slot%73", "/api/public/bookings/slots")).toBe(
      "/api/public/bookings/slots",
    )
    expect(canonicalPath(transcript, "/api/public/%63hat/ses%5F1", "/api/public/chat/ses_1")).toBe(
      "/api/public/chat/ses%5F1",
    )
    expect(canonicalPath(slots, "/api/public/bookings/slots", "/api/public/bookings/slots")).toBe(
      "/api/public/bookings/slots",
    )
  })

  it("marks exactly the three heavy routes, by method", () => {
    expect(routeOf("POST", "/api/media")?.heavy).toBe(true)
    expect(routeOf("POST", "/api/contacts/import")?.heavy).toBe(true)
    expect(routeOf("GET", "/api/leads/export")?.heavy).toBe(true)
    expect(routeOf("GET", "/api/leads")?.heavy).toBe(false)
    expect(routeOf("GET", "/api/contacts")?.heavy).toBe(false)
  })

  it("gives each widget route its scope", () => {
    expect(routeOf("POST", "/api/public/chat")?.scope).toBe("chat:write")
    expect(routeOf("POST", "/api/public/chat/reset")?.scope).toBe("chat:write")
    expect(routeOf("GET", "/api/public/chat/ses_123")?.scope).toBe("chat:read")
    expect(routeOf("GET", "/api/public/bookings/slots")?.scope).toBe("bookings:read")
    expect(routeOf("POST", "/api/public/bookings")?.scope).toBe("bookings:write")
    expect(routeOf("GET", "/api/templates")?.scope).toBeUndefined()
  })

  it("sets the body limits of docs/contract.md §1", () => {
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

  it("refuses two parameterised routes of one method that could match the same path", () => {
    const [identity] = allServiceRoutes as [Service]
    const { deleteMember } = identity.routes as Record<string, RouteDeclaration>
    const routes = {
      ...identity.routes,
      deleteMemberInvite: { ...deleteMember, path: "/api/org/members/:id" } as RouteDeclaration,
      deleteOtherMember: { ...deleteMember, path: "/api/org/:section/usr_1" } as RouteDeclaration,
    }
    expect(() => compileRouteTable([{ ...identity, routes }])).toThrow(/can match the same path/)
  })
})

describe("the gateway's matcher and the services' router, on every spelling of every declared route", () => {
  // The services' router as each service runs it (Fastify's defaults), serving every declared route.
  const services = fastify()
  const names = new Map<Route, string>()
  for (const { service, routes } of allServiceRoutes) {
    for (const [name, route] of Object.entries(routes)) {
      const where = `${service}.${name}`
      services.route({
        method: route.method,
        url: route.path,
        handler: async (_request, reply) => reply.header("x-served-by", where).send({ where }),
      })
      const compiled = routeOf(route.method, filledPath(route.path))
      if (compiled !== undefined) names.set(compiled, where)
    }
  }
  afterAll(() => services.close())

  const servedBy = async (method: string, url: string): Promise<string | undefined> => {
    const answer = await services.inject({ method: method as "GET", url })
    return answer.statusCode === 200 ? String(answer.headers["x-served-by"]) : undefined
  }

  it("decides on the route the service serves, and forwards a path the service serves as that route", async () => {
    for (const { service, routes } of allServiceRoutes) {
      for (const [name, declared] of Object.entries(routes)) {
        if (declared.access === "internal") continue
        for (const spelling of spellingsOf(declared)) {
          if (spelling.method === "OPTIONS") continue
          const where = `${service}.${name}: ${spelling.label} (${spelling.method} ${spelling.path})`
          const routed = routingPath(spelling.path)
          const route =
            routed === undefined || hasDotSegment(spelling.path) ? undefined : routeOf(spelling.method, routed)
          const gateway = route === undefined ? undefined : names.get(route)
          // A spelling that is not this route may still be another declared one (`/api/conversations/Events`
          // is `/api/conversations/:id`): then it is gated as that route, which the next check holds.
          if (spelling.routes) expect(gateway, where).toBe(`${service}.${name}`)
          else expect(gateway, where).not.toBe(`${service}.${name}`)
          // What the service would serve on the path as sent is gated: the gateway decided on that
          // very route, or refused the request (being stricter than the service, e.g. on an empty
          // parameter, only ever answers 404)…
          const asSent = await servedBy(spelling.method, spelling.path)
          if (gateway !== undefined || asSent === `${service}.${name}`) expect(asSent, where).toBe(gateway)
          // …and the path the gateway forwards is served by the route it decided on.
          if (route !== undefined && routed !== undefined) {
            const forwarded = canonicalPath(route, spelling.path, routed)
            expect(await servedBy(spelling.method, forwarded), `${where} → ${forwarded}`).toBe(gateway)
          }
        }
      }
    }
  })
})

import { describe, expect, it } from "vitest"
import { ErrorCode } from "../errors.ts"
import { EventCatalogue, EventNames } from "../events.ts"
import { Scopes } from "../scopes.ts"
import { openApiDocument, openApiOperations } from "./openapi.ts"

const document = openApiDocument({ serverUrl: "https://parley.example" })

type Json = Record<string, unknown>
const operationsOf = (doc: typeof document) =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ path, method, op: op as Json })),
  )

const refsIn = (value: unknown): Array<string> => {
  if (Array.isArray(value)) return value.flatMap(refsIn)
  if (value === null || typeof value !== "object") return []
  return Object.entries(value).flatMap(([key, inner]) =>
    key === "$ref" && typeof inner === "string" ? [inner] : refsIn(inner),
  )
}

const resolvePointer = (doc: unknown, ref: string): unknown =>
  ref
    .replace(/^#\//, "")
    .split("/")
    .reduce<unknown>((node, part) => (node as Json | undefined)?.[part.replace(/~1/g, "/").replace(/~0/g, "~")], doc)

/** Every route docs/contract.md §2.4, §2.5, §4, §5, §8, §9 and §10 names, as it writes them. */
const contractRoutes = [
  "POST /api/auth/login",
  "POST /api/auth/logout",
  "GET /api/auth/me",
  "POST /api/org/members",
  "GET /api/org/members",
  "DELETE /api/org/members/:id",
  "POST /api/operator/organizations",
  "PATCH /api/operator/organizations/:id",
  "GET /api/operator/organizations/:id",
  "POST /api/org/api-keys",
  "GET /api/org/api-keys",
  "GET /api/org/api-keys/:id",
  "DELETE /api/org/api-keys/:id",
  "POST /api/org/webhooks",
  "GET /api/org/webhooks",
  "GET /api/org/webhooks/:id",
  "PUT /api/org/webhooks/:id",
  "DELETE /api/org/webhooks/:id",
  "GET /api/org/webhooks/:id/deliveries",
  "POST /api/org/webhooks/:id/deliveries/:deliveryId/redeliver",
  "POST /api/org/webhooks/:id/replay",
  "POST /api/org/webhooks/:id/test",
  "GET /api/org/webhook-events",
  "POST /api/public/chat",
  "POST /api/public/chat/reset",
  "GET /api/public/chat/:sessionId",
  "GET /api/public/bookings/slots",
  "POST /api/public/bookings",
  "PUT /api/channels/cloud",
  "PUT /api/channels/bridge",
  "GET /api/channels",
  "POST /api/messages",
  "GET /api/messages",
  "GET /api/templates",
  "POST /api/templates",
  "POST /api/campaigns",
  "GET /api/campaigns/:id",
  "GET /api/leads",
  "GET /api/leads/export",
  "POST /api/contacts/import",
  "GET /api/contacts",
  "POST /api/media",
  "GET /api/bookings",
  "PUT /api/bookings/settings",
  "GET /channels/cloud/webhook",
  "POST /channels/cloud/webhook",
  "POST /channels/bridge/inbound",
  "POST /channels/bridge/status",
]

describe("the OpenAPI document", () => {
  it("has an operation for every route of the contract", () => {
    const documented = new Set(
      operationsOf(document).map(
        ({ path, method }) => `${method.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ":$1")}`,
      ),
    )
    expect(contractRoutes.filter((route) => !documented.has(route))).toEqual([])
  })

  it("is OpenAPI 3.1 with the server it was given", () => {
    expect(document.openapi).toBe("3.1.0")
    expect(document.servers).toEqual([{ url: "https://parley.example" }])
  })

  it("resolves every $ref it contains", () => {
    const unresolved = refsIn(document).filter((ref) => resolvePointer(document, ref) === undefined)
    expect(unresolved).toEqual([])
  })

  it("gives every operation a unique id", () => {
    const ids = operationsOf(document).map(({ op }) => op.operationId)
    expect(new Set(ids).size).toBe(ids.length)
    expect(ids.length).toBe(openApiOperations.length)
  })

  it("declares exactly the path parameters each path names", () => {
    for (const { path, method, op } of operationsOf(document)) {
      const named = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort()
      const declared = ((op.parameters ?? []) as Array<Json>)
        .filter((p) => p.in === "path")
        .map((p) => p.name)
        .sort()
      expect(declared, `${method.toUpperCase()} ${path}`).toEqual(named)
    }
  })

  it("answers every error with the { error, code, issues? } body and every code is the contract's", () => {
    const body = document.components.schemas.ErrorBody as Json
    expect(body.required).toEqual(["error", "code"])
    const code = (body.properties as Record<string, Json>).code as Json
    expect(code.enum).toEqual([...ErrorCode.literals])
    for (const { path, method, op } of operationsOf(document)) {
      const responses = op.responses as Record<string, Json>
      for (const status of Object.keys(responses).filter((s) => Number(s) >= 400)) {
        expect(refsIn(responses[status]?.content), `${method} ${path} ${status}`).toEqual([
          "#/components/schemas/ErrorBody",
        ])
      }
      expect(Object.keys(responses), `${method} ${path}`).toEqual(expect.arrayContaining(["500", "503"]))
    }
  })

  it("documents the four key forms on the widget surface and only the header or a session on the private API", () => {
    const chat = document.paths["/api/public/chat"]?.post as Json
    expect(chat.security).toEqual([{ ApiKeyHeader: [] }, { ApiKeyBearer: [] }, { ApiKeyQuery: [] }])
    expect(chat["x-parley-scope"]).toBe("chat:write")
    expect(chat.description).toContain("`apiKey`")
    const keys = document.paths["/api/org/api-keys"]?.post as Json
    expect(keys.security).toEqual([{ ApiKeyHeader: [] }, { SessionCookie: [] }])
    // A session's body must be JSON (§2.4): the two uploads take a key only.
    for (const upload of ["/api/media", "/api/contacts/import"]) {
      expect((document.paths[upload]?.post as Json | undefined)?.security, upload).toEqual([{ ApiKeyHeader: [] }])
    }
    expect((keys.responses as Json)["403"]).toMatchObject({
      description: expect.stringContaining("plan_feature_required"),
    })
    const schemes = document.components.securitySchemes as Record<string, Json>
    expect(schemes.ApiKeyHeader).toMatchObject({ type: "apiKey", in: "header", name: "X-API-Key" })
    expect(schemes.SessionCookie).toMatchObject({ type: "apiKey", in: "cookie", name: "parley_session" })
    expect(schemes.OperatorBearer).toMatchObject({ type: "http", scheme: "bearer" })
    const operator = document.paths["/api/operator/organizations"]?.post as Json
    expect(operator.security).toEqual([{ OperatorBearer: [] }])
  })

  it("compiles request bodies from the Schemas the services decode with", () => {
    const create = document.components.schemas.CreateApiKeyRequest as Json
    expect(create.required).toEqual(["name"])
    const scopes = (create.properties as Record<string, Json>).scopes as Json
    expect((scopes.items as Json).enum).toEqual([...Scopes])
    const chat = document.components.schemas.ChatRequest as Json
    expect((chat.properties as Record<string, Json>).message).toMatchObject({ type: "string", minLength: 1 })
  })

  it("carries each string pattern the services check (ids, template names, times) into the document", () => {
    const text = JSON.stringify(document)
    expect(text).toContain(JSON.stringify({ pattern: "^org_[0-9A-Za-z]{16,64}$" }).slice(1, -1))
    expect(text).toContain(JSON.stringify({ pattern: "^[a-z0-9_]+$" }).slice(1, -1))
    expect(text).toContain(JSON.stringify({ pattern: "^([01]\\d|2[0-3]):[0-5]\\d$" }).slice(1, -1))
  })

  it("lists query parameters from the query Schemas, strings on the wire", () => {
    const leads = document.paths["/api/leads"]?.get as Json
    const names = (leads.parameters as Array<Json>).map((p) => `${p.in}:${p.name}:${p.required}`)
    expect(names).toEqual(["query:limit:false", "query:cursor:false", "query:type:false"])
    const slots = document.paths["/api/public/bookings/slots"]?.get as Json
    expect((slots.parameters as Array<Json>).find((p) => p.name === "date")).toMatchObject({ required: true })
  })

  it("documents the raw bodies by their media types", () => {
    const media = document.paths["/api/media"]?.post as Json
    expect(Object.keys((media.requestBody as Json).content as Json)).toEqual([
      "image/*",
      "video/*",
      "audio/*",
      "application/pdf",
    ])
    const importCsv = document.paths["/api/contacts/import"]?.post as Json
    expect(Object.keys((importCsv.requestBody as Json).content as Json)).toEqual(["text/csv"])
    const exportCsv = document.paths["/api/leads/export"]?.get as Json
    expect(Object.keys(((exportCsv.responses as Json)["200"] as Json).content as Json)).toEqual(["text/csv"])
  })

  it("leaves the provider's routes out of the rate-limit headers and counts everything else", () => {
    const cloud = document.paths["/channels/cloud/webhook"]?.post as Json
    expect(Object.keys(cloud.responses as Json)).not.toContain("429")
    expect(cloud.security).toEqual([{ CloudSignature: [] }])
    const leads = document.paths["/api/leads"]?.get as Json
    expect(Object.keys(((leads.responses as Json)["200"] as Json).headers as Json)).toContain("RateLimit-Limit")
  })

  it("describes each event's delivery in the webhooks section: its envelope, sample and headers", () => {
    const webhooks = document.webhooks as Record<string, { post: Json }>
    expect(Object.keys(webhooks)).toEqual(EventNames)
    const lead = webhooks["lead.created"]?.post as Json
    const content = ((lead.requestBody as Json).content as Json)["application/json"] as Json
    expect(content.schema).toEqual({ $ref: "#/components/schemas/LeadCreatedEvent" })
    expect((content.example as Json).data).toEqual(EventCatalogue.find((e) => e.name === "lead.created")?.sample)
    const envelope = document.components.schemas.LeadCreatedEvent as Json
    expect(envelope.required).toEqual(["event", "timestamp", "data"])
    const headers = (lead.parameters as Array<Json>).map((p) => resolvePointer(document, p.$ref as string) as Json)
    expect(headers.map((h) => `${h.in}:${h.name}:${h.required}`)).toEqual([
      "header:X-Service-Event:true",
      "header:X-Service-Signature:true",
      "header:X-Service-Delivery:true",
      "header:X-Service-Attempt:true",
      "header:X-Service-Test:false",
      "header:User-Agent:true",
      "header:webhook-id:true",
      "header:webhook-timestamp:true",
      "header:webhook-signature:true",
    ])
    // The signature header's documented shape is the one a real delivery has, rotation included.
    const signature = headers.find((h) => h.name === "webhook-signature") as Json
    const pattern = new RegExp((signature.schema as Json).pattern as string)
    const v1 = `v1,${Buffer.alloc(32, 1).toString("base64")}`
    expect(pattern.test(v1)).toBe(true)
    expect(pattern.test(`${v1} ${v1}`)).toBe(true)
    expect(pattern.test(`${v1} ${v1} ${v1}`)).toBe(false)
  })

  it("documents the create response's signingSecret and the catalogue's samples", () => {
    const created = document.components.schemas.CreatedWebhook as Json
    expect(created.required).toEqual(expect.arrayContaining(["secret", "signingSecret"]))
    const test = document.paths["/api/org/webhooks/{id}/test"]?.post as Json
    expect(Object.keys(test.responses as Json)).toContain("202")
    expect(JSON.stringify(document.paths["/api/org/webhook-events"])).toContain("WebhookEventsResponse")
  })
})

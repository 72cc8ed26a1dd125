import { ErrorBody, type Principal, serviceRoutes } from "@parley/contracts"
import { Effect, Layer, ManagedRuntime, Schema } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { notFound } from "../errors.ts"
import { makeLogger } from "../logger.ts"
import { makeServiceMetrics } from "../metrics.ts"
import { signPrincipal } from "../principal.ts"
import { serveRoutes } from "./routes.ts"
import { makeHttpServer } from "./server.ts"

const secret = "routes-test-secret"
const Note = Schema.Struct({ text: Schema.String.check(Schema.isMinLength(1)) })
const noteReply = { description: "The note", content: { "application/json": { effect: Note, name: "Note" } } }

const notes = serviceRoutes("identity", ["/api/notes", "/api/public"], {
  createNote: {
    method: "POST",
    path: "/api/notes/:id",
    access: "admin",
    summary: "Create a note",
    tag: "Notes",
    params: { id: { description: "The note.", schema: Schema.String.check(Schema.isMaxLength(8)) } },
    body: { kind: "json", schema: { effect: Note, name: "Note" }, limit: 64 },
    responses: { 201: noteReply },
  },
  readNote: {
    method: "GET",
    path: "/api/notes/:id",
    access: "member",
    summary: "Read a note",
    tag: "Notes",
    params: { id: { description: "The note.", schema: Schema.String } },
    responses: { 200: noteReply },
  },
  readPublicNote: {
    method: "GET",
    path: "/api/public/notes/:id",
    access: "public",
    scope: "chat:read",
    summary: "Read a note from the widget",
    tag: "Notes",
    params: { id: { description: "The note.", schema: Schema.String } },
    responses: { 200: noteReply },
  },
})

class NoteMissing extends Schema.TaggedError<NoteMissing>()("NoteMissing", {}) {}

const makeApp = () =>
  makeHttpServer({
    service: "notes",
    logger: makeLogger({ service: "notes", level: "silent" }),
    metrics: makeServiceMetrics("notes", { defaultMetrics: false }),
    routes: notes,
  })

const runtime = ManagedRuntime.make(Layer.empty)
const stored = new Map<string, string>()
const app = makeApp()
serveRoutes(app, notes, {
  runtime,
  internalSecret: secret,
  toApiError: (_error: NoteMissing) => notFound(),
  handlers: {
    createNote: ({ params, body, principal }) =>
      Effect.gen(function* () {
        const note = yield* body
        stored.set(`${principal.orgId}/${params.id}`, note.text)
        return note
      }),
    readNote: ({ params, principal }) =>
      Effect.suspend(() => {
        const text = stored.get(`${principal.orgId}/${params.id}`)
        return text === undefined ? Effect.fail(new NoteMissing()) : Effect.succeed({ text })
      }),
    readPublicNote: ({ params }) => Effect.succeed({ text: `public ${params.id}` }),
  },
})
afterAll(async () => {
  await app.close()
  await runtime.dispose()
})

const principal = (role: Principal["role"]) =>
  signPrincipal(secret, {
    orgId: "org_0000000000000000000001",
    role,
    actor: { type: "user", userId: "usr_0000000000000000000001" },
    requestId: "req_1",
  } as Principal)

const keyPrincipal = (scopes: ReadonlyArray<string>) =>
  signPrincipal(secret, {
    orgId: "org_0000000000000000000001",
    role: scopes.length === 0 || scopes.includes("messages:send") ? "admin" : "member",
    actor: { type: "api_key", keyId: "key_0000000000000000000001", scopes },
    requestId: "req_1",
  } as Principal)

describe("routes served from their declarations", () => {
  it("answers with the declared success status, the body and params decoded by their Schemas", async () => {
    const created = await app.inject({
      method: "POST",
      url: "/api/notes/n1",
      headers: { "x-parley-principal": principal("admin") },
      payload: { text: "hello", extra: true },
    })
    expect(created.statusCode).toBe(201)
    expect(created.json()).toEqual({ text: "hello" })
    const read = await app.inject({
      method: "GET",
      url: "/api/notes/n1",
      headers: { "x-parley-principal": principal("member") },
    })
    expect(read.json()).toEqual({ text: "hello" })
  })

  it("maps the service's domain errors through its one error map", async () => {
    const read = await app.inject({
      method: "GET",
      url: "/api/notes/nope",
      headers: { "x-parley-principal": principal("member") },
    })
    expect(read.statusCode).toBe(404)
    expect(read.json()).toEqual({ error: "Not found", code: "not_found" })
  })

  it("refuses a call without the gateway's principal, and a member on an admin route", async () => {
    const anonymous = await app.inject({ method: "GET", url: "/api/notes/n1" })
    expect(anonymous.statusCode).toBe(401)
    const member = await app.inject({
      method: "POST",
      url: "/api/notes/n2",
      headers: { "x-parley-principal": principal("member") },
      payload: { text: "hello" },
    })
    expect(member.statusCode).toBe(403)
    expect(member.json()).toEqual({ error: "Organization administrator required", code: "admin_required" })
  })

  it("refuses a widget-only key on a member's route too, should the gateway ever let one through", async () => {
    const widget = signPrincipal(secret, {
      orgId: "org_0000000000000000000001",
      role: "member",
      actor: { type: "api_key", keyId: "key_0000000000000000000001", scopes: ["chat:write", "bookings:read"] },
      requestId: "req_2",
    } as unknown as Principal)
    const read = await app.inject({ method: "GET", url: "/api/notes/n1", headers: { "x-parley-principal": widget } })
    expect(read.statusCode).toBe(403)
    expect(read.json().code).toBe("widget_key_forbidden")
  })

  it("answers 400 naming the field for a bad body or param, and 413 past the declared limit", async () => {
    const headers = { "x-parley-principal": principal("admin") }
    const bad = await app.inject({ method: "POST", url: "/api/notes/n3", headers, payload: { text: "" } })
    expect(bad.statusCode).toBe(400)
    expect(Schema.decodeUnknownSync(ErrorBody)(bad.json()).issues?.map((issue) => issue.path)).toEqual(["text"])
    const longId = await app.inject({ method: "POST", url: "/api/notes/123456789", headers, payload: { text: "x" } })
    expect(longId.statusCode).toBe(400)
    const big = await app.inject({ method: "POST", url: "/api/notes/n4", headers, payload: { text: "x".repeat(64) } })
    expect(big.statusCode).toBe(413)
  })

  it("serves no route outside the declarations: registering one fails at start, naming it", () => {
    const other = makeApp()
    expect(() => other.get("/api/notes/:id/secret", async () => ({}))).toThrow(
      /serves GET \/api\/notes\/:id\/secret, which its route declarations do not list/,
    )
    expect(() => other.delete("/api/notes/:id", async () => ({}))).toThrow(/DELETE \/api\/notes\/:id/)
  })

  it("refuses to start without a handler for every declared route", () => {
    const other = makeApp()
    expect(() =>
      serveRoutes(other, notes, {
        runtime,
        internalSecret: secret,
        toApiError: (error: never) => error,
        handlers: { createNote: () => Effect.void } as never,
      }),
    ).toThrow(/readNote has no handler/)
  })

  it("refuses, behind the gateway too, a key without the public route's scope, on GET and HEAD alike", async () => {
    for (const method of ["GET", "HEAD"] as const) {
      const missing = await app.inject({
        method,
        url: "/api/public/notes/n1",
        headers: { "x-parley-principal": keyPrincipal(["chat:write", "bookings:read"]) },
      })
      expect(missing.statusCode, method).toBe(403)
      if (method === "GET") {
        expect(missing.json()).toEqual({ error: "API key is missing required scope: chat:read", code: "missing_scope" })
      }
      const session = await app.inject({
        method,
        url: "/api/public/notes/n1",
        headers: { "x-parley-principal": principal("admin") },
      })
      expect(session.statusCode, method).toBe(403)
    }
    for (const scopes of [["chat:read"], []]) {
      const held = await app.inject({
        method: "GET",
        url: "/api/public/notes/n1",
        headers: { "x-parley-principal": keyPrincipal(scopes) },
      })
      expect(held.statusCode, scopes.join(",")).toBe(200)
      expect(held.json()).toEqual({ text: "public n1" })
    }
  })

  it("refuses, behind the gateway too, a widget-only key on a private route", async () => {
    const widget = await app.inject({
      method: "GET",
      url: "/api/notes/n1",
      headers: { "x-parley-principal": keyPrincipal(["chat:read", "chat:write", "bookings:read", "bookings:write"]) },
    })
    expect(widget.statusCode).toBe(403)
    expect(widget.json()).toMatchObject({ code: "widget_key_forbidden" })
    const server = await app.inject({
      method: "GET",
      url: "/api/notes/n1",
      headers: { "x-parley-principal": keyPrincipal(["messages:send"]) },
    })
    expect(server.statusCode).toBe(200)
  })
})

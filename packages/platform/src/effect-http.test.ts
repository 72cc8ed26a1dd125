import { Context, Effect, Layer, ManagedRuntime, Schema } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { decodeBody, decodeParams, decodeQuery, effectHandler } from "./effect-http.ts"
import { conflict } from "./errors.ts"
import { makeHttpServer } from "./http/server.ts"
import { makeLogger } from "./logger.ts"
import { makeServiceMetrics } from "./metrics.ts"

class Greeter extends Context.Service<Greeter, { greet(name: string): Effect.Effect<string> }>()(
  "@parley/platform/test/Greeter",
) {
  static readonly layer = Layer.succeed(Greeter, { greet: (name: string) => Effect.succeed(`hello ${name}`) })
}

const runtime = ManagedRuntime.make(Greeter.layer)
const app = makeHttpServer({
  service: "effect-test",
  logger: makeLogger({ service: "effect-test", level: "silent" }),
  metrics: makeServiceMetrics("effect-test", { defaultMetrics: false }),
})

const Body = Schema.Struct({
  name: Schema.String,
  events: Schema.Array(Schema.Literals(["message.inbound", "lead.created"])),
})
const Query = Schema.Struct({ limit: Schema.optional(Schema.FiniteFromString) })
const Params = Schema.Struct({ id: Schema.String.check(Schema.isPattern(/^wh_/)) })

app.post(
  "/greet",
  effectHandler(runtime, (request, reply) =>
    Effect.gen(function* () {
      const body = yield* decodeBody(Body)(request)
      const greeter = yield* Greeter
      reply.code(201)
      return { text: yield* greeter.greet(body.name), events: body.events }
    }),
  ),
)
app.get(
  "/items/:id",
  effectHandler(runtime, (request) =>
    Effect.gen(function* () {
      const params = yield* decodeParams(Params)(request)
      const query = yield* decodeQuery(Query)(request)
      return { id: params.id, limit: query.limit ?? 50 }
    }),
  ),
)
app.delete(
  "/items/:id",
  effectHandler(runtime, (_request, reply) =>
    Effect.sync(() => {
      reply.code(204)
    }),
  ),
)
app.get(
  "/conflict",
  effectHandler(runtime, () => Effect.fail(conflict("Slot is full"))),
)
app.get(
  "/defect",
  effectHandler(runtime, () => Effect.die(new Error("invariant broken: secret=xyz"))),
)
app.get(
  "/database-down",
  effectHandler(runtime, () =>
    Effect.die(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" })),
  ),
)
app.get(
  "/other-failure",
  effectHandler(runtime, () => Effect.fail(new Error("unmapped")) as unknown as Effect.Effect<never, never>),
)

beforeAll(() => app.ready())
afterAll(async () => {
  await app.close()
  await runtime.dispose()
})

describe("effectHandler", () => {
  it("runs route logic with the runtime's services and lets it set the status", async () => {
    const res = await app.inject({ method: "POST", url: "/greet", payload: { name: "Dana", events: ["lead.created"] } })
    expect(res.statusCode).toBe(201)
    expect(res.json()).toEqual({ text: "hello Dana", events: ["lead.created"] })
  })

  it("completes a route that answers without a body", async () => {
    const res = await app.inject({ method: "DELETE", url: "/items/wh_1" })
    expect(res.statusCode).toBe(204)
    expect(res.body).toBe("")
  })

  it("answers an ApiError failure as itself", async () => {
    const res = await app.inject({ method: "GET", url: "/conflict" })
    expect(res.statusCode).toBe(409)
    expect(res.json()).toEqual({ error: "Slot is full", code: "conflict" })
  })

  it("answers a defect or an unmapped failure with 500 Internal error and no details", async () => {
    for (const url of ["/defect", "/other-failure"]) {
      const res = await app.inject({ method: "GET", url })
      expect(res.statusCode).toBe(500)
      expect(res.json()).toEqual({ error: "Internal error", code: "internal" })
      expect(res.body).not.toContain("xyz")
    }
  })

  it("answers 503 with Retry-After when the route died because its database could not be reached", async () => {
    const res = await app.inject({ method: "GET", url: "/database-down" })
    expect(res.statusCode).toBe(503)
    expect(res.headers["retry-after"]).toBe("5")
    expect(res.json()).toEqual({ error: "Service temporarily unavailable", code: "unavailable" })
  })
})

describe("decodeBody, decodeQuery and decodeParams", () => {
  it("answer 400 listing every issue, naming the first in the sentence", async () => {
    const res = await app.inject({ method: "POST", url: "/greet", payload: { events: ["lead.created", "nope"] } })
    expect(res.statusCode).toBe(400)
    const body = res.json()
    expect(body.code).toBe("invalid_request")
    expect(body.issues.map((i: { path: string }) => i.path).sort()).toEqual(["events[1]", "name"])
    expect(body.error).toMatch(/^Invalid request: (name|events\[1\]): \S/)
    expect(body.error).not.toContain(";")
  })

  it("answer 400 for a missing body", async () => {
    const res = await app.inject({ method: "POST", url: "/greet" })
    expect(res.statusCode).toBe(400)
    expect(res.json().code).toBe("invalid_request")
  })

  it("decode path parameters and query strings", async () => {
    expect((await app.inject({ method: "GET", url: "/items/wh_1?limit=5" })).json()).toEqual({ id: "wh_1", limit: 5 })
    const badParam = await app.inject({ method: "GET", url: "/items/x1" })
    expect(badParam.statusCode).toBe(400)
    expect(badParam.json().issues[0].path).toBe("id")
    const badQuery = await app.inject({ method: "GET", url: "/items/wh_1?limit=many" })
    expect(badQuery.statusCode).toBe(400)
    expect(badQuery.json().issues[0].path).toBe("limit")
  })
})

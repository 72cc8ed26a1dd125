import { Principal } from "@parley/contracts"
import { Schema } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { newId } from "../ids.ts"
import { makeLogger } from "../logger.ts"
import { makeServiceMetrics } from "../metrics.ts"
import {
  handPrincipalInProcess,
  INTERNAL_HEADER,
  PRINCIPAL_HEADER,
  signInternalCall,
  signPrincipal,
} from "../principal.ts"
import { principalOf, requireInternal, requirePrincipal } from "./internal-auth.ts"
import { makeHttpServer } from "./server.ts"

const secret = "s3cret-internal"
const principal = Schema.decodeUnknownSync(Principal)({
  orgId: newId("org"),
  role: "member",
  actor: { type: "user", userId: newId("usr") },
  requestId: "r1",
})

const app = makeHttpServer({
  service: "auth-test",
  logger: makeLogger({ service: "auth-test", level: "silent" }),
  metrics: makeServiceMetrics("auth-test", { defaultMetrics: false }),
})
// Plays the gateway of `npm start`, which hands the principal over with the request object.
app.addHook("onRequest", (request, _reply, done) => {
  if (request.headers["x-test-hand-over"] === "yes") handPrincipalInProcess(request.raw, principal)
  done()
})
app.register(async (scope) => {
  scope.addHook("preHandler", requirePrincipal(secret))
  scope.get("/api/org/webhooks", async (request) => ({ orgId: principalOf(request).orgId }))
})
app.post("/internal/keys/lookup", { preHandler: requireInternal(secret) }, async () => ({ ok: true }))

beforeAll(() => app.ready())
afterAll(() => app.close())

describe("requirePrincipal", () => {
  it("puts a valid principal on the request", async () => {
    const res = await app.inject({
      method: "GET",
      url: "/api/org/webhooks",
      headers: { [PRINCIPAL_HEADER]: signPrincipal(secret, principal) },
    })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ orgId: principal.orgId })
  })

  it("takes a principal handed over in process with the request object, unsigned", async () => {
    const res = await app.inject({ method: "GET", url: "/api/org/webhooks", headers: { "x-test-hand-over": "yes" } })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ orgId: principal.orgId })
  })

  it("answers 401 unauthorized without a principal, with a forged one, or an expired one", async () => {
    const headers = [
      {},
      { [PRINCIPAL_HEADER]: signPrincipal("wrong", principal) },
      { [PRINCIPAL_HEADER]: signPrincipal(secret, principal, { now: Date.now() - 120_000 }) },
    ]
    for (const h of headers) {
      const res = await app.inject({ method: "GET", url: "/api/org/webhooks", headers: h })
      expect(res.statusCode).toBe(401)
      expect(res.json()).toEqual({ error: "Unauthorized", code: "unauthorized" })
    }
  })
})

describe("requireInternal", () => {
  it("lets a signed service call through and refuses an unsigned or mis-signed one", async () => {
    const url = "/internal/keys/lookup"
    const ok = await app.inject({
      method: "POST",
      url,
      headers: { [INTERNAL_HEADER]: signInternalCall(secret, { method: "POST", path: url }) },
    })
    expect(ok.statusCode).toBe(200)
    expect((await app.inject({ method: "POST", url })).statusCode).toBe(401)
    const wrongPath = await app.inject({
      method: "POST",
      url,
      headers: { [INTERNAL_HEADER]: signInternalCall(secret, { method: "POST", path: "/internal/other" }) },
    })
    expect(wrongPath.statusCode).toBe(401)
  })
})

import { createHash, randomBytes } from "node:crypto"
import { apiKeyChecksum } from "@parley/contracts"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Answer, type Member, type MintedKey, type System, startSystem, type Tenant } from "./support/system.ts"

// docs/contract.md §1's error table, produced through the gateway as a tenant meets it: each status with
// its exact `code` and `error` text, bodies exactly `{ error, code }` (or with `issues`), and an
// `X-Request-Id` on every answer.
let system: System
let tenant: Tenant
let legacy: MintedKey
let widget: MintedKey
let member: Member

/** Exactly `{ error, code }`, or `{ error, code, issues }` for validation errors. */
const expectError = (answer: Answer, status: number, code: string, error: string | RegExp) => {
  expect(answer.status, answer.text).toBe(status)
  expect(answer.headers.get("content-type")).toMatch(/^application\/json/)
  const { issues, ...rest } = answer.body ?? {}
  expect(Object.keys(rest).sort()).toEqual(["code", "error"])
  expect(rest.code).toBe(code)
  if (typeof error === "string") expect(rest.error).toBe(error)
  else expect(rest.error).toMatch(error)
  if (issues !== undefined) expect(code).toBe("invalid_request")
  expect(answer.headers.get("x-request-id")).toBeTruthy()
}

const webhook = (path = "/hook") => ({ url: `${system.provider.url}${path}` })

beforeAll(async () => {
  system = await startSystem()
  tenant = await system.createTenant()
  ;[legacy, widget, member] = await Promise.all([tenant.mintKey(), tenant.mintKey(["chat:write"]), tenant.addMember()])
}, 60_000)

afterAll(async () => {
  await system?.close()
})

describe("400 invalid_request", () => {
  it("names each invalid field in issues", async () => {
    const answer = await legacy.client.post("/api/org/webhooks", { url: "not a url", events: ["no.such.event"] })
    expectError(answer, 400, "invalid_request", /^Invalid request: /)
    const paths = (answer.body.issues as Array<{ path: string; message: string }>).map((issue) => issue.path)
    expect(paths).toContain("url")
    for (const issue of answer.body.issues) expect(Object.keys(issue).sort()).toEqual(["message", "path"])
  })

  it("answers an unknown scope with 400 and creates nothing", async () => {
    const before = (await tenant.admin.client.get("/api/org/api-keys")).body.data.length
    const answer = await tenant.admin.client.post("/api/org/api-keys", { name: "x", scopes: ["chat:everything"] })
    expectError(answer, 400, "invalid_request", /^Invalid request: /)
    expect(answer.body.issues.map((issue: { path: string }) => issue.path).join()).toContain("scopes")
    expect((await tenant.admin.client.get("/api/org/api-keys")).body.data.length).toBe(before)
  })

  it("refuses a cloud access token that cannot travel in an HTTP header, rather than failing every send with 503", async () => {
    const org = await system.createTenant()
    const key = await org.mintKey()
    const channel = { phoneNumberId: "500000000001", businessAccountId: "500000000002" }
    for (const accessToken of ["line\nbreak", "snow\u2603man"]) {
      const answer = await key.client.put("/api/channels/cloud", { ...channel, accessToken })
      expectError(answer, 400, "invalid_request", /^Invalid request: /)
      expect(answer.body.issues.map((issue: { path: string }) => issue.path)).toContain("accessToken")
    }
  })

  it("answers malformed JSON with 400, not 500", async () => {
    const answer = await legacy.client.post("/api/org/webhooks", undefined, {
      raw: '{"url": ',
      contentType: "application/json",
    })
    expectError(answer, 400, "invalid_request", /^Invalid request: /)
  })
})

describe("401 unauthorized", () => {
  it("says API key required without any credential on the private API", async () => {
    expectError(await system.call("GET", "/api/org/webhooks"), 401, "unauthorized", "API key required")
  })

  it("says API key required without any credential on /api/public", async () => {
    expectError(
      await system.call("POST", "/api/public/chat", { json: { message: "hi" } }),
      401,
      "unauthorized",
      "API key required",
    )
  })

  it("says Invalid API key for a malformed, a mistyped and a revoked key", async () => {
    expectError(
      await system.call("GET", "/api/org/webhooks", { key: "parley_nope" }),
      401,
      "unauthorized",
      "Invalid API key",
    )
    const last = legacy.key.at(-1) === "a" ? "b" : "a"
    const mistyped = `${legacy.key.slice(0, -1)}${last}`
    expectError(
      await system.call("GET", "/api/org/webhooks", { key: mistyped }),
      401,
      "unauthorized",
      "Invalid API key",
    )
    // Well formed, checksum right, never issued: refused after the lookup finds nothing.
    const body = `parley_${"A".repeat(12)}.${"b".repeat(43)}`
    const unknown = `${body}${apiKeyChecksum(body)}`
    expectError(await system.call("GET", "/api/org/webhooks", { key: unknown }), 401, "unauthorized", "Invalid API key")
    const doomed = await tenant.mintKey()
    expect((await tenant.admin.client.delete(`/api/org/api-keys/${doomed.id}`)).status).toBe(200)
    expectError(await doomed.client.get("/api/org/webhooks"), 401, "unauthorized", "Invalid API key")
  })

  it("says Session required for an unknown or ended session", async () => {
    expectError(await system.call("GET", "/api/auth/me"), 401, "unauthorized", "Session required")
    const forged = `parley_session=${randomBytes(32).toString("base64url")}`
    expectError(
      await system.call("GET", "/api/org/webhooks", { cookie: forged }),
      401,
      "unauthorized",
      "Session required",
    )
    const cookie = await system.login(member.email, member.password)
    expect((await system.call("POST", "/api/auth/logout", { cookie })).status).toBe(204)
    expectError(await system.call("GET", "/api/org/webhooks", { cookie }), 401, "unauthorized", "Session required")
  })

  it("says Invalid email or password alike for an unknown email and a wrong password", async () => {
    const unknown = await system.call("POST", "/api/auth/login", {
      json: { email: "nobody@example.com", password: "whatever-1234" },
    })
    const wrong = await system.call("POST", "/api/auth/login", {
      json: { email: member.email, password: "wrong-password-1" },
    })
    expectError(unknown, 401, "unauthorized", "Invalid email or password")
    expectError(wrong, 401, "unauthorized", "Invalid email or password")
  })
})

describe("403", () => {
  it("missing_scope names the scope the route needs", async () => {
    expectError(
      await widget.client.get("/api/public/bookings/slots?date=2030-01-02&service=consultation"),
      403,
      "missing_scope",
      "API key is missing required scope: bookings:read",
    )
  })

  it("widget_key_forbidden on the private API, with the seed's exact text", async () => {
    expectError(
      await widget.client.get("/api/leads"),
      403,
      "widget_key_forbidden",
      "This API key is limited to the website widget and /api/public; use a key with the messages:send scope for server-to-server calls",
    )
  })

  it("origin_not_allowed for an Origin outside the key's allowedOrigins", async () => {
    const shop = await tenant.mintKey(["chat:write"], ["https://shop.example"])
    const refused = await shop.client.post(
      "/api/public/chat",
      { message: "hi" },
      { headers: { origin: "https://evil.example" } },
    )
    expectError(refused, 403, "origin_not_allowed", "Origin not allowed for this API key")
    const allowed = await shop.client.post(
      "/api/public/chat",
      { message: "hi" },
      { headers: { origin: "https://shop.example" } },
    )
    expect(allowed.status, allowed.text).toBe(200)
  })

  it("admin_required for a member on an administrator route", async () => {
    expectError(
      await member.client.post("/api/org/webhooks", webhook()),
      403,
      "admin_required",
      "Organization administrator required",
    )
  })

  it("plan_feature_required when creating or revoking keys without api_access", async () => {
    const basic = await system.createTenant({ features: [] })
    expectError(
      await basic.admin.client.post("/api/org/api-keys", { name: "nope" }),
      403,
      "plan_feature_required",
      "Plan feature required: api_access",
    )
    expectError(
      await basic.admin.client.delete(`/api/org/api-keys/key_${"a".repeat(22)}`),
      403,
      "plan_feature_required",
      "Plan feature required: api_access",
    )
  })

  it("key_limit at the eleventh active key, creating nothing", async () => {
    const org = await system.createTenant()
    for (let i = 0; i < 10; i++) await org.mintKey()
    expectError(
      await org.admin.client.post("/api/org/api-keys", { name: "eleventh" }),
      403,
      "key_limit",
      "Maximum 10 active API keys",
    )
    expect((await org.admin.client.get("/api/org/api-keys")).body.data).toHaveLength(10)
  })

  it("webhook_limit at the sixth webhook, creating nothing", async () => {
    const org = await system.createTenant()
    for (let i = 0; i < 5; i++)
      expect((await org.admin.client.post("/api/org/webhooks", webhook(`/${i}`))).status).toBe(201)
    expectError(
      await org.admin.client.post("/api/org/webhooks", webhook("/6")),
      403,
      "webhook_limit",
      "Maximum 5 webhooks per organization",
    )
    expect((await org.admin.client.get("/api/org/webhooks")).body.data).toHaveLength(5)
  })
})

describe("404, 409, 413, 415", () => {
  it("answers unknown routes and unknown resources with Not found", async () => {
    for (const path of ["/nothing-here", "/api/nope", "/api/org/nope", "/api/public/nope"]) {
      expectError(await legacy.client.get(path), 404, "not_found", "Not found")
    }
    expectError(await legacy.client.get(`/api/org/webhooks/wh_${"x".repeat(22)}`), 404, "not_found", "Not found")
    expectError(await legacy.client.get(`/api/campaigns/cmp_${"x".repeat(22)}`), 404, "not_found", "Not found")
  })

  it("answers a duplicate template name and language with 409 conflict", async () => {
    await legacy.client.put("/api/channels/cloud", {
      phoneNumberId: "300000000001",
      businessAccountId: "300000000002",
      accessToken: "t",
    })
    const template = {
      name: "dup_check",
      language: "en_US",
      category: "UTILITY",
      components: [{ type: "BODY", text: "Hi" }],
    }
    expect((await legacy.client.post("/api/templates", template)).status).toBe(201)
    expectError(await legacy.client.post("/api/templates", template), 409, "conflict", /\S/)
  })

  it("answers a JSON body over 1 MiB with 413", async () => {
    const big = JSON.stringify({ url: `${system.provider.url}/x`, padding: "x".repeat(1024 * 1024) })
    const answer = await legacy.client.post("/api/org/webhooks", undefined, {
      raw: big,
      contentType: "application/json",
    })
    expectError(answer, 413, "payload_too_large", "Payload too large")
  })

  it("streams uploads through to the service: a media file comes back with its digest, one byte over 16 MiB is a 413", async () => {
    const bytes = randomBytes(2 * 1024 * 1024)
    const stored = await legacy.client.post("/api/media", undefined, { raw: bytes, contentType: "image/png" })
    expect(stored.status, stored.text).toBe(201)
    expect(stored.body).toMatchObject({
      contentType: "image/png",
      size: bytes.length,
      sha256: createHash("sha256").update(bytes).digest("hex"),
    })
    const tooBig = await legacy.client.post("/api/media", undefined, {
      raw: new Uint8Array(16 * 1024 * 1024 + 1),
      contentType: "image/png",
    })
    expectError(tooBig, 413, "payload_too_large", "Payload too large")
  })

  it("answers a JSON route sent text/plain with 415", async () => {
    const raw = JSON.stringify(webhook())
    expectError(
      await legacy.client.post("/api/org/webhooks", undefined, { raw, contentType: "text/plain" }),
      415,
      "unsupported_media_type",
      "Unsupported media type",
    )
    expectError(
      await widget.client.post("/api/public/chat", undefined, { raw: '{"message":"hi"}', contentType: "text/plain" }),
      415,
      "unsupported_media_type",
      "Unsupported media type",
    )
  })
})

describe("X-Request-Id", () => {
  it("is on every answer, generated when absent and echoed when given, errors and 404 included", async () => {
    const calls: Array<[string, string, { key?: string }]> = [
      ["GET", "/api/org/webhooks", { key: legacy.key }],
      ["GET", "/api/org/webhooks", {}],
      ["GET", "/nothing-here", {}],
      ["GET", "/health/live", {}],
      ["POST", "/api/org/webhooks", { key: widget.key }],
    ]
    for (const [method, path, credential] of calls) {
      const generated = await system.call(method, path, credential)
      expect(generated.headers.get("x-request-id"), `${method} ${path}`).toMatch(/\S/)
      const given = `trace-${randomBytes(6).toString("hex")}`
      const echoed = await system.call(method, path, { ...credential, headers: { "x-request-id": given } })
      expect(echoed.headers.get("x-request-id"), `${method} ${path}`).toBe(given)
    }
  })
})

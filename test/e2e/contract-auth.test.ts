import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Answer, type Member, type MintedKey, type System, startSystem, type Tenant } from "./support/system.ts"

// docs/contract.md §2: how a tenant presents a key (§2.2), who a key is (§2.3), sessions and their CSRF
// rules (§2.4), through the gateway only.
let system: System
let a: Tenant
let b: Tenant
let legacyA: MintedKey
let sendA: MintedKey
let widgetA: MintedKey
let widgetB: MintedKey
let legacyB: MintedKey
let memberA: Member

const webhook = () => ({ url: `${system.provider.url}/auth-test` })
const expectUnauthorized = (answer: Answer, error: string) =>
  expect({ status: answer.status, body: answer.body }).toEqual({ status: 401, body: { error, code: "unauthorized" } })

beforeAll(async () => {
  system = await startSystem()
  ;[a, b] = await Promise.all([system.createTenant(), system.createTenant()])
  ;[legacyA, sendA, widgetA, memberA] = await Promise.all([
    a.mintKey(),
    a.mintKey(["messages:send"]),
    a.mintKey(["chat:write", "chat:read"]),
    a.addMember(),
  ])
  ;[legacyB, widgetB] = await Promise.all([b.mintKey(), b.mintKey(["chat:write", "chat:read"])])
}, 60_000)

afterAll(async () => {
  await system?.close()
})

/** POST /api/public/chat with the given headers, query and body; the session's organization shows who answered. */
const chat = (options: { headers?: Record<string, string>; query?: string; body?: Record<string, unknown> } = {}) =>
  system.call("POST", `/api/public/chat${options.query ?? ""}`, {
    json: { message: "Hello there", ...options.body },
    ...(options.headers === undefined ? {} : { headers: options.headers }),
  })

/** Whose session a chat answer opened: the organization whose chat:read key can read it back. */
const ownerOf = async (answer: Answer): Promise<"A" | "B" | "nobody"> => {
  expect(answer.status, answer.text).toBe(200)
  const id = answer.body.sessionId as string
  if ((await widgetA.client.get(`/api/public/chat/${id}`)).status === 200) return "A"
  if ((await widgetB.client.get(`/api/public/chat/${id}`)).status === 200) return "B"
  return "nobody"
}

describe("§2.2 the four key forms on /api/public", () => {
  it("accepts X-API-Key, Authorization: Bearer, the body's apiKey and ?apiKey=", async () => {
    expect(await ownerOf(await chat({ headers: { "x-api-key": widgetA.key } }))).toBe("A")
    expect(await ownerOf(await chat({ headers: { authorization: `Bearer ${widgetA.key}` } }))).toBe("A")
    expect(await ownerOf(await chat({ body: { apiKey: widgetA.key } }))).toBe("A")
    expect(await ownerOf(await chat({ query: `?apiKey=${encodeURIComponent(widgetA.key)}` }))).toBe("A")
  })

  it("uses the first form present when several valid ones name different organizations", async () => {
    const forms = { bearer: `Bearer ${widgetB.key}`, query: `?apiKey=${widgetB.key}` }
    expect(await ownerOf(await chat({ headers: { "x-api-key": widgetA.key, authorization: forms.bearer } }))).toBe("A")
    expect(
      await ownerOf(await chat({ headers: { authorization: `Bearer ${widgetA.key}` }, body: { apiKey: widgetB.key } })),
    ).toBe("A")
    expect(await ownerOf(await chat({ body: { apiKey: widgetA.key }, query: forms.query }))).toBe("A")
  })

  it("does not rescue a present but invalid earlier form with a valid later one", async () => {
    const bad = "parley_notakey.atall"
    expectUnauthorized(
      await chat({ headers: { "x-api-key": bad, authorization: `Bearer ${widgetA.key}` } }),
      "Invalid API key",
    )
    expectUnauthorized(
      await chat({ headers: { authorization: `Bearer ${bad}` }, body: { apiKey: widgetA.key } }),
      "Invalid API key",
    )
    expectUnauthorized(await chat({ body: { apiKey: bad }, query: `?apiKey=${widgetA.key}` }), "Invalid API key")
    expectUnauthorized(await chat({ body: { apiKey: 12345 }, query: `?apiKey=${widgetA.key}` }), "Invalid API key")
    expectUnauthorized(
      await chat({ headers: { authorization: "Bearer" }, body: { apiKey: widgetA.key } }),
      "Invalid API key",
    )
  })
})

describe("§2.2 the key's removal", () => {
  // The forwarded body itself is only visible to a recording upstream (the gateway's own
  // test/authentication.test.ts checks it there); through the whole system, what can be seen is
  // that nothing the assistant answers or stores carries the key.
  it("leaves no trace of a body or query key in the answer or the stored conversation", async () => {
    const viaBody = await chat({ body: { apiKey: widgetA.key, message: "Hello, I am Dana" } })
    const viaQuery = await chat({ query: `?apiKey=${widgetA.key}` })
    for (const answer of [viaBody, viaQuery]) {
      expect(answer.status, answer.text).toBe(200)
      expect(answer.text).not.toContain(widgetA.key)
      const transcript = await widgetA.client.get(`/api/public/chat/${answer.body.sessionId}`)
      expect(transcript.status).toBe(200)
      expect(transcript.text).not.toContain(widgetA.key)
      expect(transcript.text).not.toContain(widgetA.key.split(".")[0] as string)
    }
  })
})

describe("§2.2 the private API reads X-API-Key only", () => {
  it("treats Bearer, ?apiKey= and a body apiKey as no key at all", async () => {
    const bearer = await system.call("GET", "/api/org/webhooks", {
      headers: { authorization: `Bearer ${legacyA.key}` },
    })
    expectUnauthorized(bearer, "API key required")
    expectUnauthorized(await system.call("GET", `/api/org/webhooks?apiKey=${legacyA.key}`), "API key required")
    expectUnauthorized(
      await system.call("POST", "/api/org/webhooks", { json: { ...webhook(), apiKey: legacyA.key } }),
      "API key required",
    )
    expect((await legacyA.client.get("/api/org/webhooks")).status).toBe(200)
  })

  it("does not take the operator token as a key", async () => {
    const answer = await system.call("GET", "/api/org/webhooks", {
      headers: { authorization: `Bearer ${system.operatorToken}` },
    })
    expectUnauthorized(answer, "API key required")
  })
})

describe("§2.3 who a key is", () => {
  it("lets legacy and messages:send keys act as the organization's administrator", async () => {
    for (const key of [legacyA, sendA]) {
      const created = await key.client.post("/api/org/webhooks", webhook())
      expect(created.status, created.text).toBe(201)
      expect((await key.client.delete(`/api/org/webhooks/${created.body.id}`)).status).toBe(204)
      expect((await key.client.get("/api/org/api-keys")).status).toBe(200)
      expect((await key.client.get("/api/leads")).status).toBe(200)
    }
  })

  it("refuses a messages:send key on widget routes whose scope it lacks", async () => {
    const answer = await sendA.client.post("/api/public/chat", { message: "hi" })
    expect(answer.body).toEqual({ error: "API key is missing required scope: chat:write", code: "missing_scope" })
  })

  it("refuses a widget-only key everywhere on the private API", async () => {
    const forbidden = {
      error:
        "This API key is limited to the website widget and /api/public; use a key with the messages:send scope for server-to-server calls",
      code: "widget_key_forbidden",
    }
    const calls: Array<[string, string, unknown?]> = [
      ["GET", "/api/org/webhooks"],
      ["POST", "/api/org/webhooks", webhook()],
      ["GET", "/api/org/api-keys"],
      ["GET", "/api/org/members"],
      ["GET", "/api/leads"],
      ["POST", "/api/messages", { to: "14155550100", text: "hi" }],
      ["GET", "/api/channels"],
      ["GET", "/api/bookings"],
    ]
    for (const [method, path, json] of calls) {
      const answer = await system.call(method, path, { key: widgetA.key, ...(json === undefined ? {} : { json }) })
      expect({ route: `${method} ${path}`, status: answer.status, body: answer.body }).toEqual({
        route: `${method} ${path}`,
        status: 403,
        body: forbidden,
      })
    }
  })
})

describe("§2.4 sessions", () => {
  it("sets the session cookie HttpOnly, SameSite=Lax, Path=/ (and not Secure on http)", async () => {
    const login = await system.call("POST", "/api/auth/login", {
      json: { email: memberA.email, password: memberA.password },
    })
    expect(login.status).toBe(200)
    expect(login.body).toMatchObject({
      user: { id: memberA.id, email: memberA.email, role: "member" },
      organization: { id: a.orgId },
    })
    const cookie = login.headers.get("set-cookie") ?? ""
    expect(cookie).toMatch(/^parley_session=[^;]+/)
    const attributes = cookie.split(";").map((part) => part.trim().toLowerCase())
    expect(attributes).toContain("httponly")
    expect(attributes).toContain("samesite=lax")
    expect(attributes).toContain("path=/")
    expect(attributes).not.toContain("secure")
  })

  it("refuses administrator routes to a member with admin_required, and lets members read the rest", async () => {
    const required = { error: "Organization administrator required", code: "admin_required" }
    expect((await memberA.client.get("/api/org/webhooks")).status).toBe(200)
    expect((await memberA.client.get("/api/org/members")).status).toBe(200)
    expect((await memberA.client.get("/api/org/webhook-events")).status).toBe(200)
    // Leads, their export and bookings are an administrator's (§9: "except where marked"; they are not).
    const adminOnly: Array<[string, string, unknown?]> = [
      ["POST", "/api/org/webhooks", webhook()],
      ["GET", "/api/org/api-keys"],
      ["POST", "/api/org/api-keys", { name: "x" }],
      ["POST", "/api/org/members", { email: "x@example.com", password: "long-enough-1", role: "admin" }],
      ["PATCH", "/api/org/members/usr_x", { role: "admin" }],
      ["GET", "/api/channels"],
      ["GET", "/api/leads"],
      ["GET", "/api/leads/export"],
      ["GET", "/api/bookings"],
      ["PUT", "/api/bookings/settings", { timezone: "UTC", services: ["x"], slotMinutes: 30, capacity: 1, hours: {} }],
    ]
    for (const [method, path, json] of adminOnly) {
      const answer = await system.call(method, path, {
        cookie: memberA.cookie,
        ...(json === undefined ? {} : { json }),
      })
      expect({ route: `${method} ${path}`, status: answer.status, body: answer.body }).toEqual({
        route: `${method} ${path}`,
        status: 403,
        body: required,
      })
    }
  })

  it("uses the key when both a session cookie and X-API-Key are present", async () => {
    const mine = await system.call("POST", "/api/org/webhooks", {
      cookie: a.admin.cookie,
      key: legacyB.key,
      json: webhook(),
    })
    expect(mine.status, mine.text).toBe(201)
    expect((await legacyB.client.get(`/api/org/webhooks/${mine.body.id}`)).status).toBe(200)
    expect((await a.admin.client.get(`/api/org/webhooks/${mine.body.id}`)).status).toBe(404)
    // An invalid key is not rescued by a valid cookie, nor a member's cookie limited by a key.
    expectUnauthorized(
      await system.call("GET", "/api/org/webhooks", { cookie: a.admin.cookie, key: "parley_bad.key" }),
      "Invalid API key",
    )
    expect((await system.call("GET", "/api/org/api-keys", { cookie: memberA.cookie, key: legacyA.key })).status).toBe(
      200,
    )
  })

  it("refuses a mutating session request from another Origin, and accepts the public URL's", async () => {
    const before = (await a.admin.client.get("/api/org/webhooks")).body.data.length
    const foreign = await a.admin.client.post("/api/org/webhooks", webhook(), {
      headers: { origin: "https://evil.example" },
    })
    expect(foreign.status, foreign.text).toBe(403)
    const deleteForeign = await a.admin.client.delete(`/api/org/members/${memberA.id}`, {
      headers: { origin: "https://evil.example" },
    })
    expect(deleteForeign.status).toBe(403)
    const login = await system.call("POST", "/api/auth/login", {
      json: { email: memberA.email, password: memberA.password },
      headers: { origin: "https://evil.example" },
    })
    expect(login.status).toBe(403)
    expect(login.headers.get("set-cookie")).toBeNull()
    expect((await a.admin.client.get("/api/org/webhooks")).body.data.length).toBe(before)
    const own = await a.admin.client.post("/api/org/webhooks", webhook(), { headers: { origin: system.publicUrl } })
    expect(own.status, own.text).toBe(201)
    expect((await a.admin.client.delete(`/api/org/webhooks/${own.body.id}`)).status).toBe(204)
    expect((await memberA.client.get("/api/auth/me")).status).toBe(200)
  })

  it("refuses a mutating session request whose body is not JSON with 415, uploads included, creating nothing", async () => {
    const count = async (path: string) => (await a.admin.client.get(path)).body.data.length
    const before = { webhooks: await count("/api/org/webhooks"), contacts: await count("/api/contacts") }
    const attempts: Array<[string, string, string]> = [
      ...["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"].map(
        (contentType): [string, string, string] => ["/api/org/webhooks", contentType, JSON.stringify(webhook())],
      ),
      // §2.4: "a request body must be application/json" — with a session the two non-JSON uploads
      // are refused too; they take an API key.
      ["/api/contacts/import", "text/csv", "phone,name\n14155550177,Eve\n"],
      ["/api/media", "image/png", "\x89PNG\r\n\x1a\n"],
    ]
    for (const [path, contentType, raw] of attempts) {
      const answer = await a.admin.client.post(path, undefined, { raw, contentType })
      expect({ path, contentType, status: answer.status, body: answer.body }).toEqual({
        path,
        contentType,
        status: 415,
        body: { error: "Unsupported media type", code: "unsupported_media_type" },
      })
    }
    expect({ webhooks: await count("/api/org/webhooks"), contacts: await count("/api/contacts") }).toEqual(before)
  })
})

describe("§2.1 revocation", () => {
  it("refuses a revoked key within one second of the revocation's answer", async () => {
    const doomed = await a.mintKey()
    expect((await doomed.client.get("/api/org/webhooks")).status).toBe(200) // now cached at the gateway
    expect((await a.admin.client.delete(`/api/org/api-keys/${doomed.id}`)).status).toBe(200)
    const revokedAt = Date.now()
    let refusedAfter = -1
    while (Date.now() - revokedAt < 1_000) {
      const answer = await doomed.client.get("/api/org/webhooks")
      if (answer.status === 401) {
        refusedAfter = Date.now() - revokedAt
        expectUnauthorized(answer, "Invalid API key")
        break
      }
      expect(answer.status).toBe(200)
    }
    expect(refusedAfter, "still accepted one second after revocation").toBeGreaterThanOrEqual(0)
    expect(refusedAfter).toBeLessThan(1_000)
  })
})

describe("§8 CORS on the widget surface", () => {
  it("answers a browser preflight from any origin, allowing X-API-Key, Authorization and Content-Type", async () => {
    const preflight = await system.call("OPTIONS", "/api/public/chat", {
      headers: {
        origin: "https://any-shop.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "x-api-key,authorization,content-type",
      },
    })
    expect(preflight.status).toBeLessThan(300)
    expect(preflight.headers.get("access-control-allow-origin")).toMatch(/^(\*|https:\/\/any-shop\.example)$/)
    const allowed = (preflight.headers.get("access-control-allow-headers") ?? "").toLowerCase().split(/\s*,\s*/)
    expect(allowed).toEqual(expect.arrayContaining(["x-api-key", "authorization", "content-type"]))
    expect(preflight.headers.get("access-control-allow-methods")).toContain("POST")
  })
})

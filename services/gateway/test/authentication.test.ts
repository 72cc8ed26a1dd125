/**
 * Authentication and authorization at the edge (docs/contract.md §2.2–§2.4) against the real identity
 * service; the services behind are played by a loopback server that records what reaches it.
 */
import { apiKeyChecksum, ErrorText } from "@parley/contracts"
import { PRINCIPAL_HEADER, verifyPrincipal } from "@parley/platform"
import { eventually } from "@parley/platform/testing"
import { Result } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type CreatedKey,
  createKey,
  createOrganization,
  INTERNAL_SECRET,
  type Organization,
  PUBLIC_URL,
  type RunningGateway,
  revokeKey,
  startSystem,
  type TestSystem,
} from "./system.ts"

let system: TestSystem
let gw: RunningGateway
let org: Organization
let legacy: CreatedKey
let widget: CreatedKey
let server: CreatedKey
let restricted: CreatedKey

beforeAll(async () => {
  system = await startSystem()
  gw = await system.startGateway()
  org = await createOrganization(gw.url)
  legacy = await createKey(gw.url, org)
  widget = await createKey(gw.url, org, { scopes: ["chat:write", "chat:read"] })
  server = await createKey(gw.url, org, { scopes: ["messages:send", "chat:write"] })
  restricted = await createKey(gw.url, org, { scopes: ["chat:write"], allowedOrigins: ["https://shop.example.com"] })
})
afterAll(async () => system?.close())

const lastForwarded = () => {
  const request = system.upstream.requests.at(-1)
  if (request === undefined) throw new Error("nothing was forwarded")
  return request
}

const principalForwarded = () => {
  const verified = verifyPrincipal(INTERNAL_SECRET, lastForwarded().headers[PRINCIPAL_HEADER] as string)
  if (Result.isFailure(verified)) throw new Error(`bad principal: ${verified.failure.reason}`)
  return verified.success
}

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${gw.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  })

const lookupsSeenByIdentity = () => system.identityLogs.filter((line) => line.includes("/internal/keys/lookup")).length

describe("API keys on the public widget surface", () => {
  it("accepts the key in each of the four forms", async () => {
    const forms: Array<[string, () => Promise<Response>]> = [
      ["header", () => post("/api/public/chat", { message: "hi" }, { "x-api-key": widget.key })],
      ["bearer", () => post("/api/public/chat", { message: "hi" }, { authorization: `Bearer ${widget.key}` })],
      ["body", () => post("/api/public/chat", { message: "hi", apiKey: widget.key })],
      ["query", () => post(`/api/public/chat?apiKey=${widget.key}`, { message: "hi" })],
    ]
    for (const [form, send] of forms) {
      const response = await send()
      expect(response.status, form).toBe(200)
      expect(principalForwarded(), form).toMatchObject({ orgId: org.orgId, actor: { type: "api_key" } })
    }
  })

  it("removes the key from the body and the query before the service sees them", async () => {
    await post(
      `/api/public/chat?lang=en&apiKey=${widget.key}&x=1`,
      { message: "hi", apiKey: "ignored" },
      {
        "x-api-key": widget.key,
      },
    )
    const forwarded = lastForwarded()
    expect(forwarded.url).toBe("/api/public/chat?lang=en&x=1")
    expect(forwarded.json()).toEqual({ message: "hi" })
    expect(forwarded.text()).not.toContain(widget.key)

    await post("/api/public/chat", { message: "hi", apiKey: widget.key })
    expect(lastForwarded().json()).toEqual({ message: "hi" })
    expect(Number(lastForwarded().headers["content-length"])).toBe(lastForwarded().body.length)
  })

  it("uses the first form present and never falls back when it is invalid", async () => {
    const response = await post("/api/public/chat", { message: "hi", apiKey: widget.key }, { "x-api-key": "nope" })
    expect(response.status).toBe(401)
    expect(await response.json()).toEqual({ error: ErrorText.invalidApiKey, code: "unauthorized" })
    const bearer = await post(`/api/public/chat?apiKey=${widget.key}`, { message: "hi" }, { authorization: "Bearer x" })
    expect(bearer.status).toBe(401)
  })

  it("refuses a request without a key", async () => {
    const response = await post("/api/public/chat", { message: "hi" })
    expect(response.status).toBe(401)
    expect(await response.json()).toEqual({ error: ErrorText.apiKeyRequired, code: "unauthorized" })
  })

  it("checks each route's scope and names the missing one", async () => {
    const slots = await fetch(`${gw.url}/api/public/bookings/slots?date=2026-12-01`, {
      headers: { "x-api-key": widget.key },
    })
    expect(slots.status).toBe(403)
    expect(await slots.json()).toEqual({
      error: "API key is missing required scope: bookings:read",
      code: "missing_scope",
    })
    const booking = await post("/api/public/bookings", {}, { "x-api-key": server.key })
    expect(await booking.json()).toEqual({
      error: "API key is missing required scope: bookings:write",
      code: "missing_scope",
    })
    const read = await fetch(`${gw.url}/api/public/chat/ses_1`, { headers: { "x-api-key": widget.key } })
    expect(read.status).toBe(200)
  })

  it("lets a legacy key reach every public route", async () => {
    const response = await post("/api/public/bookings", { name: "x" }, { "x-api-key": legacy.key })
    expect(response.status).toBe(200)
    expect(principalForwarded()).toMatchObject({ role: "admin", actor: { keyId: legacy.id, scopes: [] } })
  })

  it("refuses an origin outside the key's allowedOrigins, and accepts listed and server-side calls", async () => {
    const foreign = await post(
      "/api/public/chat",
      { message: "hi" },
      {
        "x-api-key": restricted.key,
        origin: "https://evil.example.com",
      },
    )
    expect(foreign.status).toBe(403)
    expect(await foreign.json()).toEqual({ error: ErrorText.originNotAllowed, code: "origin_not_allowed" })
    const listed = await post(
      "/api/public/chat",
      { message: "hi" },
      {
        "x-api-key": restricted.key,
        origin: "https://shop.example.com",
      },
    )
    expect(listed.status).toBe(200)
    expect(listed.headers.get("access-control-allow-origin")).toBe("https://shop.example.com")
    expect((await post("/api/public/chat", { message: "hi" }, { "x-api-key": restricted.key })).status).toBe(200)
  })
})

describe("API keys on the private API", () => {
  it("refuses a widget-only key with the contract's text", async () => {
    const response = await fetch(`${gw.url}/api/templates`, { headers: { "x-api-key": widget.key } })
    expect(response.status).toBe(403)
    expect(await response.json()).toEqual({
      error:
        "This API key is limited to the website widget and /api/public; use a key with the messages:send scope for server-to-server calls",
      code: "widget_key_forbidden",
    })
  })

  it("lets messages:send and legacy keys act as administrators", async () => {
    for (const key of [server, legacy]) {
      const response = await fetch(`${gw.url}/api/templates`, { headers: { "x-api-key": key.key } })
      expect(response.status).toBe(200)
      expect(principalForwarded()).toMatchObject({ orgId: org.orgId, role: "admin" })
    }
    const members = await fetch(`${gw.url}/api/org/members`, { headers: { "x-api-key": server.key } })
    expect(members.status).toBe(200)
  })

  it("accepts the key only in X-API-Key", async () => {
    const bearer = await fetch(`${gw.url}/api/templates`, { headers: { authorization: `Bearer ${legacy.key}` } })
    expect(bearer.status).toBe(401)
    expect(await bearer.json()).toEqual({ error: ErrorText.apiKeyRequired, code: "unauthorized" })
    const query = await fetch(`${gw.url}/api/templates?apiKey=${legacy.key}`)
    expect(query.status).toBe(401)
  })

  it("refuses a key with a broken checksum without asking identity", async () => {
    const body = legacy.key.slice(0, -6)
    const good = apiKeyChecksum(body)
    const broken = body + (good[0] === "A" ? "B" : "A") + good.slice(1)
    const before = lookupsSeenByIdentity()
    const response = await fetch(`${gw.url}/api/templates`, { headers: { "x-api-key": broken } })
    expect(response.status).toBe(401)
    expect(await response.json()).toEqual({ error: ErrorText.invalidApiKey, code: "unauthorized" })
    for (const malformed of ["parley_short.x", "sk_live_123", `${legacy.key}x`]) {
      expect((await fetch(`${gw.url}/api/templates`, { headers: { "x-api-key": malformed } })).status).toBe(401)
    }
    // Identity's access log names every lookup it answered (after answering it). A lookup that
    // certainly happens, made last, bounds the wait: once its line is there, exactly one was made.
    const body2 = `parley_${"Y".repeat(12)}.${"p".repeat(43)}`
    await fetch(`${gw.url}/api/templates`, { headers: { "x-api-key": body2 + apiKeyChecksum(body2) } })
    await eventually(() => expect(lookupsSeenByIdentity()).toBeGreaterThan(before))
    expect(lookupsSeenByIdentity()).toBe(before + 1)
  })

  it("refuses an unknown key that passes the checksum, after one lookup", async () => {
    const body = `parley_${"Z".repeat(12)}.${"q".repeat(43)}`
    const unknown = body + apiKeyChecksum(body)
    const response = await fetch(`${gw.url}/api/templates`, { headers: { "x-api-key": unknown } })
    expect(response.status).toBe(401)
    expect(await response.json()).toEqual({ error: ErrorText.invalidApiKey, code: "unauthorized" })
  })

  it("refuses a revoked key", async () => {
    const doomed = await createKey(gw.url, org)
    expect((await fetch(`${gw.url}/api/templates`, { headers: { "x-api-key": doomed.key } })).status).toBe(200)
    await revokeKey(gw.url, org, doomed.id)
    await eventually(async () => {
      const response = await fetch(`${gw.url}/api/templates`, { headers: { "x-api-key": doomed.key } })
      expect(response.status).toBe(401)
    })
  })
})

describe("sessions", () => {
  it("authenticate the dashboard as the session's user", async () => {
    const response = await fetch(`${gw.url}/api/templates`, { headers: { cookie: org.cookie } })
    expect(response.status).toBe(200)
    expect(principalForwarded()).toMatchObject({ orgId: org.orgId, role: "admin", actor: { type: "user" } })
    expect(lastForwarded().headers.cookie).toBeUndefined()
  })

  it("serve /api/auth/me with the session's principal", async () => {
    const me = await fetch(`${gw.url}/api/auth/me`, { headers: { cookie: org.cookie } })
    expect(me.status).toBe(200)
    expect(((await me.json()) as { user: { email: string } }).user.email).toBe(org.adminEmail)
    const anonymous = await fetch(`${gw.url}/api/auth/me`)
    expect(anonymous.status).toBe(401)
    expect(await anonymous.json()).toEqual({ error: ErrorText.sessionRequired, code: "unauthorized" })
  })

  it("refuse an unknown session", async () => {
    const response = await fetch(`${gw.url}/api/templates`, { headers: { cookie: "parley_session=nonsense" } })
    expect(response.status).toBe(401)
    expect(await response.json()).toEqual({ error: ErrorText.sessionRequired, code: "unauthorized" })
  })

  it("give way to a key presented with them", async () => {
    const response = await fetch(`${gw.url}/api/templates`, {
      headers: { cookie: org.cookie, "x-api-key": server.key },
    })
    expect(response.status).toBe(200)
    expect(principalForwarded().actor).toMatchObject({ type: "api_key", keyId: server.id })
    const widgetWins = await fetch(`${gw.url}/api/templates`, {
      headers: { cookie: org.cookie, "x-api-key": widget.key },
    })
    expect(widgetWins.status).toBe(403)
  })

  it("refuse a mutating request from a foreign origin or with a body that is not JSON (CSRF)", async () => {
    const foreign = await post(
      "/api/messages",
      { to: "1", text: "x" },
      { cookie: org.cookie, origin: "https://evil.example" },
    )
    expect(foreign.status).toBe(403)
    expect(await foreign.json()).toEqual({ error: "Origin not allowed for this API key", code: "origin_not_allowed" })
    // With a session a body must be application/json: a form's types, and the uploads too.
    const before = system.upstream.requests.length
    for (const [path, type, body] of [
      ["/api/messages", "text/plain", "to=1"],
      ["/api/messages", "application/x-www-form-urlencoded", "to=1"],
      ["/api/media", "image/png", "\x89PNG"],
      ["/api/contacts/import", "text/csv", "phone\n14155550100\n"],
    ] as const) {
      const refused = await fetch(`${gw.url}${path}`, {
        method: "POST",
        headers: { cookie: org.cookie, origin: PUBLIC_URL, "content-type": type },
        body,
      })
      expect({ path, type, status: refused.status, body: await refused.json() }).toEqual({
        path,
        type,
        status: 415,
        body: { error: "Unsupported media type", code: "unsupported_media_type" },
      })
    }
    expect(system.upstream.requests.length).toBe(before)
    const same = await post("/api/messages", { to: "1", text: "x" }, { cookie: org.cookie, origin: PUBLIC_URL })
    expect(same.status).toBe(200)
    const bodiless = await fetch(`${gw.url}/api/org/webhooks/wh_1`, {
      method: "DELETE",
      headers: { cookie: org.cookie },
    })
    expect(bodiless.status).toBe(200)
    // A key is not a browser credential: no CSRF rule applies to it.
    const keyed = await post("/api/messages", { to: "1" }, { "x-api-key": server.key, origin: "https://evil.example" })
    expect(keyed.status).toBe(200)
  })

  it("end at logout", async () => {
    const other = await createOrganization(gw.url)
    const logout = await fetch(`${gw.url}/api/auth/logout`, { method: "POST", headers: { cookie: other.cookie } })
    expect(logout.status).toBe(204)
    expect((await fetch(`${gw.url}/api/templates`, { headers: { cookie: other.cookie } })).status).toBe(401)
  })
})

describe("the rest of the API", () => {
  it("refuses a request without any credential", async () => {
    const response = await fetch(`${gw.url}/api/org/webhooks`)
    expect(response.status).toBe(401)
    expect(await response.json()).toEqual({ error: ErrorText.apiKeyRequired, code: "unauthorized" })
  })

  it("never lets a client choose the organization or forge the internal headers", async () => {
    const other = await createOrganization(gw.url)
    const forged = `${"x".repeat(20)}.${"y".repeat(20)}`
    const response = await fetch(`${gw.url}/api/templates`, {
      headers: {
        "x-api-key": server.key,
        "x-parley-principal": forged,
        "x-parley-internal": forged,
        "x-org-id": other.orgId,
      },
    })
    expect(response.status).toBe(200)
    expect(lastForwarded().headers["x-parley-internal"]).toBeUndefined()
    expect(principalForwarded().orgId).toBe(org.orgId)
    // Unauthenticated surfaces never pass a client's principal on either.
    await fetch(`${gw.url}/channels/bridge/inbound`, {
      method: "POST",
      headers: { "x-parley-principal": forged, "content-type": "application/json" },
      body: "{}",
    })
    expect(lastForwarded().headers[PRINCIPAL_HEADER]).toBeUndefined()
  })
})

import { startHttpServer } from "@parley/platform/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Answer, type MintedKey, type System, startSystem, type Tenant } from "./support/system.ts"

// Issue #13's hardening, through the gateway as a browser meets it: nosniff on every answer,
// no-store on every answer carrying a secret, new passwords that are not easy to guess, and failed
// logins slowed per account without locking a user out of their own browser.
let system: System
let tenant: Tenant
let key: MintedKey

beforeAll(async () => {
  system = await startSystem()
  tenant = await system.createTenant()
  key = await tenant.mintKey()
}, 60_000)
afterAll(async () => {
  await system?.close()
})

const hardened = (answer: Answer, what: string) => {
  expect(answer.headers.get("x-content-type-options"), what).toBe("nosniff")
  expect(answer.headers.get("cache-control"), what).toBe("no-store")
}

describe("headers", () => {
  it("says nosniff and no-store on the answers that carry a secret", async () => {
    const created = await tenant.admin.client.post("/api/org/api-keys", { name: "hardening" })
    expect(created.status).toBe(201)
    expect(created.body.key).toMatch(/^parley_/)
    hardened(created, "a new API key")
    const webhook = await key.client.post("/api/org/webhooks", { url: "https://example.com/hook" })
    expect(webhook.status).toBe(201)
    expect(webhook.body.secret).toBeTruthy()
    hardened(webhook, "a new webhook secret")
    const bridge = await key.client.put("/api/channels/bridge", { outboundUrl: "https://example.com/bridge" })
    expect(bridge.status).toBe(200)
    expect(bridge.body.inboundToken).toBeTruthy()
    hardened(bridge, "a bridge token")
    const login = await system.call("POST", "/api/auth/login", {
      json: { email: tenant.admin.email, password: tenant.admin.password },
    })
    expect(login.status).toBe(200)
    hardened(login, "a session cookie")
  })

  it("says nosniff on every other answer too: lists, errors, the gateway's own 404 and 401", async () => {
    for (const [what, answer] of [
      ["a list", await key.client.get("/api/org/webhooks")],
      ["a 404 of a service", await key.client.get("/api/campaigns/cmp_0000000000000000000000")],
      ["the gateway's 404", await system.call("GET", "/nowhere")],
      ["a 401", await system.call("GET", "/api/leads")],
      ["a 400", await key.client.post("/api/org/webhooks", { url: 1 })],
    ] as const) {
      expect(answer.headers.get("x-content-type-options"), what).toBe("nosniff")
    }
  })
})

describe("passwords and sign-in", () => {
  it("refuses a new member's password of ten spaces or an easy guess, naming the field", async () => {
    for (const password of ["          ", "1234567890", "password123"]) {
      const added = await tenant.admin.client.post("/api/org/members", {
        email: `weak-${crypto.randomUUID()}@example.com`,
        password,
        role: "member",
      })
      expect({ status: added.status, code: added.body.code, path: added.body.issues?.[0]?.path }, password).toEqual({
        status: 400,
        code: "invalid_request",
        path: "password",
      })
    }
  })

  it("slows a run of wrong passwords for one account, while the user's own browser still signs in", async () => {
    const member = await tenant.addMember()
    // The member's browser signed in once (addMember logs in): its device cookie.
    const first = await system.call("POST", "/api/auth/login", {
      json: { email: member.email, password: member.password },
    })
    const device = /parley_device=[^;]+/.exec(first.headers.get("set-cookie") ?? "")?.[0]
    expect(device).toBeDefined()
    const guesses = []
    for (let i = 0; i < 6; i++) {
      guesses.push(
        (await system.call("POST", "/api/auth/login", { json: { email: member.email, password: `guess-${i}-x` } }))
          .status,
      )
    }
    expect(guesses).toEqual([401, 401, 401, 401, 401, 429])
    const locked = await system.call("POST", "/api/auth/login", {
      json: { email: member.email, password: member.password },
    })
    expect(locked.status).toBe(429)
    expect(locked.body).toEqual({ error: "Too many requests, slow down", code: "rate_limited" })
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(0)
    const own = await system.call("POST", "/api/auth/login", {
      json: { email: member.email, password: member.password },
      headers: { cookie: device as string },
    })
    expect(own.status).toBe(200)
  })
})

// What a black-box attacker found next, through the gateway as they met it.
const cursorOf = (value: unknown) =>
  Buffer.from(typeof value === "string" ? value : JSON.stringify(value)).toString("base64url")

describe("tampered cursors and dates", () => {
  const TAMPERED = [
    cursorOf(["0000-01-01 00:00:00+00", "x"]),
    cursorOf(["2026-02-30 00:00:00+00", "x"]),
    cursorOf(["2026-11-29 13:20:01.123456+00", "x\u0000"]),
  ]

  it.each(["/api/messages", "/api/contacts", "/api/campaigns", "/api/sandbox/outbox", "/api/contacts/opt-outs"])(
    "GET %s answers each with 400 invalid_request, never 500",
    async (path) => {
      for (const cursor of TAMPERED) {
        const answer = await key.client.get(`${path}?cursor=${cursor}`)
        expect(answer.status, `${path} ${cursor}: ${answer.text}`).toBe(400)
        expect(answer.body.code).toBe("invalid_request")
      }
    },
  )

  it("answers the delivery log's and a replay's impossible times with 400 invalid_request", async () => {
    const webhook = await key.client.post("/api/org/webhooks", { url: "https://example.com/tampered" })
    expect(webhook.status).toBe(201)
    for (const cursor of [
      "0000-01-01T00:00:00.000Z|1",
      "2026-11-29T10:00:00.000Z|99999999999999999999999",
      "+275760-09-13T00:00:00.000Z|1",
    ]) {
      const answer = await key.client.get(`/api/org/webhooks/${webhook.body.id}/deliveries?cursor=${cursorOf(cursor)}`)
      expect(answer.status, `${cursor}: ${answer.text}`).toBe(400)
      expect(answer.body.code).toBe("invalid_request")
    }
    const replay = await key.client.post(`/api/org/webhooks/${webhook.body.id}/replay`, {
      since: "0000-01-01T00:00:00.000Z",
    })
    expect(replay.status, replay.text).toBe(400)
    expect(replay.body).toMatchObject({ code: "invalid_request", issues: [{ path: "since" }] })
  })
})

describe("guessing the current password with a session", () => {
  it("is counted like failed logins: five wrong answers 400, then 429 as login answers it", async () => {
    const member = await tenant.addMember()
    const answers = []
    for (let i = 0; i < 7; i++) {
      answers.push(
        (
          await member.client.put("/api/auth/password", {
            currentPassword: `guess-${i}-x`,
            newPassword: "a brand new passphrase",
          })
        ).status,
      )
    }
    expect(answers).toEqual([400, 400, 400, 400, 400, 429, 429])
    const refused = await member.client.put("/api/auth/password", {
      currentPassword: member.password,
      newPassword: "a brand new passphrase",
    })
    expect(refused.status).toBe(429)
    expect(refused.body).toEqual({ error: "Too many requests, slow down", code: "rate_limited" })
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0)
  })
})

describe("a bridge status for a message Parley never sent", () => {
  it("answers 404 not_found, for a made-up id and for another organization's message", async () => {
    const bridge = await key.client.put("/api/channels/bridge", { outboundUrl: "https://example.com/bridge" })
    expect(bridge.status).toBe(200)
    const report = (messageId: string) =>
      system.call("POST", "/channels/bridge/status", {
        json: { messageId, status: "read", recipient: "19995550000" },
        headers: { authorization: `Bearer ${bridge.body.inboundToken}` },
      })
    const madeUp = await report("totally-made-up-1")
    expect(madeUp.status, madeUp.text).toBe(404)
    expect(madeUp.body).toEqual({ error: "Not found", code: "not_found" })
    const bridgeOfTheirs = await startHttpServer(() => ({ status: 200, body: { ok: true } }))
    try {
      const theirs = await (await system.createTenant()).mintKey()
      const connected = await theirs.client.put("/api/channels/bridge", { outboundUrl: `${bridgeOfTheirs.url}/send` })
      expect(connected.status, connected.text).toBe(200)
      const sent = await theirs.client.post("/api/messages", { to: "447700900401", channel: "bridge", text: "Hello" })
      expect(sent.status, sent.text).toBe(202)
      const crossed = await report(sent.body.messageId)
      expect(crossed.status, crossed.text).toBe(404)
      expect(crossed.body).toEqual({ error: "Not found", code: "not_found" })
    } finally {
      await bridgeOfTheirs.close()
    }
  })
})

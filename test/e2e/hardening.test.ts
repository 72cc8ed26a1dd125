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

/**
 * No secret in any log line: every credential form goes through a gateway logging at debug level,
 * including failures (a refused key, identity down), and none of them appears in its log.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  createKey,
  createOrganization,
  INTERNAL_SECRET,
  OPERATOR_TOKEN,
  type RunningGateway,
  startSystem,
  type TestSystem,
} from "./system.ts"

let system: TestSystem
let gw: RunningGateway

beforeAll(async () => {
  system = await startSystem()
  gw = await system.startGateway()
})
afterAll(async () => system?.close())

describe("the gateway's log", () => {
  it("never contains a key, a password, a session token or an internal secret", async () => {
    const org = await createOrganization(gw.url)
    const key = await createKey(gw.url, org)
    const widget = await createKey(gw.url, org, { scopes: ["chat:write"] })
    const token = org.cookie.split("=")[1] as string
    const json = { "content-type": "application/json" }

    await fetch(`${gw.url}/api/templates`, { headers: { "x-api-key": key.key } })
    await fetch(`${gw.url}/api/templates`, { headers: { cookie: org.cookie } })
    await fetch(`${gw.url}/api/public/chat`, {
      method: "POST",
      headers: { authorization: `Bearer ${widget.key}`, ...json },
      body: "{}",
    })
    await fetch(`${gw.url}/api/public/chat`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ apiKey: widget.key }),
    })
    await fetch(`${gw.url}/api/public/chat?apiKey=${widget.key}`, { method: "POST", headers: json, body: "{}" })
    await fetch(`${gw.url}/api/public/chat?apiKey=${widget.key}x`, { method: "POST", headers: json, body: "{}" })
    await fetch(`${gw.url}/api/templates`, { headers: { "x-api-key": `${key.key}x` } })
    await fetch(`${gw.url}/api/auth/login`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ email: org.adminEmail, password: org.adminPassword }),
    })
    await fetch(`${gw.url}/api/auth/login`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ email: org.adminEmail, password: `${org.adminPassword}-wrong` }),
    })
    await fetch(`${gw.url}/api/operator/organizations/org_x`, {
      headers: { authorization: `Bearer ${OPERATOR_TOKEN}` },
    })
    // Failures are logged with more detail: make some happen.
    const blind = await system.startGateway({
      services: {
        identity: "http://127.0.0.1:9",
        webhookRegistry: "http://127.0.0.1:9",
        assistant: "http://127.0.0.1:9",
        messaging: "http://127.0.0.1:9",
      },
    })
    await fetch(`${blind.url}/api/templates`, { headers: { "x-api-key": key.key } })
    await fetch(`${blind.url}/api/templates`, { headers: { cookie: org.cookie } })
    await fetch(`${blind.url}/api/public/chat?apiKey=${widget.key}`, { method: "POST", headers: json, body: "{}" })
    await fetch(`${blind.url}/channels/bridge/inbound`, {
      method: "POST",
      headers: { authorization: "Bearer bridge-token-secret" },
    })

    const lines = [...gw.logs, ...blind.logs]
    expect(lines.length).toBeGreaterThan(10)
    const secrets = [
      key.key,
      widget.key,
      org.adminPassword,
      token,
      OPERATOR_TOKEN,
      INTERNAL_SECRET,
      "bridge-token-secret",
    ]
    for (const secret of secrets) {
      const leaked = lines.filter((line) => line.includes(secret))
      expect(leaked, `a log line contains ${secret.slice(0, 10)}…`).toEqual([])
    }
    // The prefix alone is public, and the access log still names the routes.
    expect(lines.some((line) => line.includes("/api/public/chat"))).toBe(true)
  })
})

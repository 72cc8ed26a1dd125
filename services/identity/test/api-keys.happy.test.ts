import { parseApiKey } from "@parley/contracts"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  createKey,
  createOrganization,
  digestOf,
  type Harness,
  internalPost,
  startIdentity,
  type TestOrganization,
} from "./harness.ts"

let harness: Harness
let org: TestOrganization
beforeAll(async () => {
  harness = await startIdentity()
  org = await createOrganization(harness)
})
afterAll(() => harness.close())

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/

describe("API keys", () => {
  it("creation answers 201 with exactly the key record plus the full key, once", async () => {
    const response = await createKey(harness, org, {
      name: "Website widget",
      scopes: ["chat:write", "chat:read", "chat:write"],
      allowedOrigins: ["https://Shop.Example.com/", "https://localhost:5173"],
    })
    expect(response.statusCode).toBe(201)
    const body = response.json()
    expect(Object.keys(body).sort()).toEqual(
      ["allowedOrigins", "createdAt", "id", "key", "lastUsedAt", "name", "prefix", "revokedAt", "scopes"].sort(),
    )
    expect(body).toMatchObject({
      id: expect.stringMatching(/^key_[0-9A-Za-z]{22}$/),
      name: "Website widget",
      scopes: ["chat:write", "chat:read"],
      allowedOrigins: ["https://shop.example.com", "https://localhost:5173"],
      lastUsedAt: null,
      revokedAt: null,
    })
    expect(body.createdAt).toMatch(ISO)
    expect(parseApiKey(body.key)).toEqual({ prefix: body.prefix, key: body.key })
  })

  it("a key without scopes is a legacy key with an empty scope list", async () => {
    const body = (await createKey(harness, org, { name: "legacy" })).json()
    expect(body.scopes).toEqual([])
    expect(body.allowedOrigins).toEqual([])
  })

  it("stores only the SHA-256 digest of the full key, never the key or its secret part", async () => {
    const { key, id, prefix } = (await createKey(harness, org, { name: "server" })).json()
    const rows = await harness.sql`select * from identity.api_keys where id = ${id}`
    expect(rows[0]?.digest).toBe(digestOf(key))
    expect(rows[0]?.prefix).toBe(prefix)
    const secret = key.split(".")[1]
    const dump = JSON.stringify(await harness.sql`select * from identity.api_keys`)
    expect(dump).not.toContain(key)
    expect(dump).not.toContain(secret.slice(0, 43))
  })

  it("lists every key newest first (revoked ones too) and reads one, never showing the key", async () => {
    const first = (await createKey(harness, org, { name: "first" })).json()
    const second = (await createKey(harness, org, { name: "second" })).json()
    await harness.app.inject({ method: "DELETE", url: `/api/org/api-keys/${first.id}`, headers: org.admin })
    const list = await harness.app.inject({ method: "GET", url: "/api/org/api-keys", headers: org.admin })
    expect(list.statusCode).toBe(200)
    const { data } = list.json()
    expect(data[0].id).toBe(second.id)
    expect(data[1].id).toBe(first.id)
    expect(data[1].revokedAt).toMatch(ISO)
    for (const record of data) expect(Object.keys(record)).not.toContain("key")
    expect(list.body).not.toContain(second.key)

    const one = await harness.app.inject({ method: "GET", url: `/api/org/api-keys/${second.id}`, headers: org.admin })
    expect(one.statusCode).toBe(200)
    const { key: _key, ...record } = second
    expect(one.json()).toEqual(record)
  })

  it("revoking answers the record with revokedAt, and revoking again answers the same record", async () => {
    const { id } = (await createKey(harness, org, { name: "to revoke" })).json()
    const revoked = await harness.app.inject({ method: "DELETE", url: `/api/org/api-keys/${id}`, headers: org.admin })
    expect(revoked.statusCode).toBe(200)
    expect(revoked.json().revokedAt).toMatch(ISO)
    const again = await harness.app.inject({ method: "DELETE", url: `/api/org/api-keys/${id}`, headers: org.admin })
    expect(again.statusCode).toBe(200)
    expect(again.json()).toEqual(revoked.json())
  })

  it("the gateway's lookup by digest answers the key, its org's features, and its revocation", async () => {
    const { key, id, prefix } = (await createKey(harness, org, { name: "looked up", scopes: ["messages:send"] })).json()
    const found = await internalPost(harness, "/internal/keys/lookup", { digest: digestOf(key) })
    expect(found.statusCode).toBe(200)
    expect(found.json()).toEqual({
      keyId: id,
      orgId: org.orgId,
      prefix,
      scopes: ["messages:send"],
      allowedOrigins: [],
      revokedAt: null,
      orgFeatures: ["api_access"],
      orgName: "Acme",
    })
    await harness.app.inject({ method: "DELETE", url: `/api/org/api-keys/${id}`, headers: org.admin })
    const revoked = await internalPost(harness, "/internal/keys/lookup", { digest: digestOf(key) })
    expect(revoked.json().revokedAt).toMatch(ISO)
    const unknown = await internalPost(harness, "/internal/keys/lookup", { digest: digestOf(`${key}x`) })
    expect(unknown.statusCode).toBe(404)
  })
})

import { decodeBusValue, KeyChanged, Topics } from "@parley/contracts"
import { eventually } from "@parley/platform/testing"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  cookieToken,
  createKey,
  createOrganization,
  digestOf,
  type Harness,
  internalPost,
  operatorHeaders,
  startIdentity,
  type TestOrganization,
} from "./harness.ts"

let harness: Harness
beforeAll(async () => {
  harness = await startIdentity()
})
afterAll(() => harness.close())

const activeKeys = async (orgId: string) =>
  (
    await harness.sql`select count(*)::int as n from identity.api_keys where org_id = ${orgId} and revoked_at is null`
  )[0]?.n

describe("API key limits under concurrency", () => {
  it("of 8 concurrent creations at nine active keys, exactly one succeeds", async () => {
    const org = await createOrganization(harness)
    for (let i = 0; i < 9; i++) expect((await createKey(harness, org, { name: `k${i}` })).statusCode).toBe(201)
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, i) => createKey(harness, org, { name: `race${i}` })),
    )
    const statuses = responses.map((r) => r.statusCode).sort()
    expect(statuses).toEqual([201, 403, 403, 403, 403, 403, 403, 403])
    expect(await activeKeys(org.orgId)).toBe(10)
  })

  it("from zero, 15 concurrent creations leave exactly 10 active keys", async () => {
    const org = await createOrganization(harness)
    const responses = await Promise.all(
      Array.from({ length: 15 }, (_, i) => createKey(harness, org, { name: `burst${i}` })),
    )
    expect(responses.filter((r) => r.statusCode === 201)).toHaveLength(10)
    expect(responses.filter((r) => r.statusCode === 403)).toHaveLength(5)
    expect(await activeKeys(org.orgId)).toBe(10)
  })
})

describe("key changes reach the gateways", () => {
  it("publishes KeyChanged on creation and on revocation (not on a repeated revocation), never the key", async () => {
    const org = await createOrganization(harness)
    const created = (
      await createKey(harness, org, {
        name: "announced",
        scopes: ["chat:write"],
        allowedOrigins: ["https://a.example"],
      })
    ).json()
    await harness.app.inject({ method: "DELETE", url: `/api/org/api-keys/${created.id}`, headers: org.admin })
    await harness.app.inject({ method: "DELETE", url: `/api/org/api-keys/${created.id}`, headers: org.admin })

    const records = await harness.collect(Topics.identityKeys)
    const mine = await eventually(() => {
      const matching = records.filter((r) => r.key === created.id)
      expect(matching).toHaveLength(2)
      return matching
    })
    const decoded = await Promise.all(mine.map((r) => Effect.runPromise(decodeBusValue(KeyChanged)(r.value))))
    expect(decoded[0]).toMatchObject({
      keyId: created.id,
      orgId: org.orgId,
      digest: digestOf(created.key),
      prefix: created.prefix,
      scopes: ["chat:write"],
      allowedOrigins: ["https://a.example"],
      revokedAt: null,
    })
    expect(decoded[1]?.revokedAt).toMatch(/Z$/)
    for (const record of mine) expect(record.value).not.toContain(created.key)
  })

  it("a plan change announces the organization's active keys again, and lookups show the new features", async () => {
    const org = await createOrganization(harness)
    const active = (await createKey(harness, org, { name: "active" })).json()
    const revoked = (await createKey(harness, org, { name: "revoked" })).json()
    await harness.app.inject({ method: "DELETE", url: `/api/org/api-keys/${revoked.id}`, headers: org.admin })
    const patched = await harness.app.inject({
      method: "PATCH",
      url: `/api/operator/organizations/${org.orgId}`,
      headers: operatorHeaders,
      payload: { features: [] },
    })
    expect(patched.statusCode).toBe(200)
    const records = await harness.collect(Topics.identityKeys)
    // Keyed by key id, the two keys' records travel on different partitions: wait for both.
    await eventually(() => {
      expect(records.filter((r) => r.key === active.id)).toHaveLength(2)
      // The revoked key: created and revoked, nothing more.
      expect(records.filter((r) => r.key === revoked.id)).toHaveLength(2)
    })
    const lookup = await internalPost(harness, "/internal/keys/lookup", { digest: digestOf(active.key) })
    expect(lookup.json().orgFeatures).toEqual([])
  })

  it("a refused creation publishes nothing", async () => {
    const plain = await createOrganization(harness, { features: [] })
    await createKey(harness, plain, { name: "refused" })
    const org = await createOrganization(harness)
    const marker = (await createKey(harness, org, { name: "marker" })).json()
    const records = await harness.collect(Topics.identityKeys)
    await eventually(() => expect(records.some((r) => r.key === marker.id)).toBe(true))
    const orgs = records.map((r) => JSON.parse(r.value).orgId)
    expect(orgs).not.toContain(plain.orgId)
  })
})

describe("key usage", () => {
  it("KeyUsed records move lastUsedAt forward, never back, and replays change nothing", async () => {
    const org = await createOrganization(harness)
    const { id } = (await createKey(harness, org, { name: "used" })).json()
    const record = (usedAt: string) => ({
      topic: Topics.identityKeyUsage,
      key: id,
      value: JSON.stringify({ keyId: id, orgId: org.orgId, usedAt }),
    })
    await harness.publish([
      record("2026-11-22T10:00:00.000Z"),
      record("2026-11-22T10:05:00.000Z"),
      record("2026-11-22T10:01:00.000Z"),
    ])
    const read = async () =>
      (await harness.app.inject({ method: "GET", url: `/api/org/api-keys/${id}`, headers: org.admin })).json()
        .lastUsedAt
    await eventually(async () => expect(await read()).toBe("2026-11-22T10:05:00.000Z"))
    await harness.publish([record("2026-11-22T09:00:00.000Z"), { ...record("x"), value: "not json" }])
    await harness.publish([record("2026-11-22T10:05:00.000Z")])
    const later = (await createKey(harness, org, { name: "later" })).json()
    await harness.publish([
      {
        topic: Topics.identityKeyUsage,
        key: id,
        value: JSON.stringify({ keyId: later.id, orgId: org.orgId, usedAt: "2026-11-22T11:00:00.000Z" }),
      },
    ])
    // The marker travels on the partition of `id`, after the stale records: once it is applied, they were handled too.
    await eventually(async () => {
      const response = await harness.app.inject({
        method: "GET",
        url: `/api/org/api-keys/${later.id}`,
        headers: org.admin,
      })
      expect(response.json().lastUsedAt).toBe("2026-11-22T11:00:00.000Z")
    })
    expect(await read()).toBe("2026-11-22T10:05:00.000Z")
    // The record that was not JSON was skipped, and said so in the service's log.
    expect(harness.logs.join("")).toContain("skipping an undecodable KeyUsed record")
  })
})

describe("key usage from another organization", () => {
  it("a KeyUsed record naming another organization than the key's changes nothing", async () => {
    const owner = await createOrganization(harness)
    const stranger = await createOrganization(harness)
    const { id } = (await createKey(harness, owner, { name: "owned" })).json()
    const marker = (await createKey(harness, stranger, { name: "marker" })).json()
    const used = (keyId: string, orgId: string) => ({
      topic: Topics.identityKeyUsage,
      key: keyId,
      value: JSON.stringify({ keyId, orgId, usedAt: "2026-11-22T12:00:00.000Z" }),
    })
    // Both on the partition of `id`, so once the marker is applied the record before it was handled too.
    await harness.publish([used(id, stranger.orgId), { ...used(marker.id, stranger.orgId), key: id }])
    const lastUsed = async (keyId: string) =>
      (await harness.sql`select last_used_at from identity.api_keys where id = ${keyId}`)[0]?.last_used_at
    await eventually(async () => expect(await lastUsed(marker.id)).not.toBeNull())
    expect(await lastUsed(id)).toBeNull()
  })
})

describe("secrets never reach the log", () => {
  it("a full flow (org, login, key creation, listing, revocation, logout) logs no key, password or session token", async () => {
    const org: TestOrganization = await createOrganization(harness)
    const login = await harness.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { email: org.adminEmail, password: org.adminPassword },
    })
    const token = cookieToken(login)
    const created = (await createKey(harness, org, { name: "secret keeper" })).json()
    await harness.app.inject({ method: "GET", url: "/api/org/api-keys", headers: org.admin })
    await harness.app.inject({ method: "DELETE", url: `/api/org/api-keys/${created.id}`, headers: org.admin })
    await harness.app.inject({
      method: "POST",
      url: "/api/auth/logout",
      headers: { ...org.admin, cookie: `parley_session=${token}` },
    })
    const log = harness.logs.join("")
    expect(log).toContain("request completed")
    expect(log).not.toContain(created.key)
    expect(log).not.toContain(created.key.split(".")[1])
    expect(log).not.toContain(org.adminPassword)
    expect(log).not.toContain(token)
  })
})

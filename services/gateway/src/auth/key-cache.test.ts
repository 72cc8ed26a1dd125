import type { KeyLookupResponse } from "@parley/contracts"
import { sha256Hex } from "@parley/platform"
import { describe, expect, it } from "vitest"
import type { IdentityClient } from "./identity-client.ts"
import { makeKeyCache } from "./key-cache.ts"

// The cache's port to identity, counted; identity itself is exercised in test/.
const countingIdentity = (records: Map<string, KeyLookupResponse>) => {
  const calls: Array<string> = []
  let release: () => void = () => {}
  let gate: Promise<void> = Promise.resolve()
  const client: IdentityClient = {
    lookupKey: async (digest) => {
      calls.push(digest)
      await gate
      return records.get(digest)
    },
    lookupSession: async () => undefined,
  }
  return {
    client,
    calls,
    hold: () => {
      gate = new Promise((resolve) => {
        release = resolve
      })
    },
    release: () => release(),
  }
}

const KEY = "parley_AAAAAAAAAAAA.secret"
const record = (revokedAt: string | null = null) =>
  ({
    keyId: "key_1",
    orgId: "org_1",
    prefix: "AAAAAAAAAAAA",
    scopes: [],
    allowedOrigins: [],
    revokedAt,
    orgFeatures: [],
  }) as unknown as KeyLookupResponse

const change = (digest: string) =>
  ({ keyId: "key_1", orgId: "org_1", digest, prefix: "AAAAAAAAAAAA", scopes: [], allowedOrigins: [] }) as never

describe("the key cache", () => {
  it("asks identity once for many concurrent misses of one key", async () => {
    const identity = countingIdentity(new Map([[sha256Hex(KEY), record()]]))
    const cache = makeKeyCache({ identity: identity.client, ttlMs: 60_000 })
    identity.hold()
    const answers = Promise.all(Array.from({ length: 50 }, () => cache.resolve(KEY, "AAAAAAAAAAAA")))
    identity.release()
    expect((await answers).every((r) => r?.keyId === "key_1")).toBe(true)
    expect(identity.calls).toHaveLength(1)
    await cache.resolve(KEY, "AAAAAAAAAAAA")
    expect(identity.calls).toHaveLength(1)
  })

  it("does not answer a different secret with the same prefix from the cache", async () => {
    const identity = countingIdentity(new Map([[sha256Hex(KEY), record()]]))
    const cache = makeKeyCache({ identity: identity.client, ttlMs: 60_000 })
    await cache.resolve(KEY, "AAAAAAAAAAAA")
    expect(await cache.resolve("parley_AAAAAAAAAAAA.forged", "AAAAAAAAAAAA")).toBeUndefined()
    expect(identity.calls).toHaveLength(2)
  })

  it("asks again after a KeyChanged evicted the key", async () => {
    const records = new Map([[sha256Hex(KEY), record()]])
    const identity = countingIdentity(records)
    const cache = makeKeyCache({ identity: identity.client, ttlMs: 60_000 })
    await cache.resolve(KEY, "AAAAAAAAAAAA")
    records.set(sha256Hex(KEY), record("2026-11-22T06:00:00.000Z"))
    cache.applyChange(change(sha256Hex(KEY)))
    expect((await cache.resolve(KEY, "AAAAAAAAAAAA"))?.revokedAt).toBe("2026-11-22T06:00:00.000Z")
    expect(identity.calls).toHaveLength(2)
  })

  it("does not keep an answer that a change overtook while it was in flight", async () => {
    const identity = countingIdentity(new Map([[sha256Hex(KEY), record()]]))
    const cache = makeKeyCache({ identity: identity.client, ttlMs: 60_000 })
    identity.hold()
    const pending = cache.resolve(KEY, "AAAAAAAAAAAA")
    cache.applyChange(change(sha256Hex(KEY)))
    identity.release()
    await pending
    identity.hold()
    identity.release()
    await cache.resolve(KEY, "AAAAAAAAAAAA")
    expect(identity.calls).toHaveLength(2)
  })

  it("expires entries after the safety-net TTL", async () => {
    let now = 0
    const identity = countingIdentity(new Map([[sha256Hex(KEY), record()]]))
    const cache = makeKeyCache({ identity: identity.client, ttlMs: 1_000, now: () => now })
    await cache.resolve(KEY, "AAAAAAAAAAAA")
    now = 999
    await cache.resolve(KEY, "AAAAAAAAAAAA")
    now = 1_000
    await cache.resolve(KEY, "AAAAAAAAAAAA")
    expect(identity.calls).toHaveLength(2)
  })

  it("remembers an unknown key briefly", async () => {
    const identity = countingIdentity(new Map())
    const cache = makeKeyCache({ identity: identity.client, ttlMs: 60_000 })
    expect(await cache.resolve(KEY, "AAAAAAAAAAAA")).toBeUndefined()
    expect(await cache.resolve(KEY, "AAAAAAAAAAAA")).toBeUndefined()
    expect(identity.calls).toHaveLength(1)
  })
})

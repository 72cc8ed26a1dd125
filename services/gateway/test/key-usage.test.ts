/**
 * `lastUsedAt` (CONTRACT.md §2.1): the gateway notes each key's use in memory and publishes one
 * `KeyUsed` per key per flush; identity records it.
 */
import { decodeBusValue, KeyUsed, Topics } from "@parley/contracts"
import { eventually } from "@parley/platform/testing"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createKey, createOrganization, type RunningGateway, startSystem, type TestSystem } from "./system.ts"

let system: TestSystem
let gw: RunningGateway

beforeAll(async () => {
  system = await startSystem()
  // The timer is left at a minute: this test flushes by hand.
  gw = await system.startGateway({ keyUsageFlushMs: 60_000 })
})
afterAll(async () => system?.close())

describe("key usage", () => {
  it("publishes one KeyUsed per key used since the last flush, and identity shows lastUsedAt", async () => {
    const org = await createOrganization(gw.url)
    const first = await createKey(gw.url, org)
    const second = await createKey(gw.url, org)
    const seen = await gw.collect(Topics.identityKeyUsage)
    for (let i = 0; i < 10; i++) await fetch(`${gw.url}/api/templates`, { headers: { "x-api-key": first.key } })
    for (let i = 0; i < 3; i++) await fetch(`${gw.url}/api/templates`, { headers: { "x-api-key": second.key } })
    await gw.flushKeyUsage()

    await eventually(() => expect(seen).toHaveLength(2))
    const records = await Promise.all(seen.map((record) => Effect.runPromise(decodeBusValue(KeyUsed)(record.value))))
    expect(records.map((r) => r.keyId).sort()).toEqual([first.id, second.id].sort())
    expect(records.every((r) => r.orgId === org.orgId)).toBe(true)

    await eventually(async () => {
      const response = await fetch(`${gw.url}/api/org/api-keys/${first.id}`, { headers: { cookie: org.cookie } })
      const record = (await response.json()) as { lastUsedAt: string | null }
      expect(record.lastUsedAt).not.toBeNull()
    })

    // Nothing used since: the next flush publishes nothing.
    await gw.flushKeyUsage()
    await fetch(`${gw.url}/api/templates`, { headers: { "x-api-key": first.key } })
    await gw.flushKeyUsage()
    await eventually(() => expect(seen).toHaveLength(3))
  })
})

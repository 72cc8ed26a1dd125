/**
 * Revocation within one second on every gateway instance (docs/contract.md §2.1): two instances, one
 * identity, the shared bus; each instance has the key cached when it is revoked.
 */
import { eventually } from "@parley/platform/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  createKey,
  createOrganization,
  type RunningGateway,
  revokeKey,
  startSystem,
  type TestSystem,
} from "./system.ts"

let system: TestSystem
let a: RunningGateway
let b: RunningGateway

beforeAll(async () => {
  system = await startSystem()
  a = await system.startGateway()
  b = await system.startGateway()
})
afterAll(async () => system?.close())

const lookups = () => system.identityLogs.filter((line) => line.includes("/internal/keys/lookup")).length

const appliedChanges = async (gateway: RunningGateway): Promise<number> => {
  const text = await (await fetch(`${gateway.metricsUrl}/metrics`)).text()
  return Number(/^parley_gateway_key_changes_applied_total\{[^}]*\} (\d+)/m.exec(text)?.[1] ?? 0)
}

const status = async (gateway: RunningGateway, key: string) =>
  (await fetch(`${gateway.url}/api/templates`, { headers: { "x-api-key": key } })).status

/** Polls until `gateway` refuses `key`, and says how long that took; fails after `deadlineMs`. */
const refusedWithin = async (gateway: RunningGateway, key: string, since: number, deadlineMs: number) => {
  for (;;) {
    if ((await status(gateway, key)) === 401) return performance.now() - since
    if (performance.now() - since > deadlineMs) throw new Error(`still accepted after ${deadlineMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

describe("revoking a key", () => {
  it("is refused by both instances within one second, though both had it cached", async () => {
    const org = await createOrganization(a.url)
    const key = await createKey(a.url, org)
    // Cached on both instances: a long TTL would keep it for a minute without the bus.
    expect(await status(a, key.key)).toBe(200)
    expect(await status(b, key.key)).toBe(200)

    const before = performance.now()
    await revokeKey(a.url, org, key.id)
    const answered = performance.now()
    const [onA, onB] = await Promise.all([
      refusedWithin(a, key.key, answered, 1_000),
      refusedWithin(b, key.key, answered, 1_000),
    ])
    expect(onA).toBeLessThan(1_000)
    expect(onB).toBeLessThan(1_000)
    expect(answered - before).toBeLessThan(5_000)
  })

  it("asks identity once for a burst of concurrent first uses of a key", async () => {
    const org = await createOrganization(a.url)
    const changesBefore = await appliedChanges(b)
    const key = await createKey(a.url, org)
    await eventually(async () => expect(await appliedChanges(b)).toBeGreaterThan(changesBefore))
    const before = lookups()
    const statuses = await Promise.all(Array.from({ length: 50 }, () => status(b, key.key)))
    expect(statuses.every((s) => s === 200)).toBe(true)
    // Identity logs a request after answering it: give the line a moment to land.
    await eventually(() => expect(lookups() - before).toBe(1))
  })

  it("answers from the cache, not identity, while nothing changes", async () => {
    const org = await createOrganization(a.url)
    const changesBefore = await appliedChanges(b)
    const key = await createKey(a.url, org)
    // The key's creation is a change too: once it has been applied, nothing else evicts the key.
    await eventually(async () => expect(await appliedChanges(b)).toBeGreaterThan(changesBefore))
    await status(b, key.key)
    const before = lookups()
    for (let i = 0; i < 20; i++) expect(await status(b, key.key)).toBe(200)
    expect(lookups()).toBe(before)
  })
})

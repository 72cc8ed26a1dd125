/**
 * `lastUsedAt` (docs/contract.md §2.1): the gateway notes each key's use in memory and publishes one
 * `KeyUsed` per key per flush; identity records it. It is best-effort: a bus that refuses or stalls
 * the publish never fails or slows a request, and the usage arrives once the bus takes it again.
 */
import { decodeBusValue, KeyUsed, Topics } from "@parley/contracts"
import { eventually } from "@parley/platform/testing"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type CreatedKey,
  createKey,
  createOrganization,
  type Organization,
  type RunningGateway,
  startSystem,
  type TestSystem,
} from "./system.ts"

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

// Far above a request to the loopback stub through a warm key cache (a few ms), far below a bus
// round trip that a request would have waited on (the flush runs every 100 ms below).
const FAST_MS = 300

const lastUsedAt = async (org: Organization, key: CreatedKey): Promise<string | null> => {
  const response = await fetch(`${gw.url}/api/org/api-keys/${key.id}`, { headers: { cookie: org.cookie } })
  expect(response.status).toBe(200)
  return ((await response.json()) as { lastUsedAt: string | null }).lastUsedAt
}

/** One request with the key, which must answer 200 within FAST_MS. */
const useKey = async (target: RunningGateway, key: CreatedKey) => {
  const started = performance.now()
  const response = await fetch(`${target.url}/api/templates`, { headers: { "x-api-key": key.key } })
  await response.arrayBuffer()
  const elapsed = performance.now() - started
  expect(response.status).toBe(200)
  expect(elapsed, `a request took ${Math.round(elapsed)} ms`).toBeLessThan(FAST_MS)
}

describe("key usage while the bus cannot take it", () => {
  it("answers requests with a key at full speed while publishing their usage fails, and records lastUsedAt once it works", async () => {
    const org = await createOrganization(gw.url)
    const key = await createKey(gw.url, org)
    const flushing = await system.startGateway({ keyUsageFlushMs: 100 })
    // The bus's log refuses every key-usage record, as a database refusing the write would; the
    // rest of the bus (key changes, identity's outbox) goes on.
    await system.sql.unsafe(`
      create function refuse_key_usage() returns trigger language plpgsql as $$
      begin raise exception 'key usage refused by the test'; end $$;
      create trigger refuse_key_usage before insert on parley_bus.records for each row
        when (new.topic = '${Topics.identityKeyUsage}') execute function refuse_key_usage();`)
    try {
      const failures = () => flushing.logs.filter((line) => line.includes("key usage: publish failed")).length
      const usedFrom = Date.now()
      await useKey(flushing, key)
      // Keep using the key across several failed flushes: every answer is a quick 200.
      await eventually(
        async () => {
          await useKey(flushing, key)
          expect(failures()).toBeGreaterThanOrEqual(3)
        },
        { timeoutMs: 10_000 },
      )
      expect(await lastUsedAt(org, key)).toBeNull()

      await system.sql.unsafe("drop trigger refuse_key_usage on parley_bus.records")
      // The notes were kept: the next flush delivers them, with no further request.
      const recorded = await eventually(async () => {
        const at = await lastUsedAt(org, key)
        expect(at).not.toBeNull()
        return at as string
      })
      expect(Date.parse(recorded)).toBeGreaterThanOrEqual(usedFrom)
      expect(Date.parse(recorded)).toBeLessThanOrEqual(Date.now())
    } finally {
      await system.sql.unsafe(`
        drop trigger if exists refuse_key_usage on parley_bus.records;
        drop function if exists refuse_key_usage();`)
      await flushing.close()
    }
  })

  it("answers requests with a key at full speed while publishing their usage hangs", async () => {
    const org = await createOrganization(gw.url)
    const key = await createKey(gw.url, org)
    const flushing = await system.startGateway({ keyUsageFlushMs: 100 })
    // Appending takes the counter row of each partition it appends to (parley_bus.append): a
    // transaction of the test's holding the key-usage topic's counters stalls every publish of key
    // usage, as a database that stopped answering would, and nothing else (identity subscribed to
    // the topic when it started, so its partitions are there).
    const { promise: locked, resolve: lockTaken } = Promise.withResolvers<void>()
    const { promise: released, resolve: release } = Promise.withResolvers<void>()
    const holding = system.sql.begin(async (tx) => {
      const rows = await tx`select 1 from parley_bus.partitions where topic = ${Topics.identityKeyUsage} for update`
      expect(rows.length).toBeGreaterThan(0)
      lockTaken()
      await released
    })
    try {
      await Promise.race([locked, holding])
      await useKey(flushing, key)
      await eventually(async () => {
        const [waiting] = await system.sql<Array<{ count: number }>>`
          select count(*)::int as count from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock' and query like '%parley_bus.append%'`
        expect(waiting?.count).toBeGreaterThan(0)
      })
      // The flush waits on the lock; requests do not.
      for (let i = 0; i < 10; i++) await useKey(flushing, key)
      expect(await lastUsedAt(org, key)).toBeNull()
    } finally {
      release()
      await holding
    }
    // The stalled publish goes through once the counters are free.
    await eventually(async () => expect(await lastUsedAt(org, key)).not.toBeNull())
    await flushing.close()
  })
})

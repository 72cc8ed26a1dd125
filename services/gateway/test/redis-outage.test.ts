/**
 * Redis going away must not take the API down (CONTRACT.md §3): the gateway keeps answering with a
 * per-instance in-memory limiter with the same limits, says so in its log and metrics, and returns
 * to Redis once it is back. This test runs its own `redis-server` so it can kill it.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { eventually, freePort } from "@parley/platform/testing"
import { Redis } from "ioredis"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type CreatedKey,
  createKey,
  createOrganization,
  type RunningGateway,
  startSystem,
  type TestSystem,
} from "./system.ts"

const startRedis = async (port: number): Promise<ChildProcess> => {
  const child = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    {
      stdio: "ignore",
    },
  )
  const probe = new Redis({ port, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null })
  probe.on("error", () => {})
  await eventually(
    async () => {
      if (probe.status !== "ready") await probe.connect().catch(() => undefined)
      expect(await probe.ping()).toBe("PONG")
    },
    { timeoutMs: 10_000 },
  )
  probe.disconnect()
  return child
}

const stopRedis = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve()
    child.once("exit", () => resolve())
    child.kill("SIGKILL")
  })

let system: TestSystem
let gw: RunningGateway
let key: CreatedKey
let port: number
let redis: ChildProcess | undefined

beforeAll(async () => {
  port = await freePort()
  redis = await startRedis(port)
  system = await startSystem()
  const setup = await system.startGateway()
  key = await createKey(setup.url, await createOrganization(setup.url))
  gw = await system.startGateway({
    redisUrl: `redis://127.0.0.1:${port}`,
    redisKeyPrefix: "outage:",
    rateLimits: { generalPerWindow: 5 },
  })
})
afterAll(async () => {
  if (redis !== undefined) await stopRedis(redis)
  await system?.close()
})

const call = async () => {
  const started = performance.now()
  const response = await fetch(`${gw.url}/api/templates`, { headers: { "x-api-key": key.key } })
  await response.arrayBuffer()
  return {
    status: response.status,
    ms: performance.now() - started,
    remaining: response.headers.get("ratelimit-remaining"),
  }
}

const fallbackGauge = async () => {
  const text = await (await fetch(`${gw.metricsUrl}/metrics`)).text()
  return Number(/^parley_gateway_rate_limiter_fallback\{[^}]*\} (\d+)/m.exec(text)?.[1])
}

const countedInRedis = async () => {
  const client = new Redis({ port, maxRetriesPerRequest: 0 })
  try {
    const keys = await client.keys("outage:*")
    let total = 0
    for (const k of keys) total += await client.zcard(k)
    return total
  } finally {
    client.disconnect()
  }
}

describe("when Redis is unreachable", () => {
  it("keeps serving from memory with the same limits, and goes back to Redis when it returns", async () => {
    expect((await call()).status).toBe(200)
    expect(gw.gateway.limiterInMemory()).toBe(false)
    expect(await countedInRedis()).toBe(1)
    expect(await fallbackGauge()).toBe(0)

    if (redis !== undefined) await stopRedis(redis)
    redis = undefined
    const during = []
    for (let i = 0; i < 6; i++) during.push(await call())
    // Fail fast: no request waits on the dead connection, none gets a 500.
    expect(during.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 429])
    for (const response of during) expect(response.ms).toBeLessThan(1_000)
    expect(gw.gateway.limiterInMemory()).toBe(true)
    expect(await fallbackGauge()).toBe(1)
    expect(gw.logs.some((line) => line.includes("Redis unreachable"))).toBe(true)

    redis = await startRedis(port)
    await eventually(
      async () => {
        await call()
        expect(gw.gateway.limiterInMemory()).toBe(false)
      },
      { timeoutMs: 10_000, intervalMs: 100 },
    )
    // The new Redis starts empty: the requests since it returned are counted there.
    expect(await countedInRedis()).toBeGreaterThanOrEqual(1)
    expect(await fallbackGauge()).toBe(0)
    expect(gw.logs.some((line) => line.includes("Redis reachable again"))).toBe(true)
  })
})

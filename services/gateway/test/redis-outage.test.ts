/**
 * Redis going away must not take the API down (docs/contract.md §3), nor slow it, nor take the gateway
 * out of its load balancer: the gateway keeps answering with a per-instance in-memory limiter with
 * the same limits, stays ready (Redis's state is in `/health/ready`'s body and a metric), says so in
 * its log, and returns to Redis once it is back. This test runs its own `redis-server` so it can
 * kill it, and stop it (SIGSTOP: a hung Redis that accepts connections and never answers).
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

// A command timeout far above a loaded host's hiccups, so that a request which waited for one
// stands out from every request that did not.
const commandTimeoutMs = 1_000

beforeAll(async () => {
  port = await freePort()
  redis = await startRedis(port)
  system = await startSystem()
  const setup = await system.startGateway()
  key = await createKey(setup.url, await createOrganization(setup.url))
  gw = await system.startGateway({
    redisUrl: `redis://127.0.0.1:${port}`,
    redisKeyPrefix: "outage:",
    redisCommandTimeoutMs: commandTimeoutMs,
    rateLimits: { generalPerWindow: 5 },
  })
})
afterAll(async () => {
  if (redis !== undefined) {
    redis.kill("SIGCONT")
    await stopRedis(redis)
  }
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

const readiness = async (url: string) => {
  const response = await fetch(`${url}/health/ready`)
  return { status: response.status, body: (await response.json()) as { checks?: Record<string, string> } }
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

const clearCounts = async () => {
  const client = new Redis({ port, maxRetriesPerRequest: 0 })
  try {
    const keys = await client.keys("outage:*")
    if (keys.length > 0) await client.del(...keys)
  } finally {
    client.disconnect()
  }
}

const backInRedis = async () => {
  await eventually(
    async () => {
      await call()
      expect(gw.gateway.limiterInMemory()).toBe(false)
    },
    { timeoutMs: 10_000, intervalMs: 100 },
  )
  expect(await fallbackGauge()).toBe(0)
  for (const url of [gw.url, gw.metricsUrl]) {
    expect(await readiness(url)).toMatchObject({ status: 200, body: { checks: { redis: "ok" } } })
  }
}

/** The in-memory windows of the fallback start empty for each case: a fresh subject per case. */
const freshKey = async () => {
  const setup = await system.startGateway()
  return createKey(setup.url, await createOrganization(setup.url))
}

describe("when Redis is unreachable", () => {
  it("keeps serving from memory with the same limits and stays ready when Redis is killed, and goes back to Redis when it returns", async () => {
    expect((await call()).status).toBe(200)
    expect(gw.gateway.limiterInMemory()).toBe(false)
    expect(await countedInRedis()).toBe(1)
    expect(await fallbackGauge()).toBe(0)
    expect(await readiness(gw.url)).toMatchObject({ status: 200, body: { checks: { redis: "ok" } } })

    if (redis !== undefined) await stopRedis(redis)
    redis = undefined
    const during = []
    for (let i = 0; i < 6; i++) during.push(await call())
    // Fail fast: no request waits on the dead connection, none gets a 500.
    expect(during.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 429])
    for (const response of during) expect(response.ms).toBeLessThan(commandTimeoutMs)
    expect(gw.gateway.limiterInMemory()).toBe(true)
    expect(await fallbackGauge()).toBe(1)
    expect(gw.logs.some((line) => line.includes("Redis unreachable"))).toBe(true)
    // Still ready on both ports (a readiness probe must not take every gateway out of service):
    // Redis's state is in the body.
    for (const url of [gw.url, gw.metricsUrl]) {
      expect(await readiness(url)).toMatchObject({ status: 200, body: { checks: { redis: "failed" } } })
    }

    redis = await startRedis(port)
    await backInRedis()
    // The new Redis starts empty: the requests since it returned are counted there.
    expect(await countedInRedis()).toBeGreaterThanOrEqual(1)
    expect(gw.logs.some((line) => line.includes("Redis reachable again"))).toBe(true)
  })

  it("costs a request nothing once a hung Redis (stopped, still accepting connections) is detected", async () => {
    key = await freshKey()
    await clearCounts()
    expect((await call()).status).toBe(200)
    expect(gw.gateway.limiterInMemory()).toBe(false)
    expect(await countedInRedis()).toBe(1)

    redis?.kill("SIGSTOP")
    try {
      // The first request finds out: it waits for the command timeout, then is answered from memory.
      const detecting = await call()
      expect(detecting.status).toBe(200)
      expect(detecting.ms).toBeGreaterThanOrEqual(commandTimeoutMs - 50)
      expect(gw.gateway.limiterInMemory()).toBe(true)
      // Every later one skips Redis: none waits anywhere near the timeout, and the limits hold.
      const after = []
      for (let i = 0; i < 5; i++) after.push(await call())
      expect(after.map((r) => r.status)).toEqual([200, 200, 200, 200, 429])
      for (const response of after) expect(response.ms).toBeLessThan(commandTimeoutMs / 2)
      expect(await fallbackGauge()).toBe(1)
      for (const url of [gw.url, gw.metricsUrl]) {
        const probe = await readiness(url)
        expect(probe).toMatchObject({ status: 200, body: { checks: { redis: "failed" } } })
      }
    } finally {
      redis?.kill("SIGCONT")
    }
    await backInRedis()
  })
})

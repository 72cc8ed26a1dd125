/**
 * The gateway's overhead, in one run: a bare Fastify answering a small JSON object against the
 * gateway serving the cheapest authenticated private route — an API key checked (from the cache),
 * the Redis rate limit counted (one EVALSHA), a principal signed, the call forwarded over a
 * keep-alive pool to that same bare Fastify — and, for reference, a real identity route through
 * the gateway. Every server is the real composition root (`services/*\/src/main.ts`) in a process of
 * its own; the load generator runs here. See README.md in this folder.
 */
import { mkdtempSync, openSync, rmSync, statSync } from "node:fs"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { freshDatabase } from "@parley/db/testing"
import { Redis } from "ioredis"
import { cpuSeconds } from "./cpu.ts"
import { type LoadResult, runLoad } from "./load.ts"
import { freePort, startProcess, stopAll, waitUntilLive } from "./processes.ts"

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50)
const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 10)
const WARMUP_SECONDS = 3
// Targets are measured in interleaved rounds and each reported by its median round, so a burst of
// load from elsewhere on the machine skews one round, not the comparison.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
// BENCH_REDIS_URL="" runs the gateway with its in-memory limiter instead, to isolate Redis's share.
const REDIS_URL = process.env.BENCH_REDIS_URL ?? process.env.REDIS_URL ?? "redis://127.0.0.1:6379"
// BENCH_TARGETS=gateway runs only those targets (comma-separated), e.g. to profile one path alone.
const ONLY = process.env.BENCH_TARGETS?.split(",").map((name) => name.trim())
// BENCH_BASELINE=/path/to/another/checkout (with its node_modules) runs that checkout's gateway and
// `npm start` too, interleaved with this one's: a before/after of a change in the same run.
const BASELINE = process.env.BENCH_BASELINE
// The log level of every Parley server: the default (`info`, an access line per request) unless
// BENCH_LOG_LEVEL says otherwise. Their standard output (the log) goes to a file, as a deployment's
// goes to a file or a collector's pipe, and is deleted after the run.
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? "info"
const INTERNAL_SECRET = `bench-${crypto.randomUUID()}`
const OPERATOR_TOKEN = `op-${crypto.randomUUID()}`

const repo = new URL("../../../", import.meta.url)

/** An organization, its administrator's session and a legacy (full-access) API key, through the public API. */
const setUpTenant = async (gatewayUrl: string): Promise<string> => {
  const email = `bench.${Date.now()}@example.com`
  const password = `pw-${crypto.randomUUID()}`
  const json = { "content-type": "application/json" }
  const created = await fetch(`${gatewayUrl}/api/operator/organizations`, {
    method: "POST",
    headers: { ...json, authorization: `Bearer ${OPERATOR_TOKEN}` },
    body: JSON.stringify({ name: "Bench", features: ["api_access"], admin: { email, password } }),
  })
  if (created.status !== 201) throw new Error(`create organization: ${created.status} ${await created.text()}`)
  const login = await fetch(`${gatewayUrl}/api/auth/login`, {
    method: "POST",
    headers: json,
    body: JSON.stringify({ email, password }),
  })
  const cookie = /parley_session=[^;]*/.exec(login.headers.get("set-cookie") ?? "")?.[0]
  if (cookie === undefined) throw new Error(`login: ${login.status}`)
  const key = await fetch(`${gatewayUrl}/api/org/api-keys`, {
    method: "POST",
    headers: { ...json, cookie },
    body: JSON.stringify({ name: "bench" }),
  })
  if (key.status !== 201) throw new Error(`create key: ${key.status} ${await key.text()}`)
  return ((await key.json()) as { key: string }).key
}

/** The pid of the Redis server (to read its CPU time), when it runs on this machine. */
const redisProcessId = async (url: string): Promise<number | undefined> => {
  const redis = new Redis(url, { lazyConnect: true })
  try {
    await redis.connect()
    const pid = Number(/process_id:(\d+)/.exec(await redis.info("server"))?.[1])
    return Number.isInteger(pid) && cpuSeconds(pid) !== undefined ? pid : undefined
  } finally {
    redis.disconnect()
  }
}

interface Measured extends LoadResult {
  /** CPU microseconds per request of each server process on the path. */
  readonly cpuMicrosPerRequest: Record<string, number>
}

const measure = async (
  label: string,
  url: string,
  headers: Record<string, string>,
  servers: Record<string, number | undefined>,
): Promise<Measured> => {
  const before = Object.fromEntries(Object.entries(servers).map(([name, pid]) => [name, cpuSeconds(pid) ?? 0]))
  const result = await runLoad({ url, headers, connections: CONNECTIONS, durationSeconds: DURATION_SECONDS })
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${label}: ${result.non2xx} non-2xx answers and ${result.errors} errors — the run is not valid`)
  }
  const cpuMicrosPerRequest = Object.fromEntries(
    Object.entries(servers)
      .filter(([, pid]) => pid !== undefined)
      .map(([name, pid]) => [name, Math.round((((cpuSeconds(pid) ?? 0) - (before[name] ?? 0)) * 1e6) / result.total)]),
  )
  return { ...result, cpuMicrosPerRequest }
}

const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] as number
}

/** The round whose throughput is the median of the rounds (its latencies and CPU come with it). */
const medianRound = (rounds: ReadonlyArray<Measured>): Measured => {
  const target = median(rounds.map((r) => r.requestsPerSecond))
  return rounds.find((r) => r.requestsPerSecond === target) as Measured
}

const row = (label: string, r: Measured) =>
  `| ${label.padEnd(44)} | ${r.requestsPerSecond.toFixed(0).padStart(8)} | ${r.p50Ms.toFixed(1).padStart(7)} | ${r.p99Ms
    .toFixed(1)
    .padStart(7)} | ${Object.entries(r.cpuMicrosPerRequest)
    .map(([name, micros]) => `${name} ${micros} µs`)
    .join(", ")
    .padEnd(34)} |`

const main = async () => {
  const db = await freshDatabase()
  const standaloneDb = await freshDatabase()
  const standaloneDataDir = mkdtempSync(join(tmpdir(), "parley-bench-"))
  const baselineDb = BASELINE === undefined ? undefined : await freshDatabase()
  const baselineDataDir = mkdtempSync(join(tmpdir(), "parley-bench-"))
  const logDir = mkdtempSync(join(tmpdir(), "parley-bench-log-"))
  const logFile = join(logDir, "servers.log")
  const log = openSync(logFile, "a")
  try {
    const ports = await Promise.all(Array.from({ length: 12 }, () => freePort()))
    const [
      barePort,
      identityPort,
      gatewayPort,
      metricsPort,
      proxyPort,
      standalonePort,
      standaloneMetricsPort,
      floorPort,
      baselineGatewayPort,
      baselineMetricsPort,
      baselineStandalonePort,
      baselineStandaloneMetricsPort,
    ] = ports as [number, number, number, number, number, number, number, number, number, number, number, number]
    const bareUrl = `http://127.0.0.1:${barePort}`
    const identityUrl = `http://127.0.0.1:${identityPort}`
    const gatewayUrl = `http://127.0.0.1:${gatewayPort}`
    const common = {
      DATABASE_URL: db.url,
      KAFKA_BROKERS: "",
      PARLEY_INTERNAL_SECRET: INTERNAL_SECRET,
      PARLEY_LOG_LEVEL: LOG_LEVEL,
      PARLEY_PUBLIC_URL: "http://localhost:3000",
    }
    const bareProcess = startProcess(new URL("gateway/bare-server.ts", new URL("../", import.meta.url)), [
      String(barePort),
    ])
    const proxyUrl = `http://127.0.0.1:${proxyPort}`
    const proxyProcess = startProcess(new URL("gateway/minimal-proxy.ts", new URL("../", import.meta.url)), [
      String(proxyPort),
      bareUrl,
    ])
    // Bare Fastify plus the gateway's Redis limiter and nothing else: the ceiling of any limited route.
    const floorUrl = `http://127.0.0.1:${floorPort}`
    const floorProcess =
      REDIS_URL === ""
        ? undefined
        : startProcess(new URL("gateway/limited-bare.ts", new URL("../", import.meta.url)), [
            String(floorPort),
            REDIS_URL,
          ])
    const identityProcess = startProcess(
      new URL("services/identity/src/main.ts", repo),
      [],
      {
        ...common,
        PARLEY_IDENTITY_PORT: String(identityPort),
        PARLEY_OPERATOR_TOKEN: OPERATOR_TOKEN,
      },
      log,
    )
    await waitUntilLive(`${identityUrl}/health/live`)
    const gatewayEnv = (port: number, metrics: number) => ({
      ...common,
      PARLEY_PORT: String(port),
      PARLEY_GATEWAY_METRICS_PORT: String(metrics),
      PARLEY_IDENTITY_URL: identityUrl,
      PARLEY_WEBHOOK_REGISTRY_URL: bareUrl,
      PARLEY_ASSISTANT_URL: bareUrl,
      PARLEY_MESSAGING_URL: bareUrl,
      REDIS_URL,
      // High enough that the run measures the limiter's cost, never its refusals.
      PARLEY_RATE_GENERAL_PER_MIN: "1000000000",
      // e.g. BENCH_GATEWAY_EXEC_ARGV="--cpu-prof --cpu-prof-dir=/tmp/prof" to profile the gateway.
      ...(process.env.BENCH_GATEWAY_EXEC_ARGV === undefined
        ? {}
        : { BENCH_EXEC_ARGV: process.env.BENCH_GATEWAY_EXEC_ARGV }),
    })
    const gatewayProcess = startProcess(
      new URL("services/gateway/src/main.ts", repo),
      [],
      gatewayEnv(gatewayPort, metricsPort),
      log,
    )
    // `npm start`'s composition root: the gateway with every service in its one process, on Redis.
    const standaloneUrl = `http://127.0.0.1:${standalonePort}`
    const standaloneEnv = (databaseUrl: string, port: number, metrics: number, dataDir: string) => ({
      DATABASE_URL: databaseUrl,
      REDIS_URL,
      KAFKA_BROKERS: "",
      PARLEY_PORT: String(port),
      PARLEY_METRICS_PORT: String(metrics),
      PARLEY_DATA_DIR: dataDir,
      PARLEY_OPERATOR_TOKEN: OPERATOR_TOKEN,
      PARLEY_LOG_LEVEL: LOG_LEVEL,
      PARLEY_PUBLIC_URL: "http://localhost:3000",
      PARLEY_RATE_GENERAL_PER_MIN: "1000000000",
      ...(process.env.BENCH_GATEWAY_EXEC_ARGV === undefined
        ? {}
        : { BENCH_EXEC_ARGV: process.env.BENCH_GATEWAY_EXEC_ARGV }),
    })
    const standaloneProcess = startProcess(
      new URL("services/standalone/src/main.ts", repo),
      [],
      standaloneEnv(standaloneDb.url, standalonePort, standaloneMetricsPort, standaloneDataDir),
      log,
    )
    // The same two from the baseline checkout, when given.
    const baselineRepo = BASELINE === undefined ? undefined : new URL(`file://${BASELINE.replace(/\/?$/, "/")}`)
    const baselineGatewayUrl = `http://127.0.0.1:${baselineGatewayPort}`
    const baselineStandaloneUrl = `http://127.0.0.1:${baselineStandalonePort}`
    const baselineGateway =
      baselineRepo === undefined
        ? undefined
        : startProcess(
            new URL("services/gateway/src/main.ts", baselineRepo),
            [],
            gatewayEnv(baselineGatewayPort, baselineMetricsPort),
            log,
          )
    const baselineStandalone =
      baselineRepo === undefined || baselineDb === undefined
        ? undefined
        : startProcess(
            new URL("services/standalone/src/main.ts", baselineRepo),
            [],
            standaloneEnv(baselineDb.url, baselineStandalonePort, baselineStandaloneMetricsPort, baselineDataDir),
            log,
          )
    await Promise.all([
      waitUntilLive(`${bareUrl}/health`),
      waitUntilLive(`${proxyUrl}/health`),
      ...(floorProcess === undefined ? [] : [waitUntilLive(`${floorUrl}/health`)]),
      waitUntilLive(`${gatewayUrl}/health/live`),
      waitUntilLive(`${standaloneUrl}/health/live`, 60_000),
      ...(baselineGateway === undefined ? [] : [waitUntilLive(`${baselineGatewayUrl}/health/live`)]),
      ...(baselineStandalone === undefined ? [] : [waitUntilLive(`${baselineStandaloneUrl}/health/live`, 60_000)]),
    ])
    const key = await setUpTenant(gatewayUrl)
    const standaloneKey = await setUpTenant(standaloneUrl)
    const baselineStandaloneKey =
      baselineStandalone === undefined ? undefined : await setUpTenant(baselineStandaloneUrl)
    // Redis's own CPU per request is part of the gateway path's cost on a shared machine too.
    const redisPid = REDIS_URL === "" ? undefined : await redisProcessId(REDIS_URL)
    const keyed = { "x-api-key": key }

    console.log(
      `gateway benchmark: log level ${LOG_LEVEL}; ${CONNECTIONS} connections, ${ROUNDS} interleaved rounds of ${DURATION_SECONDS} s per target, after ${WARMUP_SECONDS} s warm-up each`,
    )
    interface Target {
      readonly name: string
      readonly url: string
      readonly headers: Record<string, string>
      readonly servers: Record<string, number | undefined>
    }
    const targets: Array<Target> = [
      { name: "bare", url: `${bareUrl}/api/templates`, headers: {}, servers: { bare: bareProcess.pid } },
      ...(floorProcess === undefined
        ? []
        : [
            {
              name: "floor",
              url: `${floorUrl}/api/templates`,
              headers: {},
              servers: { floor: floorProcess.pid, redis: redisPid },
            },
          ]),
      {
        name: "standalone",
        url: `${standaloneUrl}/api/org/webhook-events`,
        headers: { "x-api-key": standaloneKey },
        servers: { standalone: standaloneProcess.pid, redis: redisPid },
      },
      ...(baselineStandalone === undefined || baselineStandaloneKey === undefined
        ? []
        : [
            {
              name: "standalone@baseline",
              url: `${baselineStandaloneUrl}/api/org/webhook-events`,
              headers: { "x-api-key": baselineStandaloneKey },
              servers: { standalone: baselineStandalone.pid, redis: redisPid },
            },
          ]),
      {
        name: "gateway",
        url: `${gatewayUrl}/api/templates`,
        headers: keyed,
        servers: { gateway: gatewayProcess.pid, upstream: bareProcess.pid, redis: redisPid },
      },
      ...(baselineGateway === undefined
        ? []
        : [
            {
              name: "gateway@baseline",
              url: `${baselineGatewayUrl}/api/templates`,
              headers: keyed,
              servers: { gateway: baselineGateway.pid, upstream: bareProcess.pid, redis: redisPid },
            },
          ]),
      {
        name: "proxy",
        url: `${proxyUrl}/api/templates`,
        headers: {},
        servers: { proxy: proxyProcess.pid, upstream: bareProcess.pid },
      },
      {
        name: "health",
        url: `${gatewayUrl}/health/live`,
        headers: {},
        servers: { gateway: gatewayProcess.pid },
      },
      {
        name: "identity",
        url: `${gatewayUrl}/api/org/members`,
        headers: keyed,
        servers: { gateway: gatewayProcess.pid, identity: identityProcess.pid },
      },
    ]
    targets.splice(0, targets.length, ...targets.filter((target) => ONLY === undefined || ONLY.includes(target.name)))
    for (const target of targets) {
      await runLoad({
        url: target.url,
        headers: target.headers,
        connections: CONNECTIONS,
        durationSeconds: WARMUP_SECONDS,
      })
    }
    const rounds: Record<string, Array<Measured>> = Object.fromEntries(targets.map((target) => [target.name, []]))
    const load = [loadavg()[0] as number]
    for (let round = 0; round < ROUNDS; round++) {
      for (const target of targets) {
        rounds[target.name]?.push(await measure(target.name, target.url, target.headers, target.servers))
      }
      load.push(loadavg()[0] as number)
    }
    const labels: Record<string, string> = {
      bare: "bare Fastify (small JSON)",
      floor: "reference: bare Fastify + the Redis limiter",
      standalone: "npm start (1 process): GET /api/org/webhook-events",
      gateway: "gateway → tiny upstream (key + Redis limit)",
      proxy: "reference: minimal Fastify+undici proxy",
      health: "gateway's own /health/live (no forwarding)",
      identity: "gateway → identity GET /api/org/members",
    }
    const medians = Object.fromEntries(
      Object.entries(rounds)
        .filter(([, rs]) => rs.length > 0)
        .map(([name, rs]) => [name, medianRound(rs)]),
    )
    const { bare, floor, standalone, gateway, proxy, health, identity } = medians

    console.log("")
    console.log(
      `| ${"target".padEnd(44)} | ${"req/s".padStart(8)} | ${"p50 ms".padStart(7)} | ${"p99 ms".padStart(7)} | ${"CPU per request".padEnd(34)} |`,
    )
    console.log(`|${"-".repeat(46)}|${"-".repeat(10)}|${"-".repeat(9)}|${"-".repeat(9)}|${"-".repeat(36)}|`)
    for (const [name, measured] of Object.entries(medians)) console.log(row(labels[name] ?? name, measured))
    console.log("")
    const ratio =
      standalone === undefined || bare === undefined ? undefined : standalone.requestsPerSecond / bare.requestsPerSecond
    if (ratio !== undefined) {
      console.log(
        `npm start (one process) / bare Fastify throughput: ${ratio.toFixed(2)}× (target ≥ 0.40×, issue #28 item 3)`,
      )
    }
    if (floor !== undefined && bare !== undefined) {
      console.log(
        `bare Fastify + Redis limiter / bare Fastify throughput: ${(floor.requestsPerSecond / bare.requestsPerSecond).toFixed(2)}× (the ceiling of any route with the limiter on)`,
      )
    }
    const separateRatio =
      gateway === undefined || bare === undefined ? undefined : gateway.requestsPerSecond / bare.requestsPerSecond
    if (separateRatio !== undefined) {
      console.log(`gateway process → upstream process / bare Fastify throughput: ${separateRatio.toFixed(2)}×`)
    }
    if (proxy !== undefined && bare !== undefined && gateway !== undefined) {
      console.log(
        `minimal proxy / bare Fastify: ${(proxy.requestsPerSecond / bare.requestsPerSecond).toFixed(2)}×; gateway / minimal proxy: ${(gateway.requestsPerSecond / proxy.requestsPerSecond).toFixed(2)}×`,
      )
    }
    for (const name of ["standalone", "gateway"]) {
      const now = medians[name]
      const before = medians[`${name}@baseline`]
      if (now === undefined || before === undefined) continue
      console.log(
        `${name} / ${name}@baseline: throughput ${(now.requestsPerSecond / before.requestsPerSecond).toFixed(3)}×, ${name} CPU per request ${now.cpuMicrosPerRequest[name === "gateway" ? "gateway" : "standalone"]} vs ${before.cpuMicrosPerRequest[name === "gateway" ? "gateway" : "standalone"]} µs`,
      )
    }
    console.log(`load average (1 min) before and after each round: ${load.map((l) => l.toFixed(1)).join(", ")}`)
    console.log(
      `every round (req/s): ${Object.entries(rounds)
        .map(([name, rs]) => `${name} ${rs.map((r) => r.requestsPerSecond.toFixed(0)).join(" / ")}`)
        .join("; ")}`,
    )
    console.log(
      JSON.stringify({
        connections: CONNECTIONS,
        durationSeconds: DURATION_SECONDS,
        rounds: ROUNDS,
        bare,
        floor,
        standalone,
        gateway,
        proxy,
        health,
        identity,
        ratio,
        separateRatio,
      }),
    )
  } finally {
    await stopAll()
    await db.close()
    await standaloneDb.close()
    await baselineDb?.close()
    rmSync(standaloneDataDir, { recursive: true, force: true })
    rmSync(baselineDataDir, { recursive: true, force: true })
    console.log(`the servers wrote ${(statSync(logFile).size / 1e6).toFixed(0)} MB of log`)
    rmSync(logDir, { recursive: true, force: true })
  }
}

await main()

import { readFile, rm, stat } from "node:fs/promises"
import { join } from "node:path"
import { isRunning } from "@parley/db"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  embeddedEnvironment,
  type StandaloneProcess,
  startStandaloneProcess,
  temporaryRoot,
} from "./support/standalone-process.ts"

/** The PID of the embedded PostgreSQL server running on a data dir, if one is. */
const serverPid = async (dataDir: string): Promise<number | undefined> => {
  const lock = await readFile(join(dataDir, "postgres", "postmaster.pid"), "utf8").catch(() => undefined)
  return lock === undefined ? undefined : Number(lock.split("\n")[0])
}

// `npm start` on a machine with no database, Redis or Kafka: an embedded PostgreSQL server, the
// single-node bus, an in-memory rate limiter, secrets generated under the data dir.
describe("npm start (embedded default)", () => {
  let root: string
  let dataDir: string
  let first: StandaloneProcess

  beforeAll(async () => {
    root = await temporaryRoot("parley-standalone-")
    dataDir = join(root, "data")
    first = await startStandaloneProcess(await embeddedEnvironment(dataDir))
  }, 120_000)

  afterAll(async () => {
    await first?.stop()
    await rm(root, { recursive: true, force: true })
  })

  it("answers the health probes on the public port and keeps metrics off it", async () => {
    expect((await fetch(`${first.url}/health/live`)).status).toBe(200)
    const ready = await fetch(`${first.url}/health/ready`)
    expect(ready.status).toBe(200)
    const publicMetrics = await fetch(`${first.url}/metrics`)
    expect(publicMetrics.status).toBe(404)
    expect(publicMetrics.headers.get("x-request-id")).toBeTruthy()
  })

  it("serves every service's metrics in Prometheus text on the internal port", async () => {
    // A request each service answers, so that each has series of its own.
    const key = /API key:\s+(parley_\S+)/.exec(first.output())?.[1] as string
    for (const path of ["/api/org/webhooks", "/api/org/members", "/api/templates", "/api/leads"]) {
      expect((await fetch(`${first.url}${path}`, { headers: { "x-api-key": key } })).status, path).toBe(200)
    }
    const response = await fetch(`${first.metricsUrl}/metrics`)
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/)
    const text = await response.text()
    for (const service of ["gateway", "identity", "webhook-registry", "messaging"]) {
      expect(text).toContain(`service="${service}"`)
    }
    // The dispatcher serves no request: its own series say how webhook deliveries go (a tester found none).
    expect(text).toMatch(/parley_dispatcher_deliveries_failed_total\{[^}]*service="dispatcher"[^}]*\} 0/)
    expect(text).toContain("# TYPE parley_dispatcher_attempts_total counter")
    // The process's own metrics once, from the gateway's registry: merged from every service's,
    // they were summed (a resident set seven times the real one).
    for (const name of [
      "process_resident_memory_bytes",
      "nodejs_heap_size_used_bytes",
      "nodejs_eventloop_lag_p99_seconds",
    ]) {
      const series = text.split("\n").filter((line) => line.startsWith(`${name}{`))
      expect(series, name).toEqual([expect.stringContaining('service="gateway"')])
    }
  })

  it("prints a working full-access API key and the admin login on first start", async () => {
    const key = /API key:\s+(parley_\S+)/.exec(first.output())?.[1]
    const login = /admin login:\s+(\S+) \/ (\S+)/.exec(first.output())
    expect(key).toBeDefined()
    expect(login).not.toBeNull()
    const events = await fetch(`${first.url}/api/org/webhook-events`, { headers: { "x-api-key": key as string } })
    expect(events.status).toBe(200)
    expect(((await events.json()) as { data: unknown[] }).data).toHaveLength(8)
    const session = await fetch(`${first.url}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: login?.[1], password: login?.[2] }),
    })
    expect(session.status).toBe(200)
  })

  it("keeps its secrets private under the data dir", async () => {
    expect((await stat(join(dataDir, "secrets.json"))).mode & 0o777).toBe(0o600)
  })

  it("keeps its database under the data dir of a private folder, whose permissions it leaves alone", async () => {
    // root is mkdtemp's 0700, like a clone under /root: as root, the server's user cannot pass through it.
    expect((await stat(root)).mode & 0o777).toBe(0o700)
    expect((await stat(dataDir)).mode & 0o777).toBe(0o700)
    expect(await serverPid(dataDir)).toBeDefined()
  })

  it("stops cleanly on SIGTERM and restarts on the same data without creating a second demo org", async () => {
    const key = /API key:\s+(parley_\S+)/.exec(first.output())?.[1] as string
    expect(await first.stop()).toBe(0)
    const second = await startStandaloneProcess(await embeddedEnvironment(dataDir))
    try {
      expect(second.output()).not.toContain("First start")
      expect(second.output()).toMatch(/demo org: org_\w+/)
      // The key minted before the restart still authenticates: same database, same secrets.
      const events = await fetch(`${second.url}/api/org/webhook-events`, { headers: { "x-api-key": key } })
      expect(events.status).toBe(200)
    } finally {
      expect(await second.stop()).toBe(0)
    }
    // Stopped with Parley: the server shut down cleanly (its lock file is gone).
    expect(await serverPid(dataDir)).toBeUndefined()
  }, 120_000)

  it("starts again on the same data after Parley was killed with SIGKILL", async () => {
    const key = /API key:\s+(parley_\S+)/.exec(first.output())?.[1] as string
    const killed = await startStandaloneProcess(await embeddedEnvironment(dataDir))
    const server = await serverPid(dataDir)
    expect(server).toBeDefined()
    killed.child.kill("SIGKILL")
    await killed.stop()
    const next = await startStandaloneProcess(await embeddedEnvironment(dataDir))
    try {
      // The killed Parley's server is gone (its reaper or this start stopped it); a new one serves.
      // (A zombie counts as stopped: the killed Parley's server is reparented to PID 1, which on
      // some machines — a microVM's init — does not reap it.)
      expect(await isRunning(server as number)).toBe(false)
      expect(await serverPid(dataDir)).not.toBe(server)
      expect(next.output()).not.toContain("First start")
      const events = await fetch(`${next.url}/api/org/webhook-events`, { headers: { "x-api-key": key } })
      expect(events.status).toBe(200)
    } finally {
      expect(await next.stop()).toBe(0)
    }
  }, 120_000)
})

import { randomBytes } from "node:crypto"
import { access, mkdtemp, readFile, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type FreshDatabase, freshDatabase } from "@parley/db/testing"
import { freePort } from "@parley/platform/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ensureBuilt, repoRoot, ServiceNames, serviceEntry } from "./support/distributed-build.ts"
import { awaitLive, type ServiceProcess, spawnService, stopAll } from "./support/distributed-process.ts"

/** The services deploy/docker/entrypoint.sh accepts, read from its `case` line. */
const imageServices = async (): Promise<Array<string>> => {
  const script = await readFile(join(repoRoot, "deploy/docker/entrypoint.sh"), "utf8")
  const line = /^\s*([a-z-]+(?:\|[a-z-]+)+)\)\s*;;/m.exec(script)?.[1]
  return (line ?? "").split("|")
}

// Every entry point the container image can run exists in the build output and starts: the
// process comes up and answers /health/live. (Single-node bus on Postgres: this is about the
// entry points, the distributed test covers Kafka.)
describe("the built entry points the container image runs", () => {
  let services: FreshDatabase
  let standaloneDb: FreshDatabase
  let dataDir: string
  const started: Array<ServiceProcess> = []

  beforeAll(async () => {
    await ensureBuilt()
    services = await freshDatabase()
    standaloneDb = await freshDatabase()
    dataDir = await mkdtemp(join(tmpdir(), "parley-entrypoints-"))
  }, 300_000)

  afterAll(async () => {
    await stopAll()
    await services?.close()
    await standaloneDb?.close()
    if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true })
  }, 60_000)

  it("names the same services as the image's entrypoint script", async () => {
    expect((await imageServices()).sort()).toEqual([...ServiceNames].sort())
  })

  it("has services/<name>/dist/main.js for every one of them", async () => {
    const missing: Array<string> = []
    for (const name of await imageServices()) {
      await access(serviceEntry(name as (typeof ServiceNames)[number])).catch(() => missing.push(name))
    }
    expect(missing, `missing entry points: ${missing.join(", ")}`).toEqual([])
  })

  it("starts each of them until /health/live answers 200", async () => {
    const env: Record<string, string | undefined> = { ...process.env }
    for (const name of Object.keys(env)) {
      if (name.startsWith("PARLEY_") || ["DATABASE_URL", "REDIS_URL", "KAFKA_BROKERS"].includes(name)) delete env[name]
    }
    Object.assign(env, {
      DATABASE_URL: services.url,
      PARLEY_SECRET_KEY: randomBytes(32).toString("base64"),
      PARLEY_INTERNAL_SECRET: randomBytes(32).toString("base64url"),
      PARLEY_LOG_LEVEL: "warn",
      PARLEY_DATA_DIR: dataDir,
      PARLEY_GATEWAY_METRICS_PORT: String(await freePort()),
      PARLEY_METRICS_PORT: String(await freePort()),
      // The gateway starts without its upstreams (only readiness asks them).
      PARLEY_IDENTITY_URL: "http://127.0.0.1:9",
      PARLEY_WEBHOOK_REGISTRY_URL: "http://127.0.0.1:9",
      PARLEY_ASSISTANT_URL: "http://127.0.0.1:9",
      PARLEY_MESSAGING_URL: "http://127.0.0.1:9",
    })
    for (const name of ServiceNames) {
      const own = name === "standalone" ? { DATABASE_URL: standaloneDb.url } : {}
      started.push(await spawnService(name, { ...env, ...own }))
    }
    const outcomes = await Promise.allSettled(started.map((service) => awaitLive(service, 90_000)))
    const failures = outcomes.flatMap((outcome, i) =>
      outcome.status === "rejected" ? [`${started[i]?.name}: ${String(outcome.reason)}`] : [],
    )
    expect(failures, failures.join("\n\n")).toEqual([])
  }, 120_000)

  it("serves the chat widget from the built gateway: the loader and the panel it names (docs/contract.md §15)", async () => {
    const gateway = started.find((service) => service.name === "gateway")
    expect(gateway, "the gateway process started").toBeDefined()
    const loader = await fetch(`${gateway?.url}/widget.js`)
    expect(loader.status).toBe(200)
    expect(loader.headers.get("content-type")).toMatch(/^text\/javascript/)
    const panel = /widget\/panel-[\w-]+\.js/.exec(await loader.text())?.[0]
    expect(panel, "the loader names its panel").toBeDefined()
    const chunk = await fetch(`${gateway?.url}/${panel}`)
    expect(chunk.status).toBe(200)
    expect(chunk.headers.get("cache-control")).toBe("public, max-age=31536000, immutable")
  })
})

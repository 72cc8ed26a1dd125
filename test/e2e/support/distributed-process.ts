/**
 * One built service as its own process (`node services/<name>/dist/main.js`, as the container
 * image runs it), started on a free port and awaited on `/health/live`.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { eventually, freePort } from "@parley/platform/testing"
import { expect } from "vitest"
import { repoRoot, type ServiceName, serviceEntry } from "./distributed-build.ts"

export interface ServiceProcess {
  readonly name: ServiceName
  readonly child: ChildProcess
  /** Where its HTTP server (API or health only) listens. */
  readonly url: string
  /** stdout and stderr so far (JSON log lines). */
  output(): string
  /** SIGTERM, then SIGKILL after `graceMs`; resolves with the exit code or signal. */
  stop(graceMs?: number): Promise<number | string | null>
}

/** The variable each service reads its HTTP port from. */
export const PortVariable: Record<ServiceName, string> = {
  gateway: "PARLEY_PORT",
  identity: "PARLEY_IDENTITY_PORT",
  "webhook-registry": "PARLEY_WEBHOOK_REGISTRY_PORT",
  dispatcher: "PARLEY_DISPATCHER_PORT",
  assistant: "PARLEY_ASSISTANT_PORT",
  messaging: "PARLEY_MESSAGING_PORT",
  standalone: "PARLEY_PORT",
}

/** Every process this module started and has not seen exit, so a failed test can still kill them. */
const running = new Set<ServiceProcess>()

// Should the test process itself end without its afterAll (a crashed worker), take the children along.
process.once("exit", () => {
  for (const service of running) service.child.kill("SIGKILL")
})

export const spawnService = async (
  name: ServiceName,
  env: Record<string, string | undefined>,
  port?: number,
): Promise<ServiceProcess> => {
  const chosen = port ?? (await freePort())
  const child = spawn(process.execPath, [serviceEntry(name)], {
    cwd: repoRoot,
    env: { ...env, [PortVariable[name]]: String(chosen) } as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  })
  let output = ""
  const append = (chunk: Buffer) => {
    output += chunk.toString("utf8")
    if (output.length > 2_000_000) output = output.slice(-1_000_000)
  }
  child.stdout?.on("data", append)
  child.stderr?.on("data", append)
  const exited = new Promise<number | string | null>((resolve) =>
    child.once("exit", (code, signal) => resolve(code ?? signal)),
  )
  const service: ServiceProcess = {
    name,
    child,
    url: `http://127.0.0.1:${chosen}`,
    output: () => output,
    stop: async (graceMs = 10_000) => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM")
        const timer = setTimeout(() => child.kill("SIGKILL"), graceMs)
        const outcome = await exited
        clearTimeout(timer)
        running.delete(service)
        return outcome
      }
      running.delete(service)
      return exited
    },
  }
  running.add(service)
  void exited.then(() => running.delete(service))
  return service
}

/** Polls `/health/live` until it answers 200; fails early, with the log, if the process exits. */
export const awaitLive = async (service: ServiceProcess, timeoutMs = 60_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if (service.child.exitCode !== null || service.child.signalCode !== null) {
      throw new Error(
        `${service.name} exited (${service.child.exitCode ?? service.child.signalCode}) before it was live:\n${service.output().slice(-6000)}`,
      )
    }
    const live = await fetch(`${service.url}/health/live`, { signal: AbortSignal.timeout(2_000) }).then(
      (response) => response.status === 200,
      () => false,
    )
    if (live) return
    if (Date.now() > deadline) {
      throw new Error(`${service.name} not live within ${timeoutMs} ms:\n${service.output().slice(-6000)}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/**
 * Polls `/health/ready` until it answers 200 (a consumer is ready once its Kafka groups have joined;
 * the mock broker's first join alone takes ~3 s); fails with the last answer.
 */
export const awaitReady = (service: ServiceProcess, timeoutMs = 60_000): Promise<void> =>
  eventually(
    async () => {
      const ready = await fetch(`${service.url}/health/ready`)
      expect(ready.status, `${service.name}: ${await ready.text()}`).toBe(200)
    },
    { timeoutMs, intervalMs: 250 },
  )

/** Stops every process still running (afterAll calls this even when a test failed midway). */
export const stopAll = async (): Promise<void> => {
  await Promise.all([...running].map((service) => service.stop()))
}

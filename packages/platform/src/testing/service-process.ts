/**
 * A service's `src/main.ts` in a process of its own, exactly as deployed, for tests that must kill
 * it like a crash or stop it like a deployment; and the free port it listens on.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { createServer } from "node:net"
import { fileURLToPath } from "node:url"
import { eventually } from "./eventually.ts"

/** A port nothing listens on right now (the OS picks it; released before the caller binds it). */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() =>
        typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no port")),
      )
    })
  })

export interface ServiceProcessOptions {
  /** Names the service in errors. */
  readonly name: string
  /** Its composition root (`services/<name>/src/main.ts`). */
  readonly main: URL
  /** The variable that sets its port (`PARLEY_DISPATCHER_PORT`, …). */
  readonly portVariable: string
  /** Its environment: nothing is inherited from the test's but PATH. */
  readonly env: Record<string, string>
  /** Polled until it answers 200 (default `/health/ready`: consumers joined, dependencies up). */
  readonly readyPath?: string
  readonly readyTimeoutMs?: number
}

export interface ServiceProcess {
  readonly process: ChildProcess
  /** `http://127.0.0.1:<port>`, where it listens. */
  readonly url: string
  /** Everything it printed so far (stdout and stderr). */
  readonly output: () => string
  /** Kills it like a crash: no shutdown, no commit, no goodbye to its consumer groups. */
  kill(): Promise<void>
  /** Stops it as a deployment does (SIGTERM): it drains, commits and leaves its consumer groups. */
  stop(): Promise<void>
}

export const startServiceProcess = async (options: ServiceProcessOptions): Promise<ServiceProcess> => {
  const port = await freePort()
  const child = spawn(process.execPath, ["--conditions=source", fileURLToPath(options.main)], {
    env: {
      PATH: process.env.PATH,
      PARLEY_LOG_LEVEL: process.env.CHILD_LOG_LEVEL ?? "warn",
      ...options.env,
      [options.portVariable]: String(port),
    },
    stdio: ["ignore", "pipe", "pipe"],
  })
  let output = ""
  const collect = (chunk: Buffer) => {
    output += chunk.toString()
  }
  child.stdout?.on("data", collect)
  child.stderr?.on("data", collect)
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  const url = `http://127.0.0.1:${port}`
  await eventually(
    async () => {
      if (child.exitCode !== null) throw new Error(`${options.name} exited: ${output}`)
      const response = await fetch(`${url}${options.readyPath ?? "/health/ready"}`)
      if (!response.ok) throw new Error(`not ready: ${response.status}`)
    },
    { timeoutMs: options.readyTimeoutMs ?? 60_000, intervalMs: 100 },
  ).catch((error: unknown) => {
    child.kill("SIGKILL")
    throw new Error(`${String(error)}\n${output}`)
  })
  return {
    process: child,
    url,
    output: () => output,
    kill: async () => {
      child.kill("SIGKILL")
      await exited
    },
    stop: async () => {
      if (child.exitCode === null) child.kill("SIGTERM")
      await exited
    },
  }
}

import { type ChildProcess, spawn } from "node:child_process"
import { createServer } from "node:net"
import { fileURLToPath } from "node:url"
import { eventually } from "@parley/platform/testing"
import { secretKey } from "./harness.ts"

const main = fileURLToPath(new URL("../src/main.ts", import.meta.url))

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0))
    })
  })

export interface ChildDispatcher {
  readonly process: ChildProcess
  readonly output: () => string
  /** Kills it like a crash: no shutdown, no commit, no goodbye to the consumer groups. */
  kill(): Promise<void>
  /** Stops it as a deployment does (SIGTERM): it commits and leaves its consumer groups. */
  stop(): Promise<void>
}

/** services/dispatcher/src/main.ts as its own process, exactly as deployed, on the test's database. */
/** Waits for /health/live, or for /health/ready too when `ready` (the consumers have joined their groups). */
export const startChildDispatcher = async (env: {
  databaseUrl: string
  scheduleMs?: string
  extra?: Record<string, string>
  ready?: boolean
}): Promise<ChildDispatcher> => {
  const port = await freePort()
  const child = spawn(process.execPath, ["--conditions=source", main], {
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: env.databaseUrl,
      PARLEY_SECRET_KEY: secretKey,
      PARLEY_WEBHOOK_ALLOW_PRIVATE: "true",
      PARLEY_DISPATCHER_PORT: String(port),
      PARLEY_LOG_LEVEL: process.env.CHILD_LOG_LEVEL ?? "warn",
      ...(env.scheduleMs === undefined ? {} : { PARLEY_DISPATCH_SCHEDULE_MS: env.scheduleMs }),
      ...env.extra,
    },
    stdio: ["ignore", "pipe", "pipe"],
  })
  let output = ""
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString()
  })
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString()
  })
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  await eventually(
    async () => {
      if (child.exitCode !== null) throw new Error(`dispatcher exited: ${output}`)
      const response = await fetch(`http://127.0.0.1:${port}/health/${env.ready === false ? "live" : "ready"}`)
      if (!response.ok) throw new Error(`not ready: ${response.status}`)
    },
    // On Kafka a restarted member waits for the killed one's session to expire before it joins.
    { timeoutMs: 60_000, intervalMs: 100 },
  ).catch((error: unknown) => {
    child.kill("SIGKILL")
    throw new Error(`${String(error)}\n${output}`)
  })
  return {
    process: child,
    output: () => output,
    kill: async () => {
      child.kill("SIGKILL")
      await exited
    },
    stop: async () => {
      child.kill("SIGTERM")
      await exited
    },
  }
}

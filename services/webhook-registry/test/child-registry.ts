import { type ChildProcess, spawn } from "node:child_process"
import { createServer } from "node:net"
import { fileURLToPath } from "node:url"
import { eventually } from "@parley/platform/testing"
import { internalSecret, secretKey } from "./harness.ts"

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

export interface ChildRegistry {
  readonly process: ChildProcess
  /** `http://127.0.0.1:<port>`, where its API listens. */
  readonly url: string
  readonly output: () => string
  /** Kills it like a crash: no shutdown, no commit, no goodbye to the consumer groups. */
  kill(): Promise<void>
}

/**
 * services/webhook-registry/src/main.ts as its own process, exactly as deployed, on the test's
 * database (and bus, through `extra`). Answers once it listens: the app is built, its consumers
 * started, before it does.
 */
export const startChildRegistry = async (env: {
  databaseUrl: string
  extra?: Record<string, string>
}): Promise<ChildRegistry> => {
  const port = await freePort()
  const child = spawn(process.execPath, ["--conditions=source", main], {
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: env.databaseUrl,
      PARLEY_SECRET_KEY: secretKey,
      PARLEY_INTERNAL_SECRET: internalSecret,
      PARLEY_WEBHOOK_ALLOW_PRIVATE: "true",
      PARLEY_WEBHOOK_REGISTRY_PORT: String(port),
      PARLEY_LOG_LEVEL: process.env.CHILD_LOG_LEVEL ?? "warn",
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
  const url = `http://127.0.0.1:${port}`
  await eventually(
    async () => {
      if (child.exitCode !== null) throw new Error(`registry exited: ${output}`)
      const response = await fetch(`${url}/health/ready`)
      if (!response.ok) throw new Error(`not ready: ${response.status}`)
    },
    { timeoutMs: 60_000, intervalMs: 100 },
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
  }
}

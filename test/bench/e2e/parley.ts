/**
 * `npm start` as a newcomer runs it — `services/standalone/src/main.ts` in a child process, no
 * database, Redis or Kafka configured, the embedded PostgreSQL server under a data dir of the
 * benchmark's — plus what the benchmark needs of it: the time to "Parley is ready.", the API key it
 * prints on first start, and its processes.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { readFile } from "node:fs/promises"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import type { ParleyProcesses } from "./process-tree.ts"

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url))

export interface RunningParley {
  readonly url: string
  readonly child: ChildProcess
  /** From spawning the process to its banner's "Parley is ready.", ms. */
  readonly startMs: number
  /** The full-access key printed on a first start. */
  readonly apiKey: string | undefined
  processes(): Promise<ParleyProcesses>
  stop(): Promise<number | null>
}

export const startParley = async (input: {
  readonly dataDir: string
  readonly port: number
  readonly metricsPort: number
  readonly env: Record<string, string>
  readonly execArgv?: ReadonlyArray<string>
  /** The tree whose `services/standalone` runs (an extracted revision); this one by default. */
  readonly root?: string
}): Promise<RunningParley> => {
  const env: Record<string, string | undefined> = { ...process.env }
  for (const name of Object.keys(env)) {
    if (name.startsWith("PARLEY_") || ["DATABASE_URL", "REDIS_URL", "KAFKA_BROKERS"].includes(name)) delete env[name]
  }
  const started = performance.now()
  const child = spawn(
    process.execPath,
    ["--conditions=source", "--no-warnings", ...(input.execArgv ?? []), "services/standalone/src/main.ts"],
    {
      cwd: input.root ?? repoRoot,
      env: {
        ...env,
        PARLEY_DATA_DIR: input.dataDir,
        PARLEY_PORT: String(input.port),
        PARLEY_METRICS_PORT: String(input.metricsPort),
        ...input.env,
      },
      stdio: ["ignore", "pipe", "inherit"],
    },
  )
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))
  let output = ""
  const startMs = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Parley did not start within 60 s:\n${output}`)), 60_000)
    child.stdout?.on("data", (chunk: Buffer) => {
      if (output.includes("Parley is ready.")) return // past the banner: the request log, drained
      output += chunk.toString("utf8")
      if (output.includes("Parley is ready.")) {
        clearTimeout(timer)
        resolve(performance.now() - started)
      }
    })
    void exited.then((code) => reject(new Error(`Parley exited with ${code} before it was ready:\n${output}`)))
  })
  return {
    url: `http://127.0.0.1:${input.port}`,
    child,
    startMs,
    apiKey: /API key:\s+(parley_\S+)/.exec(output)?.[1],
    processes: async () => {
      const lock = await readFile(join(input.dataDir, "postgres", "postmaster.pid"), "utf8").catch(() => undefined)
      return { node: child.pid as number, postmaster: lock === undefined ? undefined : Number(lock.split("\n")[0]) }
    },
    stop: async () => {
      if (child.exitCode === null) child.kill("SIGTERM")
      return exited
    },
  }
}

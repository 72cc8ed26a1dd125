/**
 * `@parley/standalone/testing`: runs `services/standalone` the way `npm start` does — a child process
 * on Node 24 with the source condition — and reads what it prints, so tests (e2e, browser) see Parley
 * exactly as a newcomer does.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import { mkdtemp } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { freePort } from "@parley/platform/testing"

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url))

export interface StandaloneProcess {
  readonly child: ChildProcess
  readonly url: string
  readonly metricsUrl: string
  /** Everything printed on stdout so far (banner and JSON log lines). */
  output(): string
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>
}

export const startStandaloneProcess = async (
  env: Record<string, string | undefined>,
  { timeoutMs = 60_000 }: { timeoutMs?: number } = {},
): Promise<StandaloneProcess> => {
  const child = spawn(process.execPath, ["--conditions=source", "services/standalone/src/main.ts"], {
    cwd: repoRoot,
    env: env as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  })
  let stdout = ""
  let stderr = ""
  child.stdout?.on("data", (chunk: Buffer) => {
    stdout += chunk.toString("utf8")
  })
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8")
  })
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))

  const ready = await new Promise<{ url: string; metricsUrl: string }>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      reject(new Error(`standalone did not start within ${timeoutMs} ms\nstdout:\n${stdout}\nstderr:\n${stderr}`))
    }, timeoutMs)
    const check = () => {
      const url = /Parley is running at (http:\/\/\S+)/.exec(stdout)?.[1]
      const metricsUrl = /metrics:\s+(http:\/\/\S+)\/metrics/.exec(stdout)?.[1]
      // The banner's last line: everything before it (first-start credentials included) is out.
      if (url !== undefined && metricsUrl !== undefined && stdout.includes("Parley is ready.")) {
        clearTimeout(timer)
        resolve({ url, metricsUrl })
      }
    }
    child.stdout?.on("data", check)
    void exited.then((code) => {
      clearTimeout(timer)
      reject(new Error(`standalone exited with ${code} before it was ready\nstdout:\n${stdout}\nstderr:\n${stderr}`))
    })
  })
  return {
    child,
    ...ready,
    output: () => stdout,
    stop: async () => {
      if (child.exitCode === null) child.kill("SIGTERM")
      return exited
    },
  }
}

/**
 * A temporary directory to keep a data dir in: private (mkdtemp's 0700), like a clone under /root.
 * Run as root, `npm start`'s PostgreSQL runs as the user "postgres", which cannot pass through it
 * and is handed its folders instead (see `@parley/db`'s embedded server).
 */
export const temporaryRoot = (prefix: string): Promise<string> => mkdtemp(join(tmpdir(), prefix))

/** The environment of a newcomer's machine: nothing configured but where to keep data and listen. */
export const embeddedEnvironment = async (dataDir: string): Promise<Record<string, string | undefined>> => {
  const env: Record<string, string | undefined> = { ...process.env }
  for (const name of Object.keys(env)) {
    if (name.startsWith("PARLEY_") || ["DATABASE_URL", "REDIS_URL", "KAFKA_BROKERS"].includes(name)) delete env[name]
  }
  return {
    ...env,
    PARLEY_DATA_DIR: dataDir,
    PARLEY_PORT: String(await freePort()),
    PARLEY_METRICS_PORT: String(await freePort()),
    PARLEY_LOG_LEVEL: "warn",
  }
}

/** What the first start prints once: the demo organization's credentials. */
export interface FirstStartCredentials {
  readonly operatorToken: string
  readonly adminEmail: string
  readonly adminPassword: string
  readonly apiKey: string
}

/** The credentials of the banner of a first start, or `undefined` when the data dir was not new. */
export const firstStartCredentials = (output: string): FirstStartCredentials | undefined => {
  const operatorToken = /operator token:\s+(\S+)/.exec(output)?.[1]
  const login = /admin login:\s+(\S+) \/ (\S+)/.exec(output)
  const apiKey = /API key:\s+(\S+)/.exec(output)?.[1]
  if (operatorToken === undefined || login === null || apiKey === undefined) return undefined
  return { operatorToken, adminEmail: login[1] as string, adminPassword: login[2] as string, apiKey }
}

/**
 * A stand-in for the messaging provider's Graph API (give it to `startHttpServer` from
 * `@parley/platform/testing`): answers sends and template submissions as the cloud provider does,
 * enough for Parley's sends, templates and campaigns.
 */
export const cloudProviderHandler = (request: { path: string }) => {
  if (request.path.endsWith("/messages")) {
    return { body: { messaging_product: "whatsapp", messages: [{ id: `wamid.${randomBytes(6).toString("hex")}` }] } }
  }
  if (request.path.endsWith("/message_templates")) {
    return { body: { id: String(Date.now()), status: "PENDING", category: "UTILITY" } }
  }
  // `GET /<version>/<phoneNumberId>`: the check a channel's connection makes (docs/contract.md §10.1).
  const read = /^\/v[0-9.]+\/([0-9]+)$/.exec(request.path)
  if (read !== null) return { body: { id: read[1], display_phone_number: "+1 555-010-0000", verified_name: "Test" } }
  return { body: { success: true } }
}

/**
 * Makes sure `npm run build` output exists and is newer than every source it is built from, and
 * builds (the whole repo, through turbo) when it is not. Several test files may ask at once:
 * a lock directory makes one of them build while the others wait, then find the output fresh.
 */
import { spawn } from "node:child_process"
import { mkdir, readdir, rm, stat } from "node:fs/promises"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

export const repoRoot = fileURLToPath(new URL("../../../", import.meta.url))

/** The services the container image can run (deploy/docker/entrypoint.sh). */
export const ServiceNames = [
  "gateway",
  "identity",
  "webhook-registry",
  "dispatcher",
  "assistant",
  "messaging",
  "standalone",
] as const
export type ServiceName = (typeof ServiceNames)[number]

export const serviceEntry = (name: ServiceName): string => join(repoRoot, "services", name, "dist", "main.js")

const mtimeOrUndefined = async (path: string): Promise<number | undefined> => {
  try {
    return (await stat(path)).mtimeMs
  } catch {
    return undefined
  }
}

/** The newest modification time of a built workspace's inputs (its src, package.json, tsconfigs). */
const newestInput = async (dir: string): Promise<number> => {
  let newest = 0
  const walk = async (path: string): Promise<void> => {
    for (const entry of await readdir(path, { withFileTypes: true })) {
      const child = join(path, entry.name)
      if (entry.isDirectory()) await walk(child)
      else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts"))
        newest = Math.max(newest, (await stat(child)).mtimeMs)
    }
  }
  await walk(join(dir, "src")).catch(() => undefined)
  for (const file of ["package.json", "tsconfig.json", "tsconfig.build.json"]) {
    newest = Math.max(newest, (await mtimeOrUndefined(join(dir, file))) ?? 0)
  }
  return newest
}

const workspaces = async (): Promise<Array<string>> => {
  const found: Array<string> = []
  for (const parent of ["packages", "services"]) {
    for (const entry of await readdir(join(repoRoot, parent), { withFileTypes: true })) {
      if (entry.isDirectory()) found.push(join(repoRoot, parent, entry.name))
    }
  }
  return found
}

/** Why the build output cannot be used as it is, or `undefined` when it is fresh. */
export const staleReason = async (): Promise<string | undefined> => {
  let oldestOutput = Number.POSITIVE_INFINITY
  for (const name of ServiceNames) {
    const built = await mtimeOrUndefined(serviceEntry(name))
    if (built === undefined) return `services/${name}/dist/main.js is missing`
    oldestOutput = Math.min(oldestOutput, built)
  }
  for (const dir of await workspaces()) {
    if ((await newestInput(dir)) > oldestOutput) return `${dir.slice(repoRoot.length)} changed since the last build`
  }
  return undefined
}

const run = (command: string, args: ReadonlyArray<string>): Promise<{ code: number | null; output: string }> =>
  new Promise((resolve) => {
    const child = spawn(command, args, { cwd: repoRoot, env: process.env, stdio: ["ignore", "pipe", "pipe"] })
    let output = ""
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8")
    })
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8")
    })
    child.once("exit", (code) => resolve({ code, output }))
  })

const lockDir = join(repoRoot, "node_modules", ".cache", "parley-e2e-build.lock")

const withLock = async <A>(f: () => Promise<A>, timeoutMs: number): Promise<A> => {
  await mkdir(join(lockDir, ".."), { recursive: true })
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      await mkdir(lockDir)
      break
    } catch {
      // A lock older than the deadline belongs to a run that died; take it over.
      const since = await mtimeOrUndefined(lockDir)
      if (since !== undefined && Date.now() - since > timeoutMs) await rm(lockDir, { recursive: true, force: true })
      if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for another build (${lockDir})`)
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
  }
  try {
    return await f()
  } finally {
    await rm(lockDir, { recursive: true, force: true })
  }
}

export interface BuildOutcome {
  /** Why it built, or `undefined` when the output was fresh. */
  readonly built: string | undefined
  readonly ms: number
}

/** Builds with `npm run build` unless the output is fresh; fails with the build's output. */
export const ensureBuilt = (timeoutMs = 240_000): Promise<BuildOutcome> =>
  withLock(async () => {
    const started = Date.now()
    const reason = await staleReason()
    if (reason === undefined) return { built: undefined, ms: Date.now() - started }
    const { code, output } = await run("npm", ["run", "build"])
    if (code !== 0) {
      // The compiler's complaints, then the summary: the part worth reading in a failure.
      const errors = output.split("\n").filter((line) => /error TS\d+|ERROR|Failed:/.test(line))
      throw new Error(`npm run build failed (${code}), built because ${reason}:\n${errors.join("\n").slice(0, 8000)}`)
    }
    return { built: reason, ms: Date.now() - started }
  }, timeoutMs)

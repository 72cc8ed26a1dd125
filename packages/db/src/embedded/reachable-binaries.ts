import { chmod, cp, lstat, mkdtemp, readFile, rename, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import type { PostgresBinaries } from "./binaries.ts"
import { SERVER_USER_NAME, type ServerUser, unreachableAncestor } from "./cluster.ts"

/**
 * The binaries as the server's user can run them. As root the server runs as `postgres`, which
 * must traverse every directory above the binaries — and a checkout under `/root`, or in a
 * `mktemp -d` directory (mode 0700), is closed to it: initdb would fail with a bare EACCES. Then
 * the package's `native` folder (bin, lib, share: ~60 MB) is copied once per machine and version
 * to `<tmpdir>/parley-postgres-<platform>-<arch>-<version>`, a root-owned directory nobody else may
 * write, and run from there. A folder of that name that is not root's own and closed to others is
 * never trusted: a private copy is made instead.
 */
export const reachableBinaries = async (
  binaries: PostgresBinaries,
  user: ServerUser | undefined,
  options: {
    readonly log?: (message: string) => void
    /** Where the copy goes: the system's temporary directory unless a test says otherwise. */
    readonly cacheRoot?: string
  } = {},
): Promise<PostgresBinaries> => {
  if (user === undefined) return binaries
  const blocked = await unreachableAncestor(binaries.postgres, user)
  if (blocked === undefined) return binaries
  const cacheRoot = options.cacheRoot ?? tmpdir()
  const native = dirname(dirname(binaries.postgres)) // <package>/native/bin/postgres
  const version = await packageVersion(dirname(native))
  const shared = join(cacheRoot, `parley-postgres-${process.platform}-${process.arch}-${version}`)
  if (await isTrustedCopy(shared)) return inside(shared)
  options.log?.(
    `user "${SERVER_USER_NAME}" cannot reach ${blocked}, where the PostgreSQL binaries are installed: ` +
      `copying them to ${shared}`,
  )
  const staging = await mkdtemp(join(cacheRoot, "parley-postgres-copy-"))
  const copy = join(staging, "native")
  try {
    await cp(native, copy, { recursive: true, verbatimSymlinks: true })
    await chmod(staging, 0o755)
  } catch (error) {
    await rm(staging, { recursive: true, force: true })
    throw error
  }
  try {
    await rename(copy, shared)
  } catch {
    // Another Parley copied them meanwhile, or a folder of that name is not to be trusted: then
    // this private copy (left for the machine's tmp cleaning) is the one to run.
    if (!(await isTrustedCopy(shared))) return inside(copy)
  }
  await rm(staging, { recursive: true, force: true })
  return inside(shared)
}

const inside = (native: string): PostgresBinaries => ({
  postgres: join(native, "bin", "postgres"),
  initdb: join(native, "bin", "initdb"),
})

const packageVersion = async (packageDir: string): Promise<string> => {
  const { version } = JSON.parse(await readFile(join(packageDir, "package.json"), "utf8")) as { version: string }
  return version
}

/** Root's own directory (not a link), writable by nobody else, holding a server binary. */
const isTrustedCopy = async (dir: string): Promise<boolean> => {
  try {
    const info = await lstat(dir)
    if (!info.isDirectory() || info.uid !== 0 || (info.mode & 0o022) !== 0) return false
    const server = await lstat(join(dir, "bin", "postgres"))
    return server.isFile() && server.uid === 0 && (server.mode & 0o022) === 0
  } catch {
    return false
  }
}

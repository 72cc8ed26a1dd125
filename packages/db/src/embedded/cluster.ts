import { execFile as execFileCallback, spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import { chmod, chown, type FileHandle, mkdir, open, readFile, rename, rm, stat, writeFile } from "node:fs/promises"
import { dirname, join } from "node:path"
import { promisify } from "node:util"
import type { PostgresBinaries } from "./binaries.ts"

const execFile = promisify(execFileCallback)

/** The user the server runs as when Parley runs as root (PostgreSQL refuses to run as root). */
export interface ServerUser {
  readonly uid: number
  readonly gid: number
}

export const SERVER_USER_NAME = "postgres"

const lookupUser = async (name: string): Promise<ServerUser | undefined> => {
  try {
    const [uid, gid] = await Promise.all([execFile("id", ["-u", name]), execFile("id", ["-g", name])])
    return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) }
  } catch {
    return undefined
  }
}

/**
 * Undefined when Parley is not root: the server then runs as Parley's own user. As root it runs as
 * the system user `postgres` (the one a Debian PostgreSQL package creates), created as a system
 * account without a home or login shell when the machine has none — the one change Parley makes to
 * a machine, and only when it is run as root.
 */
export const serverUser = async (): Promise<ServerUser | undefined> => {
  if (process.getuid?.() !== 0) return undefined
  const existing = await lookupUser(SERVER_USER_NAME)
  if (existing !== undefined) return existing
  const account = ["--system", "--no-create-home", "--home-dir", "/nonexistent", "--shell", "/usr/sbin/nologin"]
  try {
    await execFile("useradd", [...account, "--user-group", SERVER_USER_NAME])
  } catch {
    // The group may exist without the user.
    await execFile("useradd", [...account, "--gid", SERVER_USER_NAME, SERVER_USER_NAME]).catch(() => undefined)
  }
  const created = await lookupUser(SERVER_USER_NAME)
  if (created === undefined) {
    throw new Error(
      `PostgreSQL refuses to run as root and there is no user "${SERVER_USER_NAME}" to run it as (useradd failed): ` +
        `create one, run Parley as a normal user, or set DATABASE_URL`,
    )
  }
  return created
}

/**
 * The first directory above `path` that `user` cannot traverse, or undefined when it reaches `path`
 * through all of them.
 */
export const unreachableAncestor = async (path: string, user: ServerUser): Promise<string | undefined> => {
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    const info = await stat(dir)
    const reachable =
      (info.mode & 0o001) !== 0 ||
      (info.uid === user.uid && (info.mode & 0o100) !== 0) ||
      (info.gid === user.gid && (info.mode & 0o010) !== 0)
    if (!reachable) return dir
    if (dirname(dir) === dir) return undefined
  }
}

/**
 * As root on Linux the server's processes are handed Parley's folders as open descriptors (see
 * `handOver`), so nothing above them needs to change. Elsewhere as root (macOS) the server's user
 * must reach the cluster through every directory above it: the data dir itself is made traversable
 * (not listable) for it, and an ancestor that is not is reported with what to do instead of
 * initdb's bare "Permission denied".
 */
export const makeReachable = async (dataDir: string, user: ServerUser | undefined): Promise<void> => {
  if (user === undefined || passesDescriptors) return
  const mode = (await stat(dataDir)).mode & 0o777
  if ((mode & 0o001) === 0) await chmod(dataDir, mode | 0o001)
  const dir = await unreachableAncestor(dataDir, user)
  if (dir !== undefined) {
    throw new Error(
      `the embedded PostgreSQL runs as user "${SERVER_USER_NAME}" (PostgreSQL refuses root), which cannot reach ` +
        `${dir}: put PARLEY_DATA_DIR somewhere it can reach, run Parley as a normal user, or set DATABASE_URL`,
    )
  }
}

/** Linux names a process's open descriptors `/proc/self/fd/<n>`. */
const passesDescriptors = process.platform === "linux"

/** Files and folders as the server's processes name them, and the descriptors that make those names work. */
export interface Handover {
  /** The paths given, in order, as the server names them. */
  readonly paths: ReadonlyArray<string>
  /** Descriptors the child receives as fds 3, 4, … (spawn's stdio after the first three). */
  readonly stdio: ReadonlyArray<number>
  /** Closes this process's copies (the child keeps its own): call once the child is spawned. */
  close(): Promise<void>
}

/**
 * How the server's processes reach Parley's own files and folders. As root, the server runs as
 * user `postgres`, which cannot pass through a private folder above the data dir (a clone under
 * /root, a `mktemp -d` directory, both mode 0700). Root opens each path and hands the descriptor to
 * the child, which names it `/proc/self/fd/<n>`: the kernel follows that link to the open file
 * without looking at the folders above it, and the server's user still needs its own permissions
 * on the file itself (the cluster is its own, mode 0700). PostgreSQL changes into its data
 * directory at start and uses relative paths from there, and its backends are forked, so they
 * inherit the descriptor. No permission of a folder Parley does not own changes.
 *
 * Otherwise (Parley's own user runs the server, or root on a system without /proc) the paths as they are.
 */
export const handOver = async (paths: ReadonlyArray<string>, user: ServerUser | undefined): Promise<Handover> => {
  if (user === undefined || !passesDescriptors) return { paths, stdio: [], close: async () => {} }
  const handles: Array<FileHandle> = []
  try {
    for (const path of paths) handles.push(await open(path, "r"))
  } catch (error) {
    await Promise.all(handles.map((handle) => handle.close()))
    throw error
  }
  return {
    paths: handles.map((_, index) => `/proc/self/fd/${index + 3}`),
    stdio: handles.map((handle) => handle.fd),
    close: async () => {
      await Promise.all(handles.map((handle) => handle.close()))
    },
  }
}

/** The cluster's superuser password, generated at initdb and kept beside it (mode 0600). */
export const passwordFile = (dataDir: string): string => join(dataDir, "postgres-password")

export const readPassword = async (dataDir: string): Promise<string> => {
  try {
    return (await readFile(passwordFile(dataDir), "utf8")).trim()
  } catch (error) {
    throw new Error(
      `${passwordFile(dataDir)} is missing, so the embedded PostgreSQL in ${join(dataDir, "postgres")} cannot be ` +
        `reached: restore it, or move that directory away to start with an empty database`,
      { cause: error },
    )
  }
}

export const isInitialised = async (cluster: string): Promise<boolean> =>
  stat(join(cluster, "PG_VERSION")).then(
    () => true,
    () => false,
  )

/**
 * Creates the cluster: initdb into a staging directory renamed into place when complete, so a
 * crash during a first start leaves no half-made cluster behind (the next start just begins again).
 * UTF-8 with the builtin C.UTF-8 locale, the same on every machine whatever locales it has;
 * SCRAM authentication; data checksums (initdb's default since PostgreSQL 18).
 */
export const initialiseCluster = async (input: {
  readonly binaries: PostgresBinaries
  readonly dataDir: string
  readonly cluster: string
  readonly user: ServerUser | undefined
}): Promise<void> => {
  const { binaries, dataDir, cluster, user } = input
  const staging = `${cluster}.initdb`
  const pwfile = `${staging}.pw`
  await rm(staging, { recursive: true, force: true })
  const password = randomBytes(24).toString("base64url")
  await writeFile(passwordFile(dataDir), `${password}\n`, { mode: 0o600 })
  await writeFile(pwfile, `${password}\n`, { mode: 0o600 })
  await mkdir(staging, { mode: 0o700 })
  if (user !== undefined) {
    await chown(pwfile, user.uid, user.gid)
    await chown(staging, user.uid, user.gid)
  }
  const handover = await handOver([staging, pwfile], user)
  const [pgdata, pwfileAsSeen] = handover.paths
  try {
    await run(
      binaries.initdb,
      [
        `--pgdata=${pgdata}`,
        `--username=postgres`,
        `--pwfile=${pwfileAsSeen}`,
        "--auth=scram-sha-256",
        "--encoding=UTF8",
        "--locale=C",
        "--locale-provider=builtin",
        "--builtin-locale=C.UTF-8",
        "--no-instructions",
      ],
      user,
      handover.stdio,
    )
  } finally {
    await handover.close()
    await rm(pwfile, { force: true })
  }
  await rename(staging, cluster)
}

/**
 * Runs a server binary as `user` with the C locale, with `descriptors` as its fds 3, 4, …; rejects
 * with its output when it fails.
 */
export const run = (
  file: string,
  args: ReadonlyArray<string>,
  user: ServerUser | undefined,
  descriptors: ReadonlyArray<number> = [],
): Promise<void> =>
  new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      stdio: ["ignore", "pipe", "pipe", ...descriptors],
      env: { LC_ALL: "C" },
      ...user,
    })
    let output = ""
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8")
    })
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8")
    })
    child.once("error", reject)
    child.once("close", (code, signal) => {
      if (code === 0) resolve()
      else reject(new Error(`${file} failed (${signal ?? `exit ${code}`}):\n${output.trim()}`))
    })
  })

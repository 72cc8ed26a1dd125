import { execFile as execFileCallback } from "node:child_process"
import { readFile, readlink, rm } from "node:fs/promises"
import { join, resolve } from "node:path"
import { promisify } from "node:util"

const execFile = promisify(execFileCallback)

/** Alive in the sense that matters here: signalable and not a zombie waiting to be reaped. */
export const isRunning = async (pid: number): Promise<boolean> => {
  try {
    process.kill(pid, 0)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false
  }
  if (process.platform !== "linux") return true
  try {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8")
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z"
  } catch {
    return false
  }
}

/** The process's command line, from /proc on Linux, else from `ps`. */
const commandLine = async (pid: number): Promise<ReadonlyArray<string> | undefined> => {
  try {
    if (process.platform === "linux") {
      return (await readFile(`/proc/${pid}/cmdline`, "utf8")).split("\0").filter((arg) => arg !== "")
    }
    const { stdout } = await execFile("ps", ["-o", "command=", "-p", String(pid)])
    return stdout.trim().split(/\s+/)
  } catch {
    return undefined
  }
}

const isServerOf = async (pid: number, cluster: string, postgresBinary: string): Promise<boolean> => {
  const args = await commandLine(pid)
  if (args === undefined || args[0] !== postgresBinary) return false
  const dataDirAt = args.indexOf("-D")
  if (dataDirAt === -1) return false
  const dataDir = await asOpenedBy(pid, args[dataDirAt + 1] ?? "")
  return dataDir !== undefined && resolve(dataDir) === resolve(cluster)
}

/** A path as `pid` names it, resolved: `/proc/self/fd/<n>` (root hands the server its cluster so) is its descriptor's target. */
const asOpenedBy = async (pid: number, path: string): Promise<string | undefined> => {
  const descriptor = /^\/proc\/self\/fd\/(\d+)$/.exec(path)?.[1]
  if (descriptor === undefined) return path
  return readlink(`/proc/${pid}/fd/${descriptor}`).catch(() => undefined)
}

/** The parent of `pid`: from /proc on Linux, else from `ps`. */
const parentOf = async (pid: number): Promise<number | undefined> => {
  try {
    if (process.platform === "linux") {
      const stat = await readFile(`/proc/${pid}/stat`, "utf8")
      return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1])
    }
    const { stdout } = await execFile("ps", ["-o", "ppid=", "-p", String(pid)])
    return Number(stdout.trim())
  } catch {
    return undefined
  }
}

/** Where the process that started the cluster's server writes its PID. */
export const ownerFile = (dataDir: string): string => join(dataDir, "postgres.owner")

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms))

/**
 * Makes the cluster startable after Parley was killed (SIGKILL, a crash, the machine's OOM killer):
 * - its server may still be running, orphaned (the reaper normally stops it within milliseconds,
 *   but the reaper can be killed too): identified by its command line (this binary, this data
 *   directory) and by a parent that is no longer the Parley that started it (a live one's server
 *   is left alone, and this start refused), it is asked for a fast shutdown (its open
 *   transactions roll back; nothing committed is lost) and awaited, then SIGQUIT if it will not stop;
 * - `postmaster.pid` may name a process that is gone, which PostgreSQL handles itself, or a PID
 *   reused since by another program (after a reboot, in a container), which PostgreSQL would take
 *   for a live server and refuse to start: that file is removed.
 */
export const recoverStaleServer = async (
  dataDir: string,
  cluster: string,
  postgresBinary: string,
  log: (message: string) => void,
): Promise<void> => {
  const lockFile = join(cluster, "postmaster.pid")
  let lock: string
  try {
    lock = await readFile(lockFile, "utf8")
  } catch {
    return
  }
  const pid = Number.parseInt(lock.split("\n")[0] ?? "", 10)
  if (!Number.isInteger(pid) || pid <= 0 || !(await isRunning(pid))) return
  if (!(await isServerOf(pid, cluster, postgresBinary))) {
    log(`removing ${lockFile}: its PID ${pid} is another program now`)
    await rm(lockFile, { force: true })
    return
  }
  // Still the child of the process that started it: not left over, in use by a live Parley.
  const owner = Number.parseInt(await readFile(ownerFile(dataDir), "utf8").catch(() => ""), 10)
  if (owner === (await parentOf(pid))) {
    throw new Error(`${dataDir} is in use by another Parley (PID ${owner}), whose PostgreSQL server runs on it`)
  }
  log(`stopping the PostgreSQL server (PID ${pid}) left running on ${cluster} by a Parley that was killed`)
  for (const [signal, waitMs] of [
    ["SIGINT", 30_000],
    ["SIGQUIT", 5_000],
    ["SIGKILL", 5_000],
  ] as const) {
    try {
      process.kill(pid, signal)
    } catch {
      return
    }
    for (const deadline = Date.now() + waitMs; Date.now() < deadline; await sleep(25)) {
      if (!(await isRunning(pid))) return
    }
  }
  throw new Error(`the PostgreSQL server (PID ${pid}) left running on ${cluster} does not stop`)
}

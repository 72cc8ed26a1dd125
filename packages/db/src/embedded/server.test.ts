import { execFile as execFileCallback, spawn } from "node:child_process"
import { chown, mkdtemp, readFile, readlink, rm, stat, writeFile } from "node:fs/promises"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import postgres from "postgres"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { findBinaries } from "./binaries.ts"
import { handOver, serverUser, unreachableAncestor } from "./cluster.ts"
import { reachableBinaries } from "./reachable-binaries.ts"
import { type EmbeddedPostgres, serverArgs, startEmbeddedPostgres } from "./server.ts"
import { isRunning } from "./stale-server.ts"

const execFile = promisify(execFileCallback)
const serverModule = fileURLToPath(new URL("./server.ts", import.meta.url))

const query = async <T>(url: string, f: (sql: postgres.Sql) => Promise<T>): Promise<T> => {
  const sql = postgres(url, { max: 1, onnotice: () => {} })
  try {
    return await f(sql)
  } finally {
    await sql.end({ timeout: 5 })
  }
}

const until = async (condition: () => boolean | Promise<boolean>, timeoutMs = 15_000) => {
  const deadline = Date.now() + timeoutMs
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("condition not met in time")
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })

/**
 * The cluster's directory as the server sees it: as root it is handed the cluster as a descriptor
 * (data_directory reads /proc/self/fd/3), and the backend's working directory names the real one.
 */
const dataDirectory = (url: string): Promise<string> =>
  query(url, async (sql) => {
    const [row] = await sql<Array<{ dir: string; pid: number }>>`
      select current_setting('data_directory') as dir, pg_backend_pid() as pid`
    const { dir, pid } = row as { dir: string; pid: number }
    return dir.startsWith("/proc/self/fd/") ? readlink(`/proc/${pid}/cwd`) : dir
  })

const serverPid = async (cluster: string) =>
  Number((await readFile(join(cluster, "postmaster.pid"), "utf8")).split("\n")[0])

const dirs: Array<string> = []
/**
 * A data dir in a private folder (mkdtemp's 0700, like a clone under /root): as root the server
 * runs as "postgres", which cannot pass through it, and must not need to.
 */
const freshDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), "parley-embedded-test-"))
  dirs.push(dir)
  return join(dir, "data")
}
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })))
})

describe("the embedded PostgreSQL server in a private folder", () => {
  it("keeps its cluster there (a clone under /root, mkdtemp's 0700) and changes no folder's permissions", async () => {
    const dataDir = await freshDir() // <private 0700 folder>/data, as <clone>/.parley
    const ancestors: Array<string> = []
    for (let dir = dirname(dataDir); dirname(dir) !== dir; dir = dirname(dir)) ancestors.push(dir)
    const modes = async () => Promise.all(ancestors.map(async (dir) => [dir, (await stat(dir)).mode & 0o7777]))
    const before = await modes()
    expect(before[0]?.[1]).toBe(0o700)
    const user = await serverUser()
    if (user !== undefined) expect(await unreachableAncestor(dataDir, user)).toBe(dirname(dataDir))

    const first = await startEmbeddedPostgres({ dataDir })
    try {
      expect(first.initialised).toBe(true)
      expect(await dataDirectory(first.url)).toBe(join(dataDir, "postgres"))
      await query(first.url, (sql) => sql`create table kept as select 7 as answer`)
    } finally {
      await first.close()
    }
    const again = await startEmbeddedPostgres({ dataDir })
    try {
      expect(again.initialised).toBe(false)
      expect(await query(again.url, (sql) => sql`select answer from kept`)).toEqual([{ answer: 7 }])
      // The Unix socket, in the data dir too, reaches the same server.
      const socket = new URL(again.socketUrl as string)
      expect(socket.searchParams.get("host")).toBe(join(dataDir, "postgres-socket"))
      const sql = postgres({
        host: socket.searchParams.get("host") as string,
        port: Number(socket.port),
        username: "postgres",
        password: decodeURIComponent(socket.password),
        max: 1,
      })
      try {
        expect(await sql`select answer from kept`).toEqual([{ answer: 7 }])
      } finally {
        await sql.end({ timeout: 5 })
      }
    } finally {
      await again.close()
    }
    expect(await modes()).toEqual(before)
    const [data, cluster] = await Promise.all([stat(dataDir), stat(join(dataDir, "postgres"))])
    expect(data.mode & 0o777).toBe(0o700)
    expect([cluster.uid, cluster.mode & 0o777]).toEqual([user?.uid ?? process.getuid?.(), 0o700])
  }, 60_000)
})

describe("the embedded PostgreSQL server after its Parley was killed", () => {
  let dataDir: string
  let cluster: string
  beforeAll(async () => {
    dataDir = await freshDir()
    cluster = join(dataDir, "postgres")
    const first = await startEmbeddedPostgres({ dataDir })
    expect(first.initialised).toBe(true)
    await query(first.url, (sql) => sql`create table kept as select 42 as answer`)
    await first.close()
  }, 60_000)

  it("stops a server left running on its data (Parley and its reaper killed) and starts its own", async () => {
    // Exactly what a killed Parley whose reaper died too leaves behind: its server, parentless
    // (started through a shell that exits at once, as the server outlives a killed parent).
    const user = await serverUser()
    const binaries = await reachableBinaries(await findBinaries(), user)
    const handover = await handOver([cluster], user)
    const shell = spawn(
      "sh",
      [
        "-c",
        '"$0" "$@" </dev/null >/dev/null 2>&1 &',
        binaries.postgres,
        ...serverArgs(handover.paths[0] as string, await freePort()),
      ],
      { env: { LC_ALL: "C" }, stdio: ["ignore", "ignore", "ignore", ...handover.stdio], ...user },
    )
    await new Promise((resolve) => shell.once("exit", resolve))
    await handover.close()
    await until(async () => (await readFile(join(cluster, "postmaster.pid"), "utf8").catch(() => "")).includes("ready"))
    const orphan = await serverPid(cluster)
    const started = await startEmbeddedPostgres({ dataDir })
    try {
      expect(started.initialised).toBe(false)
      expect(await isRunning(orphan)).toBe(false)
      expect(await query(started.url, (sql) => sql`select answer from kept`)).toEqual([{ answer: 42 }])
    } finally {
      await started.close()
    }
  })

  it("starts when postmaster.pid names a PID another program has taken since", async () => {
    // PostgreSQL would take this live process for a server of its own and refuse to start.
    await writeFile(join(cluster, "postmaster.pid"), `${process.pid}\n${cluster}\n0\n5432\n\n127.0.0.1\n`)
    const user = await serverUser()
    if (user !== undefined) await chown(join(cluster, "postmaster.pid"), user.uid, user.gid)
    const started = await startEmbeddedPostgres({ dataDir })
    try {
      expect(await query(started.url, (sql) => sql`select answer from kept`)).toEqual([{ answer: 42 }])
    } finally {
      await started.close()
    }
  })

  it("refuses a data dir whose server a live Parley runs, and leaves that server alone", async () => {
    const running = await startEmbeddedPostgres({ dataDir })
    try {
      await expect(startEmbeddedPostgres({ dataDir })).rejects.toThrow(/in use by another Parley/)
      expect(await query(running.url, (sql) => sql`select answer from kept`)).toEqual([{ answer: 42 }])
    } finally {
      await running.close()
    }
  })
})

describe("the embedded PostgreSQL server's lifetime", () => {
  it("is stopped by its reaper when the process that started it is killed", { timeout: 60_000 }, async () => {
    const dataDir = await freshDir()
    const child = spawn(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `const { startEmbeddedPostgres } = await import(${JSON.stringify(serverModule)})
         await startEmbeddedPostgres({ dataDir: process.argv[1] })
         console.log("ready")
         setInterval(() => {}, 1000)`,
        dataDir,
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    )
    await new Promise<void>((resolve, reject) => {
      child.stdout?.on("data", (chunk: Buffer) => chunk.toString().includes("ready") && resolve())
      child.once("exit", (code) => reject(new Error(`the child exited with ${code}`)))
    })
    const pid = await serverPid(join(dataDir, "postgres"))
    expect(await isRunning(pid)).toBe(true)
    child.kill("SIGKILL")
    await until(async () => !(await isRunning(pid)))
    // Shut down cleanly: no lock file left for the next start to judge.
    await expect(stat(join(dataDir, "postgres", "postmaster.pid"))).rejects.toThrow()
  })

  it("without a data dir, lives in a temporary directory that close() removes", async () => {
    const server: EmbeddedPostgres = await startEmbeddedPostgres()
    const dir = await dataDirectory(server.url)
    expect(dir).toMatch(/parley-postgres-/)
    await server.close()
    await expect(stat(dir)).rejects.toThrow()
  })
})

describe("the embedded PostgreSQL server for a normal user", () => {
  it("runs as the user who starts it (as root: proved for nobody through runuser)", async (context) => {
    if (process.getuid?.() !== 0) {
      // Not root: every other test in this file already ran as a normal user.
      const server = await startEmbeddedPostgres()
      await server.close()
      return
    }
    const runuser = await execFile("sh", ["-c", "command -v runuser"]).catch(() => undefined)
    if (runuser === undefined) {
      console.warn("\n*** embedded server as a normal user: SKIPPED — running as root without runuser ***\n")
      return context.skip()
    }
    const closed =
      (await unreachableAncestor(process.execPath, { uid: 65534, gid: 65534 })) ??
      (await unreachableAncestor(serverModule, { uid: 65534, gid: 65534 }))
    if (closed !== undefined) {
      console.warn(
        `\n*** embedded server as a normal user: SKIPPED — nobody cannot reach ${closed}, so cannot run this ` +
          "checkout's Node or code (a checkout in a 0700 directory) ***\n",
      )
      return context.skip()
    }
    const dataDir = await freshDir()
    await chown(join(dataDir, ".."), 65534, 65534)
    const { stdout } = await execFile(
      "runuser",
      [
        "-u",
        "nobody",
        "--",
        process.execPath,
        "--input-type=module",
        "-e",
        `const { startEmbeddedPostgres } = await import(${JSON.stringify(serverModule)})
         const { default: postgres } = await import("postgres")
         const server = await startEmbeddedPostgres({ dataDir: process.argv[1] })
         const sql = postgres(server.url, { max: 1 })
         const [row] = await sql\`select current_user as "user", (select pg_get_userbyid(datdba) from pg_database where datname = 'postgres') as owner\`
         await sql.end()
         await server.close()
         console.log(JSON.stringify({ ...row, uid: process.getuid() }))`,
        dataDir,
      ],
      { cwd: fileURLToPath(new URL(".", import.meta.url)) },
    )
    expect(JSON.parse(stdout.trim().split("\n").at(-1) as string)).toEqual({
      user: "postgres",
      owner: "postgres",
      uid: 65534,
    })
    const cluster = await stat(join(dataDir, "postgres"))
    expect([cluster.uid, cluster.mode & 0o777]).toEqual([65534, 0o700])
  }, 60_000)
})

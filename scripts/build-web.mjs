// Builds the front ends `npm start` serves (the console, the widget) when their output is missing or
// older than their sources, so that `npm ci && npm start` on a fresh clone serves them and a restart
// after no change costs a few stat calls. A front end says it is one with `"parley": { "web": true }`
// in its package.json and builds with its own `npm run build` (into `dist/`).
//
// `node scripts/build-web.mjs`          build what is stale
// `node scripts/build-web.mjs --check`  exit 1 naming what is stale, build nothing
import { spawnSync } from "node:child_process"
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("..", import.meta.url))
const checkOnly = process.argv.includes("--check")

/** Directories and files of a workspace whose change means a rebuild. */
const INPUTS = ["src", "public", "index.html", "package.json", "vite.config.ts", "tsconfig.json"]
const IGNORED = new Set(["node_modules", "dist", ".turbo"])

const newest = (path) => {
  let stat
  try {
    stat = statSync(path)
  } catch {
    return 0
  }
  if (!stat.isDirectory()) return stat.mtimeMs
  let latest = 0
  for (const entry of readdirSync(path)) {
    if (IGNORED.has(entry) || entry.endsWith(".test.ts")) continue
    latest = Math.max(latest, newest(join(path, entry)))
  }
  return latest
}

/** The build output's oldest file: a partial build counts as stale. */
const oldestOutput = (dir) => {
  let oldest = Number.POSITIVE_INFINITY
  let found = false
  const walk = (path) => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const child = join(path, entry.name)
      if (entry.isDirectory()) walk(child)
      else {
        found = true
        oldest = Math.min(oldest, statSync(child).mtimeMs)
      }
    }
  }
  try {
    walk(dir)
  } catch {
    return 0
  }
  return found ? oldest : 0
}

const webWorkspaces = () => {
  const found = []
  for (const parent of ["packages", "services"]) {
    for (const entry of readdirSync(join(root, parent), { withFileTypes: true })) {
      if (!entry.isDirectory()) continue
      const dir = join(root, parent, entry.name)
      let manifest
      try {
        manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"))
      } catch {
        continue
      }
      if (manifest.parley?.web === true) found.push({ name: manifest.name, dir })
    }
  }
  return found
}

const staleBuilds = () =>
  webWorkspaces().filter(({ dir }) => {
    const inputs = Math.max(...INPUTS.map((input) => newest(join(dir, input))))
    return oldestOutput(join(dir, "dist")) < inputs
  })

if (checkOnly) {
  const stale = staleBuilds()
  if (stale.length > 0) {
    console.error(`stale front-end builds: ${stale.map((w) => w.name).join(", ")}`)
    process.exit(1)
  }
  process.exit(0)
}

// Two `npm start`s (or a start and a test run) from one checkout would build into the same dist/ at
// once, and one of them failed half-way ("Size Limit can't find files at dist/widget.js"). The first
// takes this lock (a directory: mkdir is atomic) and builds; the others wait for it, then find the
// builds fresh. A lock whose process is gone (killed mid-build) is taken over.
const lock = join(root, "node_modules", ".cache", "parley-build-web.lock")
const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)
const holderAlive = () => {
  let pid
  try {
    pid = Number(readFileSync(join(lock, "pid"), "utf8"))
  } catch {
    // Just made, its pid not written yet: alive, unless it stays so for long (see below).
    return Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? 0) < 5_000
  }
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return error.code === "EPERM"
  }
}
const acquire = () => {
  mkdirSync(join(root, "node_modules", ".cache"), { recursive: true })
  for (let waited = 0; ; waited++) {
    try {
      mkdirSync(lock)
      writeFileSync(join(lock, "pid"), String(process.pid))
      return
    } catch (error) {
      if (error.code !== "EEXIST") throw error
    }
    if (!holderAlive()) {
      rmSync(lock, { recursive: true, force: true })
      continue
    }
    if (waited === 0) console.log("waiting for another process building the front ends")
    sleep(250)
  }
}

if (staleBuilds().length > 0) {
  acquire()
  try {
    // Built meanwhile by the process this one waited for: nothing left to do.
    for (const { name } of staleBuilds()) {
      console.log(`building ${name} (its dist/ is missing or older than its sources)`)
      const result = spawnSync("npm", ["run", "build", "--silent", "--workspace", name], {
        cwd: root,
        stdio: "inherit",
      })
      if (result.status !== 0) {
        console.error(`building ${name} failed`)
        process.exitCode = result.status ?? 1
        break
      }
    }
  } finally {
    rmSync(lock, { recursive: true, force: true })
  }
}

// Builds the front ends `npm start` serves (the console, the widget) when their output is missing or
// older than their sources, so that `npm ci && npm start` on a fresh clone serves them and a restart
// after no change costs a few stat calls. A front end says it is one with `"parley": { "web": true }`
// in its package.json and builds with its own `npm run build` (into `dist/`).
//
// `node scripts/build-web.mjs`          build what is stale
// `node scripts/build-web.mjs --check`  exit 1 naming what is stale, build nothing
import { spawnSync } from "node:child_process"
import { readdirSync, readFileSync, statSync } from "node:fs"
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

const stale = webWorkspaces().filter(({ dir }) => {
  const inputs = Math.max(...INPUTS.map((input) => newest(join(dir, input))))
  return oldestOutput(join(dir, "dist")) < inputs
})

if (checkOnly) {
  if (stale.length > 0) {
    console.error(`stale front-end builds: ${stale.map((w) => w.name).join(", ")}`)
    process.exit(1)
  }
  process.exit(0)
}

for (const { name } of stale) {
  console.log(`building ${name} (its dist/ is missing or older than its sources)`)
  const result = spawnSync("npm", ["run", "build", "--silent", "--workspace", name], { cwd: root, stdio: "inherit" })
  if (result.status !== 0) {
    console.error(`building ${name} failed`)
    process.exit(result.status ?? 1)
  }
}

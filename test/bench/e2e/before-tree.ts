/**
 * Parley as it was at a git revision, to run beside this tree in the same benchmark run
 * (BENCH_PARLEY_BEFORE): the revision's files extracted to a temporary directory, with a
 * node_modules whose third-party entries link to this tree's and whose `@parley/*` links (relative,
 * as npm makes them) resolve inside the extracted tree — so every Parley package, not only the
 * service started, is the revision's.
 */
import { execFileSync } from "node:child_process"
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url))

export const extractRevision = (revision: string): { root: string; commit: string; remove(): void } => {
  const root = mkdtempSync(join(tmpdir(), "parley-bench-before-"))
  const archive = execFileSync("git", ["-C", repoRoot, "archive", revision, "packages", "services", "package.json"], {
    maxBuffer: 256 * 1024 * 1024,
  })
  execFileSync("tar", ["-x", "-C", root], { input: archive })
  const modules = join(root, "node_modules")
  mkdirSync(modules)
  for (const entry of readdirSync(join(repoRoot, "node_modules"))) {
    if (entry === "@parley")
      cpSync(join(repoRoot, "node_modules", entry), join(modules, entry), { verbatimSymlinks: true, recursive: true })
    else symlinkSync(join(repoRoot, "node_modules", entry), join(modules, entry))
  }
  for (const parent of ["packages", "services"])
    for (const name of readdirSync(join(repoRoot, parent))) {
      const nested = join(repoRoot, parent, name, "node_modules")
      if (existsSync(nested) && existsSync(join(root, parent, name)))
        symlinkSync(nested, join(root, parent, name, "node_modules"))
    }
  const commit = execFileSync("git", ["-C", repoRoot, "rev-parse", "--short", revision]).toString().trim()
  return { root, commit, remove: () => rmSync(root, { recursive: true, force: true }) }
}

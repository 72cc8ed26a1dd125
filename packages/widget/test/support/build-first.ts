/** Vitest global setup: the widget's `dist/` is built (when stale) before any browser test serves it. */
import { spawnSync } from "node:child_process"
import { fileURLToPath } from "node:url"

const repoRoot = fileURLToPath(new URL("../../../../", import.meta.url))

export default function buildFirst(): void {
  const result = spawnSync(process.execPath, ["scripts/build-web.mjs"], { cwd: repoRoot, stdio: "inherit" })
  if (result.status !== 0) throw new Error(`scripts/build-web.mjs failed (exit ${result.status})`)
}

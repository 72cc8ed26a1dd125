/** Builds the front ends when their `dist/` is stale (`scripts/build-web.mjs`, as `npm start` does). */
import { spawnSync } from "node:child_process"
import { fileURLToPath } from "node:url"

export default function setup(): void {
  const root = fileURLToPath(new URL("../../../../", import.meta.url))
  const result = spawnSync(process.execPath, ["scripts/build-web.mjs"], { cwd: root, stdio: "inherit" })
  if (result.status !== 0) throw new Error(`scripts/build-web.mjs failed (${result.status ?? result.signal})`)
}

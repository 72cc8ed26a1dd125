// postgres.js 3.4.9 can write to a connection after its socket was closed: a write scheduled with
// setImmediate runs once `closed()` has set `socket = null`, and throws `TypeError: Cannot read
// properties of null (reading 'write')` outside any promise — an uncaught exception that kills the
// process when the database connection drops (a failover, a network cut). This guard drops such a
// write instead (the query it belonged to has already failed with CONNECTION_CLOSED).
// Runs after `npm ci` / `npm install`; idempotent; fails loudly if postgres.js changed shape, so an
// upgrade is reviewed rather than silently unpatched.
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("../node_modules/postgres/", import.meta.url))
const original = "  function nextWrite(fn) {\n    const x = socket.write(chunk, fn)"
const patched =
  "  function nextWrite(fn) {\n    if (socket === null) return (chunk = nextWriteTimer = null, false) // parley: see scripts/patch-postgres.mjs\n    const x = socket.write(chunk, fn)"

if (!existsSync(root)) process.exit(0) // not installed (e.g. a production prune without postgres)
for (const file of ["src/connection.js", "cjs/src/connection.js", "cf/src/connection.js"]) {
  const path = `${root}${file}`
  if (!existsSync(path)) continue
  const text = readFileSync(path, "utf8")
  if (text.includes(patched)) continue
  if (!text.includes(original)) {
    console.error(`patch-postgres: ${file} no longer has the code this patch guards; review scripts/patch-postgres.mjs`)
    process.exit(1)
  }
  writeFileSync(path, text.replace(original, patched))
}

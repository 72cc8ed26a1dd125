// Fixes to postgres.js 3.4.9, none released upstream yet. 1–3 are for a connection that drops (a
// failover, a network cut, a proxy restart), each found by Parley's own outage tests; 4 is for a
// transaction whose BEGIN fills the connection's pipeline; 5 is for a connection that drops while
// it fetches the array types, its first query:
//
// 1. A write scheduled with setImmediate can run once `closed()` has set `socket = null`, and throws
//    `TypeError: Cannot read properties of null (reading 'write')` outside any promise: an uncaught
//    exception that kills the process (porsager/postgres#1154, #1208). The guard drops the write (its
//    query has already failed with CONNECTION_CLOSED).
// 2. `closed()` and `terminate()` cancel that scheduled write without forgetting it: `nextWriteTimer`
//    stays set and `chunk` keeps the dead connection's bytes, so the next connection on that slot
//    never schedules its startup message and times out with CONNECT_TIMEOUT, again and again (the
//    "pool poisoning" of LanternOps/breeze#3225). Both now reset them.
// 3. A query sent between the socket's 'error' and 'close' events (a caller retrying at once on
//    ECONNRESET, say) was never settled: `closed()` failed the connection's queries only when the
//    socket closed without an error, and `query` stayed set, so `sql.end()` waited for it too
//    (porsager/postgres#1130, #1142). `closed()` now fails whatever is still in flight, always, and
//    forgets it: nothing more can arrive for it on a closed socket.
// 4. `sql.begin` reserved its connection in the last term of the `&&` chain that also says whether
//    the connection may take more queries: when BEGIN filled the pipeline (or met backpressure) the
//    hook was skipped, the transaction failed with UNSAFE_TRANSACTION while the server had entered
//    it, and the connection went back to the pool inside it, so unrelated queries ran in that
//    transaction (porsager/postgres#1189, #1210; the fix of #1218). The hook now runs whenever the
//    query was written; what the chain answers is unchanged.
// 5. The array-types query a new connection sends first is started with `return fetchArrayTypes()`
//    from a synchronous handler, so when the connection drops while it runs (ECONNRESET on its
//    write, say) its rejection is unhandled — which ends a Node process. The connection's own close
//    path already fails and retries what was queued on it; the rejection is caught and dropped, and
//    the next connection fetches the types again.
//
// packages/db/src/postgres-outage.test.ts cuts real connections under load and fails without 1–3
// (and, when a cut lands on a connection's first query, with an unhandled rejection without 5);
// packages/db/src/postgres-begin.test.ts queues a BEGIN at the pipeline's end and fails without 4.
// Runs after `npm ci` / `npm install`; idempotent; fails loudly if postgres.js changed shape, so an
// upgrade is reviewed rather than silently unpatched.
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"

const MARK = "// parley: see scripts/patch-postgres.mjs"

const fixes = [
  {
    original: "        return fetchArrayTypes()\n",
    patched: `        return fetchArrayTypes().catch(() => {}) ${MARK}\n`,
  },
  {
    original: "  function nextWrite(fn) {\n    const x = socket.write(chunk, fn)",
    patched: `  function nextWrite(fn) {\n    if (socket === null) return (chunk = nextWriteTimer = null, false) ${MARK}\n    const x = socket.write(chunk, fn)`,
  },
  {
    original: "    clearImmediate(nextWriteTimer)\n    if (socket) {",
    patched: `    clearImmediate(nextWriteTimer)\n    chunk = nextWriteTimer = null ${MARK}\n    if (socket) {`,
  },
  {
    original: "    clearImmediate(nextWriteTimer)\n    socket.removeListener('data', data)",
    patched: `    clearImmediate(nextWriteTimer)\n    chunk = nextWriteTimer = null ${MARK}\n    socket.removeListener('data', data)`,
  },
  {
    original:
      "    !hadError && (query || sent.length) && error(Errors.connection('CONNECTION_CLOSED', options, socket))\n",
    patched: `    ;(query || sent.length) && error(Errors.connection('CONNECTION_CLOSED', options, socket)) ${MARK}\n    query = null\n`,
  },
  {
    original:
      "      return write(toBuffer(q))\n        && !q.describeFirst\n        && !q.cursorFn\n        && sent.length < max_pipeline\n        && (!q.options.onexecute || q.options.onexecute(connection))\n",
    patched: `      const written = write(toBuffer(q)) ${MARK}\n      q.options.onexecute && q.options.onexecute(connection)\n      return written\n        && !q.describeFirst\n        && !q.cursorFn\n        && sent.length < max_pipeline\n        && !q.options.onexecute\n`,
  },
]

const root = fileURLToPath(new URL("../node_modules/postgres/", import.meta.url))
if (!existsSync(root)) process.exit(0) // not installed (e.g. a production prune without postgres)
for (const file of ["src/connection.js", "cjs/src/connection.js", "cf/src/connection.js"]) {
  const path = `${root}${file}`
  if (!existsSync(path)) continue
  let text = readFileSync(path, "utf8")
  for (const { original, patched } of fixes) {
    if (text.includes(patched)) continue
    if (!text.includes(original)) {
      console.error(
        `patch-postgres: ${file} no longer has the code this patch fixes; review scripts/patch-postgres.mjs`,
      )
      process.exit(1)
    }
    text = text.replace(original, patched)
  }
  writeFileSync(path, text)
}

/**
 * The inbox's live updates under `npm start` (README.md): what 1,000 open inbox connections
 * (`GET /api/conversations/events`, server-sent events through the gateway) cost in memory and idle
 * CPU, against the same Parley idle with none, and how long one conversation change takes to reach
 * every one of them.
 *
 *   npm run bench -w @parley/bench -- inbox
 */
import { chmod, mkdtemp, rm } from "node:fs/promises"
import { type ClientRequest, request } from "node:http"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { startParley } from "../e2e/parley.ts"
import { memory, type ParleyProcesses, usage } from "../e2e/process-tree.ts"
import { freePort } from "../gateway/processes.ts"
import { nodeOptionsOf } from "../node-options.ts"

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 1_000)
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 30)
const SETTLE_MS = 3_000
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const root = await mkdtemp(join(tmpdir(), "parley-bench-inbox-"))
// As root, the embedded PostgreSQL runs as "postgres", which must pass through this directory.
await chmod(root, 0o711)
const port = await freePort()
const parley = await startParley({
  dataDir: join(root, "data"),
  port,
  metricsPort: await freePort(),
  // One organization opening 1,000 streams at once would otherwise meet its own rate limit (300/min).
  env: { PARLEY_RATE_GENERAL_PER_MIN: "1000000" },
  execArgv: nodeOptionsOf("standalone", process.env.BENCH_PARLEY_EXEC_ARGV),
})
const key = parley.apiKey as string
const processes: ParleyProcesses = await parley.processes()

const api = async (method: string, path: string, body: unknown, apiKey = key) => {
  const response = await fetch(`${parley.url}${path}`, {
    method,
    headers: { "x-api-key": apiKey, "content-type": "application/json" },
    body: JSON.stringify(body),
  })
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`)
  return (await response.json()) as Record<string, unknown>
}

/** CPU seconds (Node, PostgreSQL) and memory over `seconds` of doing nothing. */
const idleFor = async (seconds: number) => {
  global.gc?.()
  await sleep(SETTLE_MS)
  const from = usage(processes)
  const startedAt = performance.now()
  await sleep(seconds * 1000)
  const to = usage(processes)
  const wall = (performance.now() - startedAt) / 1000
  return {
    nodeCpuPercent: ((to.nodeCpu - from.nodeCpu) / wall) * 100,
    postgresCpuPercent: ((to.postgresCpu - from.postgresCpu) / wall) * 100,
    ...memory(processes),
  }
}

interface Stream {
  readonly request: ClientRequest
  /** When each `event: conversation` arrived (performance.now()). */
  readonly events: Array<number>
}

/** Opens one inbox stream; resolves once its first bytes (the `retry:` line) arrived. */
const openStream = (): Promise<Stream> =>
  new Promise((resolve, reject) => {
    const events: Array<number> = []
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path: "/api/conversations/events",
        headers: { "x-api-key": key, accept: "text/event-stream" },
        agent: false,
      },
      (res) => {
        if (res.statusCode !== 200) return reject(new Error(`events: ${res.statusCode}`))
        res.setEncoding("utf8")
        let opened = false
        res.on("data", (chunk: string) => {
          if (!opened) {
            opened = true
            resolve({ request: req, events })
          }
          if (chunk.includes("event: conversation")) events.push(performance.now())
        })
      },
    )
    req.on("error", reject)
    req.end()
  })

console.log(`Parley started in ${(parley.startMs / 1000).toFixed(2)} s; load ${loadavg()[0]?.toFixed(2)}`)
const before = await idleFor(IDLE_SECONDS)
console.log("idle, no inbox open:", before)

const streams: Array<Stream> = []
const openedAt = performance.now()
for (let i = 0; i < CONNECTIONS; i += 50) {
  streams.push(...(await Promise.all(Array.from({ length: Math.min(50, CONNECTIONS - i) }, openStream))))
}
const openMs = performance.now() - openedAt
console.log(`${streams.length} inbox streams open in ${openMs.toFixed(0)} ms`)
const after = await idleFor(IDLE_SECONDS)
console.log(`idle, ${streams.length} inboxes open:`, after)

// One visitor message: the time until every open inbox heard of it.
const widget = (await api("POST", "/api/org/api-keys", { name: "bench widget", scopes: ["chat:write"] })).key as string
const sentAt = performance.now()
await api("POST", "/api/public/chat", { message: "Hello, is anyone there?" }, widget)
const deadline = Date.now() + 30_000
while (streams.some((s) => s.events.length === 0) && Date.now() < deadline) await sleep(10)
const heard = streams.filter((s) => s.events.length > 0).map((s) => (s.events[0] as number) - sentAt)
heard.sort((a, b) => a - b)

for (const stream of streams) stream.request.destroy()
await sleep(1_000)
const closed = memory(processes)
await parley.stop()
await rm(root, { recursive: true, force: true })

const mb = (n: number) => `${n.toFixed(1)} MB`
const pct = (n: number) => `${n.toFixed(2)} %`
console.log(`
| | no inbox open | ${streams.length} inboxes open | difference |
|---|---:|---:|---:|
| Node RSS | ${mb(before.nodeRssMb)} | ${mb(after.nodeRssMb)} | ${mb(after.nodeRssMb - before.nodeRssMb)} |
| PostgreSQL PSS | ${mb(before.postgresPssMb)} | ${mb(after.postgresPssMb)} | ${mb(after.postgresPssMb - before.postgresPssMb)} |
| idle CPU, Node (${IDLE_SECONDS} s) | ${pct(before.nodeCpuPercent)} | ${pct(after.nodeCpuPercent)} | ${pct(after.nodeCpuPercent - before.nodeCpuPercent)} |
| idle CPU, PostgreSQL | ${pct(before.postgresCpuPercent)} | ${pct(after.postgresCpuPercent)} | ${pct(after.postgresCpuPercent - before.postgresCpuPercent)} |

opening ${streams.length} streams (50 at a time): ${openMs.toFixed(0)} ms
one visitor message heard by ${heard.length}/${streams.length} inboxes: first ${heard[0]?.toFixed(0)} ms, median ${heard[Math.floor(heard.length / 2)]?.toFixed(0)} ms, last ${heard.at(-1)?.toFixed(0)} ms (from sending it; its turn included)
Node RSS after closing them all: ${mb(closed.nodeRssMb)}
load average (1 min) at the end: ${loadavg()[0]?.toFixed(2)}
`)
process.exit(0)

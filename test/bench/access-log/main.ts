/**
 * One access-log line, alone: the CPU of this process (every thread, so the background writes
 * count) per access line, written as `makeHttpServer`'s `onResponse` hook writes it, into a file
 * with standard output's write options — against the way it was written before issue #28 (a child
 * logger per request, the service logger's redaction and censoring formatter, a background write
 * whenever none was in flight), interleaved in rounds. See README.md in this folder.
 */
import { mkdtempSync, openSync, rmSync, statSync } from "node:fs"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { accessLineWriter, censorUrl, lineDestination, makeLogger, STDOUT_WRITE_OPTIONS } from "@parley/platform"
import { type DestinationStream, pino } from "pino"
import { LazyChildLogger } from "../../../packages/platform/src/http/lazy-child-logger.ts"

const LINES = Number(process.env.BENCH_LINES ?? 100_000)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5)
// How many lines a server writes between two turns of its event loop (when background writes
// complete): a few under load.
const LINES_PER_TURN = Number(process.env.BENCH_LINES_PER_TURN ?? 8)
// BENCH_WAYS=after measures one way only (e.g. under --cpu-prof).
const WAYS = process.env.BENCH_WAYS?.split(",")

const dir = mkdtempSync(join(tmpdir(), "parley-access-log-"))

const fields = (i: number) => ({
  method: "GET",
  url: "/api/org/webhook-events",
  route: "/api/org/webhook-events",
  status: 200,
  durationMs: (i % 50) / 10,
})

interface Way {
  readonly name: string
  readonly file: string
  /** Where the loggers write. */
  readonly destination: DestinationStream
  /** The sonic-boom behind it, to wait until every line is on disk. */
  readonly sonicBoom: ReturnType<typeof pino.destination>
  readonly line: (i: number) => void
}

const way = (name: string, options: Parameters<typeof pino.destination>[0] & object): Omit<Way, "line"> => {
  const file = join(dir, `${name}.log`)
  const sonicBoom = pino.destination({ ...options, dest: openSync(file, "a") })
  return { name, file, destination: sonicBoom, sonicBoom }
}

const beforeWay = way("before", { sync: false, maxWrite: 4096 })
const before: Way = {
  ...beforeWay,
  line: (() => {
    const logger = makeLogger({ service: "bench", level: "info", destination: beforeWay.destination })
    return (i: number) => {
      const log = new LazyChildLogger(logger, { requestId: `req_${i}` }, {})
      const line = fields(i)
      log.info({ ...line, url: censorUrl(line.url) }, "request completed")
    }
  })(),
}
const accessLines = (destination: DestinationStream) => {
  const write = accessLineWriter(makeLogger({ service: "bench", level: "info", destination }))
  if (write === undefined) throw new Error("makeLogger gave no access-line writer")
  return (i: number) => write(`req_${i}`, fields(i))
}
// The access-line writer on sonic-boom's string mode, as standard output was written before the
// lines were handed over as bytes (`lineDestination`).
const { contentMode: _bytes, ...stringOptions } = STDOUT_WRITE_OPTIONS
const stringsWay = way("strings", stringOptions)
const strings: Way = { ...stringsWay, line: accessLines(stringsWay.destination) }
const afterFile = join(dir, "after.log")
const afterDestination = lineDestination(openSync(afterFile, "a"))
const after: Way = {
  name: "after",
  file: afterFile,
  destination: afterDestination,
  sonicBoom: afterDestination.sonicBoom,
  line: accessLines(afterDestination),
}

// Until every buffered line is written (sonic-boom's `flush` callback does not wait for a background
// write without `minLength`): its own state, read for this measurement only.
const flushed = async (destination: Way["sonicBoom"]) => {
  destination.flush()
  const state = destination as unknown as { _writing: boolean; _len: number }
  while (state._writing || state._len > 0) await new Promise((resolve) => setImmediate(resolve))
}

const turn = () => new Promise((resolve) => setImmediate(resolve))

const round = async (w: Way): Promise<number> => {
  const start = process.cpuUsage()
  for (let i = 0; i < LINES; i++) {
    w.line(i)
    if (i % LINES_PER_TURN === LINES_PER_TURN - 1) await turn()
  }
  await flushed(w.sonicBoom)
  const used = process.cpuUsage(start)
  return (used.user + used.system) / LINES
}

// The loop alone (a turn of the event loop every LINES_PER_TURN lines), subtracted from both.
const emptyRound = async (): Promise<number> => {
  const start = process.cpuUsage()
  for (let i = 0; i < LINES; i++) if (i % LINES_PER_TURN === LINES_PER_TURN - 1) await turn()
  const used = process.cpuUsage(start)
  return (used.user + used.system) / LINES
}

const ways = [before, strings, after]
for (const w of ways) {
  for (let i = 0; i < 20_000; i++) w.line(i)
  await flushed(w.sonicBoom)
}
const results: Record<string, Array<number>> = { before: [], strings: [], after: [] }
const load = [loadavg()[0] as number]
for (let r = 0; r < ROUNDS; r++) {
  const empty = await emptyRound()
  for (const w of (r % 2 === 0 ? ways : [...ways].reverse()).filter((w) => WAYS === undefined || WAYS.includes(w.name)))
    results[w.name]?.push((await round(w)) - empty)
  load.push(loadavg()[0] as number)
}
const summary = (values: ReadonlyArray<number>) => {
  const sorted = [...values].sort((a, b) => a - b)
  return `${sorted[0]?.toFixed(2)} / ${sorted[Math.floor(sorted.length / 2)]?.toFixed(2)} / ${sorted.at(-1)?.toFixed(2)}`
}
console.log(
  `access line, µs of CPU (min / median / max of ${ROUNDS} rounds of ${LINES} lines, a turn of the event loop every ${LINES_PER_TURN}; load ${Math.min(...load).toFixed(1)}–${Math.max(...load).toFixed(1)}):`,
)
for (const w of ways) {
  if ((results[w.name] ?? []).length === 0) continue
  const bytes = statSync(w.file).size
  console.log(
    `  ${w.name.padEnd(6)} ${summary(results[w.name] ?? [])}  (${(bytes / (LINES * ROUNDS + 20_000)).toFixed(0)} bytes a line)`,
  )
}
rmSync(dir, { recursive: true, force: true })

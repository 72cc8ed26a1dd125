/**
 * The throughput of two dispatchers side by side in one run (README.md, "Comparing revisions"):
 *
 *   BENCH_BASELINE=<git revision> npm run bench -w @parley/bench -- dispatcher compare [single-node|kafka|both]
 *
 * Variants, each a fresh database, bus, receiver and dispatcher process delivering the same backlog
 * (BENCH_EVENTS events to four webhooks):
 * - `before`: `services/dispatcher` as it was at BENCH_BASELINE, run against this tree's packages
 *   (BENCH_BASELINE_PACKAGES=1: against the revision's own packages, for a change to the bus or the
 *   database layer);
 * - `after`: this tree's dispatcher, every webhook with one key;
 * - `after, rotated`: this tree's dispatcher, every webhook inside a rotation's window, so each
 *   attempt is signed with both keys (two `webhook-signature` entries).
 * BENCH_ROUNDS rounds (default 3), the order of the variants rotated each round so that a drift in
 * the host's load falls on each in turn. Prints min/median/max deliveries/s and dispatcher CPU per
 * delivery per variant, and each median's ratio to `before`'s. Rates swing with a shared host's
 * load; so, first, the signing of one attempt alone is timed in this process (CPU time, batches of
 * each variant alternating): the signature headers before (X-Service-Signature from the opened
 * secret, as the baseline signed) and after (one key, and two).
 */
import { execFileSync } from "node:child_process"
import { mkdtempSync, rmSync, symlinkSync } from "node:fs"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import type { EventRecord, OrgId } from "@parley/contracts"
import { freshDatabase } from "@parley/db/testing"
import { deliverySignature, newId } from "@parley/platform"
import { verify } from "@parley/webhooks"
import { envelopeBody } from "../../../services/dispatcher/src/delivery/envelope.ts"
import { signatureHeaders, signingKeyOf } from "../../../services/dispatcher/src/signing/signing.ts"
import { extractRevision } from "../e2e/before-tree.ts"
import { type DispatcherProcess, dispatcherMain, startDispatcherProcess } from "./child.ts"
import {
  type BusMode,
  eventRecord,
  leadEvent,
  previousSecret,
  secret,
  seedProjection,
  startBus,
  until,
  webhookIdsOnDistinctPartitions,
  webhookRecord,
} from "./fixtures.ts"
import { startReceiver } from "./receiver.ts"

const EVENTS = Number(process.env.BENCH_EVENTS ?? 7_500)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const WEBHOOKS = 4
const repoRoot = fileURLToPath(new URL("../../../", import.meta.url))

interface Variant {
  readonly name: string
  readonly main: string
  readonly rotated: boolean
  /** How many `webhook-signature` entries its deliveries carry (the baseline may send none). */
  readonly signatures: number | undefined
}

/**
 * `services/dispatcher` at `revision`, extracted beside a link to this tree's node_modules so that
 * it resolves today's packages (`@parley/*` by the source condition): only the dispatcher differs.
 */
const baselineDispatcher = (revision: string): { main: string; remove(): void } => {
  if (process.env.BENCH_BASELINE_PACKAGES === "1") {
    // The whole revision — its packages too (the bus, the database layer), not only the dispatcher.
    const tree = extractRevision(revision)
    console.log(`baseline: services/dispatcher and packages at ${revision} (${tree.commit}), in ${tree.root}`)
    return { main: join(tree.root, "services/dispatcher/src/main.ts"), remove: tree.remove }
  }
  const dir = mkdtempSync(join(tmpdir(), "parley-bench-baseline-"))
  const archive = execFileSync("git", ["-C", repoRoot, "archive", revision, "services/dispatcher"], {
    maxBuffer: 64 * 1024 * 1024,
  })
  execFileSync("tar", ["-x", "-C", dir], { input: archive })
  symlinkSync(join(repoRoot, "node_modules"), join(dir, "node_modules"))
  const commit = execFileSync("git", ["-C", repoRoot, "rev-parse", "--short", revision]).toString().trim()
  console.log(`baseline: services/dispatcher at ${revision} (${commit}), in ${dir}`)
  return {
    main: join(dir, "services/dispatcher/src/main.ts"),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  }
}

/** One throughput run of a variant: deliveries/s between the first and last arrival, CPU µs per delivery. */
const throughputRun = async (mode: BusMode, variant: Variant) => {
  const db = await freshDatabase()
  const receiver = await startReceiver()
  const bus = await startBus(mode, db)
  let dispatcher: DispatcherProcess | undefined
  try {
    const org = newId("org") as OrgId
    const hooks = webhookIdsOnDistinctPartitions(mode, WEBHOOKS).map((id) =>
      webhookRecord(org, receiver.url, id, { rotated: variant.rotated }),
    )
    await bus.publish(hooks)
    await seedProjection(db.sql, hooks)
    const backlog: Array<EventRecord> = Array.from({ length: EVENTS }, () => leadEvent(org))
    await bus.publish(backlog.map(eventRecord))
    const total = EVENTS * hooks.length
    let spawned: DispatcherProcess | undefined
    let cpuAtFirstArrival = Number.NaN
    receiver.onFirstArrival = () => {
      cpuAtFirstArrival = spawned?.cpuMs() ?? Number.NaN
    }
    dispatcher = await startDispatcherProcess(bus.env, {
      main: variant.main,
      onSpawned: (process) => {
        spawned = process
      },
    })
    await until(() => receiver.arrivals.size >= total, 180_000, `${total} deliveries (${variant.name})`)
    const times = [...receiver.arrivals.values()].sort((a, b) => a - b)
    const spanMs = Math.max(1, (times.at(-1) as number) - (times[0] as number))
    const cpuMs = dispatcher.cpuMs() - cpuAtFirstArrival

    // Each variant signs as it says: checked on the deliveries the receiver kept.
    for (const sample of receiver.samples) {
      await verify(sample.body, sample.headers, secret, { signatureToleranceSeconds: 3_600 })
      const signatures = sample.headers["webhook-signature"]
      const count = signatures === undefined ? 0 : String(signatures).split(" ").length
      if (variant.signatures !== undefined && count !== variant.signatures) {
        throw new Error(`${variant.name}: ${count} webhook-signature entries, expected ${variant.signatures}`)
      }
      if (variant.rotated) {
        await verify(sample.body, sample.headers, previousSecret, { signatureToleranceSeconds: 3_600 })
      }
    }
    return { deliveriesPerSecond: Math.round((total / spanMs) * 1000), cpuUsPerDelivery: (cpuMs * 1000) / total }
  } finally {
    await dispatcher?.stop()
    await bus.close()
    await receiver.close()
    await db.close()
  }
}

const sorted = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)
const median = (values: ReadonlyArray<number>) => {
  const s = sorted(values)
  const middle = Math.floor(s.length / 2)
  return s.length % 2 === 1 ? (s[middle] as number) : ((s[middle - 1] as number) + (s[middle] as number)) / 2
}
const spread = (values: ReadonlyArray<number>, digits = 0) => {
  const s = sorted(values)
  const round = (n: number) => n.toFixed(digits)
  return `${round(s[0] as number)} / ${round(median(s))} / ${round(s.at(-1) as number)}`
}

/**
 * CPU µs to sign one attempt, per variant: batches of 20 000 attempts of each variant in turn, seven
 * rounds, timed with `process.cpuUsage` (this process's CPU, not the wall clock).
 */
const signingCost = () => {
  const org = newId("org") as OrgId
  const body = envelopeBody({ ...leadEvent(org), deliveryId: newId("dlv"), webhookId: newId("wh") } as never)
  const opened = new Map([["sealed", secret]])
  const one = { current: signingKeyOf(secret), previous: undefined, previousUntil: 0 }
  const two = {
    current: signingKeyOf(secret),
    previous: signingKeyOf(previousSecret),
    previousUntil: Date.now() + 86_400_000,
  }
  const variants: ReadonlyArray<[string, (id: string) => unknown]> = [
    // The baseline's attempt: the opened secret from its cache, X-Service-Signature only.
    ["before", () => ({ "x-service-signature": deliverySignature(body, opened.get("sealed") as string) })],
    ["after", (id) => signatureHeaders(one, id, body, Date.now())],
    ["after, rotated", (id) => signatureHeaders(two, id, body, Date.now())],
  ]
  const batch = 20_000
  const ids = Array.from({ length: batch }, () => newId("dlv"))
  const samples = new Map(variants.map(([name]) => [name, [] as Array<number>]))
  for (let round = 0; round < 8; round++) {
    for (const [name, sign] of variants) {
      const start = process.cpuUsage()
      for (let i = 0; i < batch; i++) sign(ids[i] as string)
      const used = process.cpuUsage(start)
      // The first round warms the JIT up and is not counted.
      if (round > 0) samples.get(name)?.push((used.user + used.system) / batch)
    }
  }
  return variants.map(([name]) => ({ variant: name, usPerAttempt: samples.get(name) ?? [] }))
}

export const compareDispatchers = async (modes: ReadonlyArray<BusMode>) => {
  const revision = process.env.BENCH_BASELINE
  if (revision === undefined || revision === "") {
    console.error("dispatcher compare needs BENCH_BASELINE=<git revision> (the dispatcher to compare against)")
    process.exit(2)
  }
  const baseline = baselineDispatcher(revision)
  const variants: ReadonlyArray<Variant> = [
    { name: "before", main: baseline.main, rotated: false, signatures: undefined },
    { name: "after", main: dispatcherMain, rotated: false, signatures: 1 },
    { name: "after, rotated", main: dispatcherMain, rotated: true, signatures: 2 },
  ]
  const signing = signingCost()
  const signingBefore = median(signing[0]?.usPerAttempt ?? [])
  console.table(
    signing.map(({ variant, usPerAttempt }) => ({
      variant,
      "signing µs/attempt min / median / max": spread(usPerAttempt, 2),
      "+ µs over before (median)": (median(usPerAttempt) - signingBefore).toFixed(2),
    })),
  )
  const rows = []
  try {
    for (const mode of modes) {
      const results = new Map(variants.map((v) => [v.name, [] as Array<{ rate: number; cpu: number }>]))
      for (let round = 0; round < ROUNDS; round++) {
        for (let i = 0; i < variants.length; i++) {
          const variant = variants[(i + round) % variants.length] as Variant
          const run = await throughputRun(mode, variant)
          results.get(variant.name)?.push({ rate: run.deliveriesPerSecond, cpu: run.cpuUsPerDelivery })
          const load = Math.round((loadavg()[0] as number) * 100) / 100
          console.log(JSON.stringify({ mode, round: round + 1, variant: variant.name, ...run, load }))
        }
      }
      const before = results.get("before") ?? []
      for (const variant of variants) {
        const runs = results.get(variant.name) ?? []
        rows.push({
          mode,
          variant: variant.name,
          runs: runs.length,
          "deliveries/s min / median / max": spread(runs.map((r) => r.rate)),
          "× before (median)": (median(runs.map((r) => r.rate)) / median(before.map((r) => r.rate))).toFixed(3),
          "CPU µs/delivery min / median / max": spread(
            runs.map((r) => r.cpu),
            0,
          ),
          "CPU × before (median)": (median(runs.map((r) => r.cpu)) / median(before.map((r) => r.cpu))).toFixed(3),
          // What the signing alone adds, as a share of what a delivery costs the dispatcher.
          "signing + % of CPU/delivery": (
            (100 * (median(signing.find((s) => s.variant === variant.name)?.usPerAttempt ?? []) - signingBefore)) /
            median(before.map((r) => r.cpu))
          ).toFixed(2),
        })
      }
    }
  } finally {
    baseline.remove()
  }
  console.table(rows)
}

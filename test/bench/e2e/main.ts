/**
 * End to end, black box (README.md): signed cloud inbound messages into `npm start` — a fresh data
 * dir, its embedded PostgreSQL server — until the tenant's webhook receiver has each one's
 * `message.inbound`, against two baselines to the same receiver in the same run: the smallest durable
 * implementation of the same job (durable.ts) and a bare verify-and-relay (relay.ts).
 *
 *   npm run bench -w @parley/bench -- e2e
 */
import { mkdtemp, readFile, rm } from "node:fs/promises"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { cpuSeconds } from "../gateway/cpu.ts"
import { freePort, startProcess, stopAll, waitUntilLive } from "../gateway/processes.ts"
import { nodeOptionsOf } from "../node-options.ts"
import { extractRevision } from "./before-tree.ts"
import {
  BUSINESS_ACCOUNT_ID,
  PHONE_NUMBER_ID,
  percentile,
  type SendRun,
  type SignedPayload,
  sendAsFastAsPossible,
  sendAtRate,
  signedPayloads,
} from "./load.ts"
import { startParley } from "./parley.ts"
import { openStats, tableWritesPerMessage, writesPerMessage } from "./pg-stats.ts"
import { memory, type ParleyProcesses, sampleMemory, usage } from "./process-tree.ts"
import { type Figures, type Loaded, printSummary, type Round } from "./report.ts"

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 5_000)
const SENDERS = Number(process.env.BENCH_SENDERS ?? 32)
const RATE = Number(process.env.BENCH_RATE ?? 500)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 20)
const WARMUP = 500
/** BENCH_TABLE_WRITES=1: also print the rows each table took per message (inserted + updated + deleted). */
const TABLE_WRITES = process.env.BENCH_TABLE_WRITES === "1"
/** Parley's statements per message in the flat-out run, from `pg_stat_statements` (e2e/README.md). */
const STATEMENTS = process.env.BENCH_STATEMENTS === "1"
/** npm start's flags (services/standalone/node-options), then BENCH_PARLEY_EXEC_ARGV. */
const PARLEY_EXEC_ARGV = nodeOptionsOf("standalone", process.env.BENCH_PARLEY_EXEC_ARGV)
const APP_SECRET = `bench-app-${crypto.randomUUID()}`

const here = new URL("./", import.meta.url)
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const receiverPort = await freePort()
const receiver = `http://127.0.0.1:${receiverPort}`
startProcess(new URL("receiver.ts", here), [String(receiverPort)])
const relayPort = await freePort()
const relay = startProcess(new URL("relay.ts", here), [String(relayPort), APP_SECRET, receiver])
await waitUntilLive(`http://127.0.0.1:${relayPort}/health`)

const receiverCall = async <T>(method: string, path: string): Promise<T> => {
  const response = await fetch(`${receiver}${path}`, { method })
  return (response.status === 204 ? undefined : await response.json()) as T
}

/**
 * Sends, then waits (at most 60 s after the last answer) until the receiver has every accepted
 * message; answers the send run and each message's arrival time. With `replies`, then also waits
 * until the provider's API has had no send for 3 s (at most 120 s): the assistant's replies trail
 * the webhooks, and the work per message must include them.
 */
const throughReceiver = async (send: () => Promise<SendRun>, replies = false) => {
  await receiverCall("POST", "/reset")
  const run = await send()
  if (Object.keys(run.failures).length > 0) throw new Error(`refused or failed: ${JSON.stringify(run.failures)}`)
  const deadline = Date.now() + 60_000
  while ((await receiverCall<{ arrived: number }>("GET", "/count")).arrived < run.accepted.size) {
    if (Date.now() > deadline) throw new Error("not every accepted message reached the receiver within 60 s")
    await sleep(20)
  }
  const { arrivals } = await receiverCall<{ arrivals: Record<string, number> }>("GET", "/arrivals")
  let count = await receiverCall<{ replies: number; lastReplyAt: number }>("GET", "/count")
  if (replies) {
    const repliesDeadline = Date.now() + 120_000
    for (let quietSince = Date.now(); Date.now() - quietSince < 3_000 && Date.now() < repliesDeadline; ) {
      await sleep(250)
      const now = await receiverCall<{ replies: number; lastReplyAt: number }>("GET", "/count")
      if (now.replies !== count.replies) quietSince = Date.now()
      count = now
    }
  }
  return { run, arrivals, replies: count.replies, lastReplyAt: count.lastReplyAt }
}

/**
 * Throughput (accepted until last delivered; with `lastReplyAt`, until the last webhook and the last
 * reply were both out), request and accept→delivery latencies.
 */
const figures = (run: SendRun, arrivals: Record<string, number>, cpuSeconds: number, lastReplyAt = 0): Figures => {
  const delays = [...run.accepted].map(([seq, at]) => (arrivals[seq] as number) - at).sort((a, b) => a - b)
  const lastArrival = Math.max(...Object.values(arrivals))
  return {
    messagesPerSecond: run.accepted.size / ((lastArrival - run.startedAt) / 1000),
    repliedPerSecond: run.accepted.size / ((Math.max(lastArrival, lastReplyAt) - run.startedAt) / 1000),
    requestP50Ms: percentile(run.latencies, 50),
    requestP99Ms: percentile(run.latencies, 99),
    deliveryP50Ms: percentile(delays, 50),
    deliveryP99Ms: percentile(delays, 99),
    cpuUsPerMessage: (cpuSeconds / run.accepted.size) * 1e6,
  }
}

let seq = 0
const payloads = (count: number): Array<SignedPayload> => {
  const batch = signedPayloads(APP_SECRET, seq, count)
  seq += count
  return batch
}

const api = async (url: string, key: string, method: string, path: string, body: unknown) => {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { "x-api-key": key, "content-type": "application/json" },
    body: JSON.stringify(body),
  })
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`)
}

/** BENCH_PARLEY_BEFORE=<revision>: Parley as it was there, beside this tree's, in every round. */
const before = process.env.BENCH_PARLEY_BEFORE ? extractRevision(process.env.BENCH_PARLEY_BEFORE) : undefined

const parleyRound = async (tree?: string): Promise<Round["parley"]> => {
  const root = await mkdtemp(join(tmpdir(), "parley-bench-e2e-"))
  const dataDir = join(root, "data")
  const options = {
    dataDir,
    port: await freePort(),
    metricsPort: await freePort(),
    execArgv:
      tree === undefined ? PARLEY_EXEC_ARGV : nodeOptionsOf("standalone", process.env.BENCH_PARLEY_EXEC_ARGV, tree),
    ...(tree === undefined ? {} : { root: tree }),
    env: {
      PARLEY_CLOUD_APP_SECRET: APP_SECRET,
      PARLEY_CLOUD_VERIFY_TOKEN: "bench",
      PARLEY_CLOUD_API_URL: receiver,
      PARLEY_WEBHOOK_ALLOW_PRIVATE: "true",
      ...(STATEMENTS
        ? {
            PARLEY_EMBEDDED_POSTGRES_SETTINGS:
              "shared_preload_libraries=pg_stat_statements pg_stat_statements.track=all",
          }
        : {}),
    },
  }
  try {
    const parley = await startParley(options)
    const processes = await parley.processes()
    const key = parley.apiKey as string
    await api(parley.url, key, "PUT", "/api/channels/cloud", {
      phoneNumberId: PHONE_NUMBER_ID,
      businessAccountId: BUSINESS_ACCOUNT_ID,
      accessToken: "bench-access-token",
    })
    await api(parley.url, key, "POST", "/api/org/webhooks", { url: `${receiver}/hook`, events: ["message.inbound"] })

    // Idle: settled after start, nothing sent.
    await sleep(3_000)
    const idleFrom = usage(processes)
    await sleep(IDLE_SECONDS * 1_000)
    const idleTo = usage(processes)
    const idle = {
      nodeCpuPercent: ((idleTo.nodeCpu - idleFrom.nodeCpu) / IDLE_SECONDS) * 100,
      postgresCpuPercent: ((idleTo.postgresCpu - idleFrom.postgresCpu) / IDLE_SECONDS) * 100,
      ...memory(processes),
    }

    const loadedRun = await measureLoaded(parley.url, processes, dataDir)
    await parley.stop()

    // The same data dir again: the start of an existing installation (this tree's only).
    const again = tree === undefined ? await startParley(options) : undefined
    await again?.stop()
    return {
      freshStartMs: parley.startMs,
      existingStartMs: again?.startMs ?? Number.NaN,
      idle,
      ...loadedRun,
    }
  } finally {
    await rm(root, { recursive: true, force: true })
  }
}

/**
 * Warm-up, then the closed-loop run (CPU of Node and of every PostgreSQL process, and what the
 * server wrote, each read after 1.5 s of quiet on both sides of the run so that the tail of the
 * work — records written after the last delivery, statistics reported late — is counted), then the
 * run at a fixed rate; peak memory over both.
 */
const measureLoaded = async (origin: string, processes: ParleyProcesses, dataDir: string): Promise<Loaded> => {
  const stats = await openStats(dataDir)
  try {
    await throughReceiver(() => sendAsFastAsPossible(origin, payloads(WARMUP), SENDERS), true)
    const peak = sampleMemory(processes)
    await sleep(1_500)
    const writesBefore = await stats.read()
    const tablesBefore = TABLE_WRITES ? await stats.tableWrites() : undefined
    const profiling = STATEMENTS && (await stats.resetStatements())
    const before = usage(processes)
    const closed = await throughReceiver(() => sendAsFastAsPossible(origin, payloads(MESSAGES), SENDERS), true)
    await sleep(1_500)
    const after = usage(processes)
    const writesAfter = await stats.read()
    if (tablesBefore !== undefined)
      console.log(
        `rows written per message: ${tableWritesPerMessage(tablesBefore, await stats.tableWrites(), closed.run.accepted.size)}`,
      )
    if (profiling) console.log(await stats.statementsPerMessage(closed.run.accepted.size))
    const atRate = await throughReceiver(() => sendAtRate(origin, payloads(MESSAGES), RATE))
    const loaded = peak.stop()
    const messages = closed.run.accepted.size
    const nodeCpu = after.nodeCpu - before.nodeCpu
    const postgresCpu = after.postgresCpu - before.postgresCpu
    return {
      loaded,
      closed: {
        ...figures(closed.run, closed.arrivals, nodeCpu + postgresCpu, closed.lastReplyAt),
        nodeCpuUsPerMessage: (nodeCpu / messages) * 1e6,
        postgresCpuUsPerMessage: (postgresCpu / messages) * 1e6,
        ...writesPerMessage(writesBefore, writesAfter, messages),
        repliesPerMessage: closed.replies / messages,
      },
      atRate: figures(atRate.run, atRate.arrivals, 0),
    }
  } finally {
    await stats.close()
  }
}

/** The durable baseline (durable.ts) on a fresh data dir of its own embedded PostgreSQL. */
const durableRound = async (): Promise<Loaded> => {
  const root = await mkdtemp(join(tmpdir(), "parley-bench-durable-"))
  const port = await freePort()
  const child = startProcess(new URL("durable.ts", here), [String(port), root, APP_SECRET, receiver])
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  try {
    const origin = `http://127.0.0.1:${port}`
    await waitUntilLive(`${origin}/health`, 60_000)
    const lock = await readFile(join(root, "postgres", "postmaster.pid"), "utf8")
    return await measureLoaded(origin, { node: child.pid as number, postmaster: Number(lock.split("\n")[0]) }, root)
  } finally {
    child.kill("SIGTERM")
    await exited
    await rm(root, { recursive: true, force: true })
  }
}

const relayRound = async (): Promise<Round["relay"]> => {
  const origin = `http://127.0.0.1:${relayPort}`
  await throughReceiver(() => sendAsFastAsPossible(origin, payloads(WARMUP), SENDERS))
  const before = cpuSeconds(relay.pid) ?? 0
  const closed = await throughReceiver(() => sendAsFastAsPossible(origin, payloads(MESSAGES), SENDERS))
  const cpu = (cpuSeconds(relay.pid) ?? 0) - before
  const atRate = await throughReceiver(() => sendAtRate(origin, payloads(MESSAGES), RATE))
  return { closed: figures(closed.run, closed.arrivals, cpu), atRate: figures(atRate.run, atRate.arrivals, 0) }
}

const rounds: Array<Round> = []
try {
  console.log(
    `e2e: ${ROUNDS} rounds; ${MESSAGES} messages from ${SENDERS} senders, then ${MESSAGES} at ${RATE}/s; ` +
      `idle measured over ${IDLE_SECONDS} s`,
  )
  for (let round = 1; round <= ROUNDS; round++) {
    const loadBefore = loadavg()[0] as number
    // The two trees alternate first and second, so that a drift in the host's load falls on each.
    const beforeFirst = before !== undefined && round % 2 === 0
    const beforeRun = beforeFirst ? await parleyRound(before.root) : undefined
    const parley = await parleyRound()
    const parleyBefore = before !== undefined && !beforeFirst ? await parleyRound(before.root) : beforeRun
    const durable = await durableRound()
    const relayFigures = await relayRound()
    const done: Round = {
      parley,
      parleyBefore,
      durable,
      relay: relayFigures,
      loadAverage: [loadBefore, loadavg()[0] as number],
    }
    rounds.push(done)
    console.log(`round ${round}: ${JSON.stringify(done)}`)
  }
  printSummary(rounds, { messages: MESSAGES, senders: SENDERS, rate: RATE, before: before?.commit })
} finally {
  await stopAll()
  before?.remove()
}

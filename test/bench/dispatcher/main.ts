/**
 * Dispatcher benchmark (README.md): one dispatcher process delivering to a loopback keep-alive
 * receiver, on the single-node bus and on Kafka. Prints deliveries/s, event-to-first-attempt p50/p99
 * at a steady 500 events/s, and the dispatcher's peak RSS.
 *
 *   npm run bench -w @parley/bench -- dispatcher [single-node|kafka|both]
 *   BENCH_BASELINE=<revision> npm run bench -w @parley/bench -- dispatcher compare [single-node|kafka|both]
 */
import type { EventRecord, OrgId, WebhookId } from "@parley/contracts"
import { freshDatabase } from "@parley/db/testing"
import { newId } from "@parley/platform"
import { verify } from "@parley/webhooks"
import { deliveryIdFor } from "../../../services/dispatcher/src/delivery/delivery-id.ts"
import { type DispatcherProcess, nodeArgs, startDispatcherProcess } from "./child.ts"
import { compareDispatchers } from "./compare.ts"
import {
  type BusMode,
  eventRecord,
  leadEvent,
  secret,
  seedProjection,
  startBus,
  until,
  webhookIdsOnDistinctPartitions,
  webhookRecord,
} from "./fixtures.ts"
import { postgresLoad } from "./proc.ts"
import { startReceiver } from "./receiver.ts"

const THROUGHPUT_EVENTS = Number(process.env.BENCH_EVENTS ?? 7_500)
const WEBHOOKS_PER_ORG = 4
const RATE = 500
const RATE_SECONDS = Number(process.env.BENCH_RATE_SECONDS ?? 20)

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN

const runMode = async (mode: BusMode) => {
  const db = await freshDatabase()
  const receiver = await startReceiver()
  const bus = await startBus(mode, db)
  const { env, publish } = bus
  let dispatcher: DispatcherProcess | undefined
  const postgres = postgresLoad(db)
  const awaitProjection = async (webhookIds: ReadonlyArray<string>) => {
    const deadline = Date.now() + 30_000
    for (;;) {
      // The table appears when the dispatcher has migrated.
      const rows = await db.sql<Array<{ n: number }>>`
        select count(*)::int as n from dispatcher.webhooks where webhook_id = any(${webhookIds}::text[])`.catch(
        () => [],
      )
      if (rows[0]?.n === webhookIds.length) return
      if (Date.now() > deadline) throw new Error("timed out waiting for the dispatcher's projection of the webhooks")
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }
  // A wait that times out says where the work stopped: what each group still has to read, and what
  // the dispatcher's connections are doing (a session idle in a transaction holds its locks).
  const diagnose = async (error: unknown): Promise<never> => {
    console.error(`received ${receiver.arrivals.size}`)
    if (mode === "single-node") {
      const lag = await db.sql`
        select p.topic, p.partition, p.next_offset, g.group_id, g.committed, l.member_id, l.expires_at
        from parley_bus.partitions p
        left join parley_bus.group_offsets g using (topic, partition)
        left join parley_bus.leases l using (group_id, topic, partition)
        where p.next_offset > coalesce(g.committed, 0) order by 1, 2, 4`.catch(String)
      console.error("lagging:", lag)
    }
    const sessions = await db.sql`
      select pid, application_name, state, now() - xact_start as in_transaction, wait_event_type, wait_event, left(query, 160) as query
      from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and state <> 'idle'`.catch(
      String,
    )
    console.error("sessions:", sessions)
    throw error
  }
  try {
    // Throughput: a backlog of events for an organization with four webhooks, then one dispatcher.
    // The fan-out drops an event of an organization whose webhooks its projection does not hold yet
    // (docs/contract.md allows a second for a change to take effect), and the projection and the fan-out
    // are separate consumers that start together: so the webhooks are also written to the
    // projection beforehand, as its consumer would (it then finds them there, same version).
    const busyOrg = newId("org") as OrgId
    const hooks = webhookIdsOnDistinctPartitions(mode, WEBHOOKS_PER_ORG).map((id) =>
      webhookRecord(busyOrg, receiver.url, id),
    )
    await publish(hooks)
    await seedProjection(db.sql, hooks)
    const backlog = Array.from({ length: THROUGHPUT_EVENTS }, () => leadEvent(busyOrg))
    await publish(backlog.map(eventRecord))
    const total = THROUGHPUT_EVENTS * WEBHOOKS_PER_ORG
    // CPU is counted from the first delivery (the dispatcher may start delivering before it reports
    // ready, on Kafka while its last consumers still join their groups).
    let cpuAtFirstArrival = Number.NaN
    let spawned: DispatcherProcess | undefined
    receiver.onFirstArrival = () => {
      cpuAtFirstArrival = spawned?.cpuMs() ?? Number.NaN
    }
    const postgresThroughput = await postgres.start()
    dispatcher = await startDispatcherProcess(env, {
      onSpawned: (process) => {
        spawned = process
      },
    })
    const startedAt = Date.now()
    await until(() => receiver.arrivals.size >= total, 120_000, `${total} deliveries`).catch(diagnose)
    const times = [...receiver.arrivals.values()].sort((a, b) => a - b)
    const first = times[0] as number
    const last = times.at(-1) as number
    const throughput = Math.round((total / Math.max(1, last - first)) * 1000)
    const throughputCpuMs = dispatcher.cpuMs() - cpuAtFirstArrival
    const throughputPostgres = await postgresThroughput()

    // Latency: 500 events/s for RATE_SECONDS to an organization with one webhook.
    const steadyOrg = newId("org") as OrgId
    const hook = webhookRecord(steadyOrg, receiver.url)
    await publish([hook])
    const steadyWebhook = hook.key
    // The projection must hold the webhook before the clock starts (else the fan-out drops events).
    await awaitProjection([steadyWebhook])
    const probe = leadEvent(steadyOrg)
    const before = receiver.arrivals.size
    await publish([eventRecord(probe)])
    await until(() => receiver.arrivals.size > before, 30_000, "the steady webhook's first delivery").catch(diagnose)
    const sent: Array<EventRecord> = []
    const tickMs = 20
    const perTick = (RATE * tickMs) / 1000
    const postgresSteady = await postgres.start()
    const began = Date.now()
    const cpuAtSteady = dispatcher.cpuMs()
    for (let tick = 0; tick < (RATE_SECONDS * 1000) / tickMs; tick++) {
      const due = began + tick * tickMs
      const wait = due - Date.now()
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
      const batch = Array.from({ length: perTick }, () => leadEvent(steadyOrg))
      sent.push(...batch)
      await publish(batch.map(eventRecord))
    }
    const steadyRate = Math.round((sent.length / (Date.now() - began)) * 1000)
    const ids = sent.map((event) => deliveryIdFor(event.eventId, steadyWebhook as WebhookId))
    await until(() => ids.every((id) => receiver.arrivals.has(id)), 120_000, "the steady deliveries").catch(diagnose)
    const steadyCpuMs = dispatcher.cpuMs() - cpuAtSteady
    const steadyPostgres = await postgresSteady()
    const latencies = sent
      .map((event, i) => (receiver.arrivals.get(ids[i] as string) as number) - Date.parse(event.timestamp))
      .sort((a, b) => a - b)
    const rss = dispatcher.peakRssMb()

    let verified = 0
    for (const sample of receiver.samples) {
      await verify(sample.body, sample.headers, secret)
      verified++
    }
    const result = {
      mode,
      deliveries: total,
      deliveriesPerSecond: throughput,
      drainSeconds: Math.round((last - startedAt) / 100) / 10,
      // CPU per delivery, the dispatcher's and its Postgres backends': steadier than rates on a
      // shared machine. Postgres includes the bench's own publishing on the single-node bus.
      cpuUsPerDelivery: Math.round((throughputCpuMs * 1000) / total),
      postgresCpuUsPerDelivery: Math.round((throughputPostgres.cpuMs * 1000) / total),
      postgresTransactionsPerDelivery: Math.round((throughputPostgres.transactions / total) * 100) / 100,
      steadyEventsPerSecond: steadyRate,
      latencyP50Ms: percentile(latencies, 50),
      latencyP99Ms: percentile(latencies, 99),
      latencyMaxMs: latencies.at(-1),
      steadyCpuUsPerDelivery: Math.round((steadyCpuMs * 1000) / sent.length),
      steadyPostgresCpuUsPerDelivery: Math.round((steadyPostgres.cpuMs * 1000) / sent.length),
      steadyPostgresTransactionsPerDelivery: Math.round((steadyPostgres.transactions / sent.length) * 100) / 100,
      peakRssMb: rss,
      signaturesVerified: verified,
      nodeArgs: nodeArgs().join(" "),
    }
    console.log(JSON.stringify(result))
    return result
  } finally {
    await dispatcher?.stop()
    await bus.close()
    await receiver.close()
    await db.close()
  }
}

// `dispatcher compare [bus]` compares two revisions' throughput (compare.ts); else `dispatcher [bus]`.
const comparing = process.argv[3] === "compare"
const which = process.argv[comparing ? 4 : 3] ?? "both"
const modes: ReadonlyArray<BusMode> = which === "both" ? ["single-node", "kafka"] : [which as BusMode]
if (comparing) {
  await compareDispatchers(modes)
} else {
  const results = []
  for (const mode of modes) results.push(await runMode(mode))
  console.table(results)
}
process.exit(0)

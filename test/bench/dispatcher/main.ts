/**
 * Dispatcher benchmark (README.md): one dispatcher process delivering to a loopback keep-alive
 * receiver, on the single-node bus and on Kafka. Prints deliveries/s, event-to-first-attempt p50/p99
 * at a steady 500 events/s, and the dispatcher's peak RSS.
 *
 *   npm run bench -w @parley/bench -- dispatcher [single-node|kafka|both]
 */
import { Bus, KafkaBus, type OutgoingRecord, SingleNodeBus } from "@parley/bus"
import { kafkaTestBrokers, partitionOf } from "@parley/bus/testing"
import {
  type EventId,
  EventRecord,
  encodeBusValue,
  isoTimestamp,
  type OrgId,
  TopicCatalog,
  Topics,
  topicOfEvent,
  WebhookChanged,
  type WebhookId,
} from "@parley/contracts"
import { Database, loadMigrations, migrate } from "@parley/db"
import { type FreshDatabase, freshDatabase } from "@parley/db/testing"
import { newId, SecretBox } from "@parley/platform"
import { verify } from "@parley/webhooks"
import { Effect, Exit, Layer, Scope } from "effect"
import { deliveryIdFor } from "../../../services/dispatcher/src/delivery-id.ts"
import { WebhookDirectory } from "../../../services/dispatcher/src/webhook-directory.ts"
import { type DispatcherProcess, nodeArgs, startDispatcherProcess } from "./child.ts"
import { postgresLoad } from "./proc.ts"
import { startReceiver } from "./receiver.ts"

const THROUGHPUT_EVENTS = Number(process.env.BENCH_EVENTS ?? 7_500)
const WEBHOOKS_PER_ORG = 4
const RATE = 500
const RATE_SECONDS = Number(process.env.BENCH_RATE_SECONDS ?? 20)

const secretKey = Buffer.alloc(32, 3).toString("base64")
const box = SecretBox.fromBase64Key(secretKey)
const secret = Buffer.alloc(32, 5).toString("base64")

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN

const until = async (condition: () => boolean, timeoutMs: number, what: string) => {
  const deadline = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

const leadEvent = (orgId: OrgId): EventRecord => ({
  eventId: newId("evt") as EventId,
  orgId,
  event: "lead.created",
  timestamp: isoTimestamp(Date.now()),
  data: { phone: "14155550100", name: "Bench", type: "CALLBACK_REQUESTED", booking: null },
})

const eventRecord = (event: EventRecord): OutgoingRecord => ({
  topic: topicOfEvent(event.event),
  key: event.orgId,
  value: encodeBusValue(EventRecord, event),
})

const webhookRecord = (orgId: OrgId, url: string, webhookId = newId("wh") as WebhookId): OutgoingRecord => {
  return {
    topic: Topics.registryWebhooks,
    key: webhookId,
    value: encodeBusValue(WebhookChanged, {
      webhookId,
      orgId,
      url,
      events: ["lead.created"],
      enabled: true,
      sealedSecret: box.seal(secret),
      deleted: false,
      version: 1,
      changedAt: isoTimestamp(Date.now()),
    }),
  }
}

/**
 * Webhook ids whose deliveries land on distinct partitions of the deliveries topic, as a fleet of
 * webhooks spreads over them. A chance collision would put two webhooks' backlogs in one partition
 * (one consumer, one commit point; and past the 5 MiB a librdkafka mock partition keeps, it drops
 * the oldest records).
 */
const webhookIdsOnDistinctPartitions = (mode: "single-node" | "kafka", count: number): Array<WebhookId> => {
  const partitions = TopicCatalog.find((topic) => topic.name === Topics.dispatchDeliveries)?.partitions ?? 8
  const taken = new Map<number, WebhookId>()
  while (taken.size < Math.min(count, partitions)) {
    const id = newId("wh") as WebhookId
    const partition = partitionOf(mode, id, partitions)
    if (!taken.has(partition)) taken.set(partition, id)
  }
  return [...taken.values()]
}

/** Migrates the dispatcher's schema and applies webhook changes to its projection, as its consumer does. */
const seedProjection = async (sql: FreshDatabase["sql"], changes: ReadonlyArray<OutgoingRecord>) => {
  const migrations = await Effect.runPromise(
    loadMigrations(new URL("../../../services/dispatcher/migrations/", import.meta.url)),
  )
  await Effect.runPromise(migrate({ sql, schema: "dispatcher", migrations }))
  const directory = new WebhookDirectory(sql)
  for (const change of changes) await directory.apply(JSON.parse(change.value) as WebhookChanged)
}

const runMode = async (mode: "single-node" | "kafka") => {
  const db = await freshDatabase()
  const receiver = await startReceiver()
  const scope = Effect.runSync(Scope.make())
  const env: Record<string, string> = {
    DATABASE_URL: db.url,
    PARLEY_SECRET_KEY: secretKey,
    PARLEY_WEBHOOK_ALLOW_PRIVATE: "true",
  }
  let stopBroker = async () => {}
  let busLayer: Layer.Layer<Bus, unknown>
  const database = Database.layer({ url: db.url })
  if (mode === "kafka") {
    const broker = await kafkaTestBrokers()
    await broker.createTopics(TopicCatalog)
    stopBroker = () => broker.stop()
    env.KAFKA_BROKERS = broker.brokers.join(",")
    env.KAFKA_IDEMPOTENT = String(broker.idempotent)
    if (broker.kind === "mock") env.KAFKA_FETCH_MAX_WAIT_MS = "50"
    busLayer = KafkaBus.layer({
      brokers: broker.brokers,
      clientId: "bench-producer",
      idempotent: broker.idempotent,
      maxWaitTimeMs: 50,
    })
    console.log(`kafka test broker: ${broker.kind} at ${broker.brokers.join(",")}`)
  } else {
    busLayer = SingleNodeBus.layer().pipe(Layer.provide(database))
  }
  const context = await Effect.runPromise(Layer.buildWithScope(busLayer, scope))
  const publish = (records: ReadonlyArray<OutgoingRecord>) =>
    Effect.runPromiseWith(context)(
      Effect.gen(function* () {
        const bus = yield* Bus
        for (let i = 0; i < records.length; i += 1_000) yield* bus.publish(records.slice(i, i + 1_000))
      }),
    )

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
    // (CONTRACT.md allows a second for a change to take effect), and the projection and the fan-out
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
    await Effect.runPromise(Scope.close(scope, Exit.void))
    await receiver.close()
    await db.close()
    await stopBroker()
  }
}

const which = process.argv[3] ?? "both"
const modes = which === "both" ? (["single-node", "kafka"] as const) : ([which] as Array<"single-node" | "kafka">)
const results = []
for (const mode of modes) results.push(await runMode(mode))
console.table(results)
process.exit(0)

/**
 * Dispatcher benchmark (README.md): one dispatcher process delivering to a loopback keep-alive
 * receiver, on the single-node bus and on Kafka. Prints deliveries/s, event-to-first-attempt p50/p99
 * at a steady 500 events/s, and the dispatcher's peak RSS.
 *
 *   npm run bench -w @parley/bench -- dispatcher [single-node|kafka|both]
 */
import { Bus, KafkaBus, type OutgoingRecord, SingleNodeBus } from "@parley/bus"
import { kafkaTestBrokers } from "@parley/bus/testing"
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
import { Database } from "@parley/db"
import { freshDatabase } from "@parley/db/testing"
import { newId, SecretBox } from "@parley/platform"
import { verify } from "@parley/webhooks"
import { Effect, Exit, Layer, Scope } from "effect"
import { type DispatcherProcess, startDispatcherProcess } from "./child.ts"
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

const webhookRecord = (orgId: OrgId, url: string): OutgoingRecord => {
  const webhookId = newId("wh") as WebhookId
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
  try {
    // Throughput: a backlog of events for an organization with four webhooks, then one dispatcher.
    const busyOrg = newId("org") as OrgId
    await publish(Array.from({ length: WEBHOOKS_PER_ORG }, () => webhookRecord(busyOrg, receiver.url)))
    const backlog = Array.from({ length: THROUGHPUT_EVENTS }, () => leadEvent(busyOrg))
    await publish(backlog.map(eventRecord))
    const total = THROUGHPUT_EVENTS * WEBHOOKS_PER_ORG
    dispatcher = await startDispatcherProcess(env)
    const startedAt = Date.now()
    await until(() => receiver.arrivals.size >= total, 120_000, `${total} deliveries`).catch(async (error: unknown) => {
      const lag = await db.sql`
        select g.group_id, g.topic, g.partition, g.committed, p.next_offset
        from parley_bus.group_offsets g join parley_bus.partitions p using (topic, partition)
        where g.committed < p.next_offset order by 1, 2, 3`.catch(() => [])
      console.error(`received ${receiver.arrivals.size}; lagging:`, lag)
      throw error
    })
    const times = [...receiver.arrivals.values()].sort((a, b) => a - b)
    const first = times[0] as number
    const last = times.at(-1) as number
    const throughput = Math.round((total / Math.max(1, last - first)) * 1000)

    // Latency: 500 events/s for RATE_SECONDS to an organization with one webhook.
    const steadyOrg = newId("org") as OrgId
    const hook = webhookRecord(steadyOrg, receiver.url)
    await publish([hook])
    const steadyWebhook = (JSON.parse(hook.value) as { webhookId: string }).webhookId
    // The projection must hold the webhook before the clock starts.
    const probe = leadEvent(steadyOrg)
    const before = receiver.arrivals.size
    await publish([eventRecord(probe)])
    await until(() => receiver.arrivals.size > before, 30_000, "the steady webhook's first delivery")
    const sent: Array<EventRecord> = []
    const tickMs = 20
    const perTick = (RATE * tickMs) / 1000
    const began = Date.now()
    for (let tick = 0; tick < (RATE_SECONDS * 1000) / tickMs; tick++) {
      const due = began + tick * tickMs
      const wait = due - Date.now()
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
      const batch = Array.from({ length: perTick }, () => leadEvent(steadyOrg))
      sent.push(...batch)
      await publish(batch.map(eventRecord))
    }
    const { deliveryIdFor } = await import("../../../services/dispatcher/src/delivery-id.ts")
    const ids = sent.map((event) => deliveryIdFor(event.eventId, steadyWebhook as WebhookId))
    await until(() => ids.every((id) => receiver.arrivals.has(id)), 120_000, "the steady deliveries")
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
      steadyEventsPerSecond: Math.round((sent.length / (Date.now() - began)) * 1000),
      latencyP50Ms: percentile(latencies, 50),
      latencyP99Ms: percentile(latencies, 99),
      latencyMaxMs: latencies.at(-1),
      peakRssMb: rss,
      signaturesVerified: verified,
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

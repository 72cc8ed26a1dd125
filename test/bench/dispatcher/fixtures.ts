/**
 * What the dispatcher benchmarks share: the bus a run publishes on, the events and webhooks they
 * publish, and the dispatcher's projection seeded as its consumer would seed it.
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
import type { FreshDatabase } from "@parley/db/testing"
import { newId, SecretBox } from "@parley/platform"
import { Effect, Exit, Layer, Scope } from "effect"
import { Keyring } from "../../../services/dispatcher/src/signing/signing.ts"
import { WebhookDirectory } from "../../../services/dispatcher/src/webhooks/webhook-directory.ts"

export type BusMode = "single-node" | "kafka"

export const secretKey = Buffer.alloc(32, 3).toString("base64")
export const box = SecretBox.fromBase64Key(secretKey)
export const secret = Buffer.alloc(32, 5).toString("base64")
/** The key before a rotation, still signing (a second `v1` signature) in the rotated variant. */
export const previousSecret = Buffer.alloc(32, 6).toString("base64")

export const until = async (condition: () => boolean, timeoutMs: number, what: string) => {
  const deadline = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

export const leadEvent = (orgId: OrgId): EventRecord => ({
  eventId: newId("evt") as EventId,
  orgId,
  event: "lead.created",
  timestamp: isoTimestamp(Date.now()),
  data: { phone: "14155550100", name: "Bench", type: "CALLBACK_REQUESTED", booking: null },
})

export const eventRecord = (event: EventRecord): OutgoingRecord => ({
  topic: topicOfEvent(event.event),
  key: event.orgId,
  value: encodeBusValue(EventRecord, event),
})

/** A webhook's state on the bus; `rotated` gives it a previous key that signs for another day. */
export const webhookRecord = (
  orgId: OrgId,
  url: string,
  webhookId = newId("wh") as WebhookId,
  { rotated = false }: { readonly rotated?: boolean } = {},
): OutgoingRecord => ({
  topic: Topics.registryWebhooks,
  key: webhookId,
  value: encodeBusValue(WebhookChanged, {
    webhookId,
    orgId,
    url,
    events: ["lead.created"],
    enabled: true,
    sealedSecret: box.seal(secret),
    previousSecret: rotated
      ? { sealedSecret: box.seal(previousSecret), expiresAt: isoTimestamp(Date.now() + 86_400_000) }
      : null,
    deleted: false,
    version: 1,
    changedAt: isoTimestamp(Date.now()),
  }),
})

/**
 * Webhook ids whose deliveries land on distinct partitions of the deliveries topic, as a fleet of
 * webhooks spreads over them. A chance collision would put two webhooks' backlogs in one partition
 * (one consumer, one commit point; and past the 5 MiB a librdkafka mock partition keeps, it drops
 * the oldest records).
 */
export const webhookIdsOnDistinctPartitions = (mode: BusMode, count: number): Array<WebhookId> => {
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
export const seedProjection = async (sql: FreshDatabase["sql"], changes: ReadonlyArray<OutgoingRecord>) => {
  const migrations = await Effect.runPromise(
    loadMigrations(new URL("../../../services/dispatcher/migrations/", import.meta.url)),
  )
  await Effect.runPromise(migrate({ sql, schema: "dispatcher", migrations }))
  const directory = Effect.runSync(
    WebhookDirectory.useSync((directory) => directory).pipe(
      Effect.provide(WebhookDirectory.layer("dispatcher")),
      Effect.provide(Keyring.layer((sealed) => box.open(sealed))),
      Effect.provideService(Database, { sql }),
    ),
  )
  for (const change of changes) await directory.apply(JSON.parse(change.value) as WebhookChanged)
}

export interface BenchBus {
  /** What a dispatcher process needs in its environment to join this bus and database. */
  readonly env: Record<string, string>
  publish(records: ReadonlyArray<OutgoingRecord>): Promise<void>
  close(): Promise<void>
}

/** The run's bus: the single-node bus on the run's database, or a Kafka test broker. */
export const startBus = async (mode: BusMode, db: FreshDatabase): Promise<BenchBus> => {
  const scope = Effect.runSync(Scope.make())
  const env: Record<string, string> = {
    DATABASE_URL: db.url,
    PARLEY_SECRET_KEY: secretKey,
    PARLEY_WEBHOOK_ALLOW_PRIVATE: "true",
  }
  let stopBroker = async () => {}
  let busLayer: Layer.Layer<Bus, unknown>
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
    busLayer = SingleNodeBus.layer().pipe(Layer.provide(Database.layer({ url: db.url })))
  }
  const context = await Effect.runPromise(Layer.buildWithScope(busLayer, scope))
  return {
    env,
    publish: (records) =>
      Effect.runPromiseWith(context)(
        Effect.gen(function* () {
          const bus = yield* Bus
          for (let i = 0; i < records.length; i += 1_000) yield* bus.publish(records.slice(i, i + 1_000))
        }),
      ),
    close: async () => {
      await Effect.runPromise(Scope.close(scope, Exit.void))
      await stopBroker()
    },
  }
}

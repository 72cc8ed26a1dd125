/**
 * Test harness for the dispatcher: a fresh database, a bus (single-node on that database, or Kafka
 * from `kafkaTestBrokers()`), webhooks and events written through the OutboxWriter exactly as the
 * registry and the producing services write them, and every AttemptRecord collected from the bus.
 */
import { Bus, KafkaBus, OutboxWriter, outboxTableSql, SingleNodeBus } from "@parley/bus"
import { kafkaTestBrokers } from "@parley/bus/testing"
import {
  AttemptRecord,
  DeliveryRecord,
  decodeBusValue,
  type EventId,
  type EventName,
  EventRecord,
  encodeBusValue,
  isoTimestamp,
  OrgId,
  TopicCatalog,
  Topics,
  topicOfEvent,
  WebhookChanged,
  WebhookId,
} from "@parley/contracts"
import { Database, withTransaction } from "@parley/db"
import { type FreshDatabase, freshDatabase } from "@parley/db/testing"
import { newId, SecretBox } from "@parley/platform"
import { eventually, type StubServer } from "@parley/platform/testing"
import { Effect, Exit, Layer, Scope } from "effect"
import { expect } from "vitest"
import { type DispatcherOptions, makeDispatcher } from "../src/app.ts"
import { deliveryIdFor } from "../src/delivery/delivery-id.ts"

export type BusKind = "single-node" | "kafka"

export const secretKey = Buffer.alloc(32, 7).toString("base64")
export const box = SecretBox.fromBase64Key(secretKey)

type Services = Bus | OutboxWriter | Database

export interface TestWebhook {
  readonly webhookId: WebhookId
  readonly orgId: OrgId
  readonly url: string
  readonly secret: string
  events: ReadonlyArray<EventName>
  enabled: boolean
  version: number
  /** The key before a rotation and until when it signs too (docs/contract.md §5). */
  previousSecret?: { readonly secret: string; readonly expiresAt: string } | undefined
}

export interface Harness {
  readonly db: FreshDatabase
  readonly kind: BusKind
  /** Every attempt record published so far, in arrival order. */
  readonly attempts: Array<AttemptRecord>
  /** Environment a dispatcher process needs to join this harness's bus. */
  readonly childEnv: Record<string, string>
  run<A, E>(effect: Effect.Effect<A, E, Services | Scope.Scope>): Promise<A>
  startDispatcher(options?: Partial<DispatcherOptions>): Promise<{ stop(): Promise<void> }>
  putWebhook(webhook: TestWebhook, deleted?: boolean): Promise<void>
  /** Queues deliveries on `parley.dispatch.deliveries.v1`, as the registry's redeliver, replay and test do. */
  publishDeliveries(deliveries: ReadonlyArray<DeliveryRecord>): Promise<void>
  /**
   * Waits until the dispatchers' projection holds the webhook: the fan-out drops an event of an
   * organization it knows no webhook of, and a dispatcher just started may read an event before its
   * projection consumer has read the webhook (docs/contract.md §6 allows a second for a change to apply).
   */
  projected(webhook: TestWebhook): Promise<void>
  publishEvents(events: ReadonlyArray<EventRecord>): Promise<void>
  close(): Promise<void>
}

export const newOrg = (): OrgId => OrgId.make(newId("org"))

export const makeWebhook = (orgId: OrgId, url: string, overrides: Partial<TestWebhook> = {}): TestWebhook => ({
  webhookId: WebhookId.make(newId("wh")),
  orgId,
  url,
  secret: Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64"),
  events: ["message.inbound", "lead.created"],
  enabled: true,
  version: 1,
  ...overrides,
})

export const leadCreated = (orgId: OrgId, name = "Ada"): EventRecord => ({
  eventId: newId("evt") as EventId,
  orgId,
  event: "lead.created",
  timestamp: isoTimestamp(Date.now()),
  data: { phone: "14155550100", name, type: "CALLBACK_REQUESTED", booking: null },
})

const OUTBOX_SCHEMA = "test_producer"

export const makeHarness = async (kind: BusKind, options: { partitions?: number } = {}): Promise<Harness> => {
  const db = await freshDatabase()
  const scope = Effect.runSync(Scope.make())
  const database = Database.layer({ url: db.url })
  let layer: Layer.Layer<Services, unknown>
  let stopBroker = async () => {}
  let groupPrefix = ""
  const childEnv: Record<string, string> = {}
  if (kind === "kafka") {
    const broker = await kafkaTestBrokers()
    await broker.createTopics(TopicCatalog)
    stopBroker = () => broker.stop()
    childEnv.KAFKA_BROKERS = broker.brokers.join(",")
    childEnv.KAFKA_IDEMPOTENT = String(broker.idempotent)
    groupPrefix = `${newId("g")}.`
    await db.sql.unsafe(`create schema if not exists ${OUTBOX_SCHEMA}`)
    await db.sql.unsafe(outboxTableSql(OUTBOX_SCHEMA))
    const bus = KafkaBus.layer({
      brokers: broker.brokers,
      clientId: "dispatcher-test",
      idempotent: broker.idempotent,
      sessionTimeoutMs: 6_000,
      maxWaitTimeMs: 50,
      commitIntervalMs: 50,
      drainTimeoutMs: 1_000,
    })
    layer = KafkaBus.outboxLayer({ schema: OUTBOX_SCHEMA }).pipe(Layer.provideMerge(bus), Layer.provideMerge(database))
  } else {
    layer = SingleNodeBus.layer({
      ...(options.partitions === undefined ? {} : { partitions: options.partitions }),
      timings: { drainTimeoutMs: 500, sessionMs: 3_000, heartbeatMs: 300 },
    }).pipe(Layer.provideMerge(database))
  }
  const context = await Effect.runPromise(Layer.buildWithScope(layer, scope))
  const run = <A, E>(effect: Effect.Effect<A, E, Services | Scope.Scope>) =>
    Effect.runPromiseWith(context)(effect.pipe(Scope.provide(scope)))

  const attempts: Array<AttemptRecord> = []
  await run(
    Effect.gen(function* () {
      const bus = yield* Bus
      yield* bus.subscribe(
        { groupId: `${groupPrefix}test.attempts`, topics: [Topics.dispatchAttempts], window: 64 },
        (record) =>
          decodeBusValue(AttemptRecord)(record.value).pipe(
            Effect.tap((attempt) => Effect.sync(() => attempts.push(attempt))),
            Effect.asVoid,
          ),
      )
    }),
  )

  const append = (records: Parameters<OutboxWriter["Service"]["append"]>[1]) =>
    run(
      withTransaction((tx) =>
        Effect.gen(function* () {
          const outbox = yield* OutboxWriter
          yield* outbox.append(tx, records)
        }),
      ),
    )

  return {
    db,
    kind,
    attempts,
    childEnv,
    run,
    startDispatcher: async (options = {}) => {
      const dispatcherScope = Effect.runSync(Scope.make())
      await Effect.runPromiseWith(context)(
        makeDispatcher({ secretKey, allowPrivate: true, groupPrefix: `${groupPrefix}dispatcher.`, ...options }).pipe(
          Scope.provide(dispatcherScope),
        ),
      )
      return { stop: () => Effect.runPromise(Scope.close(dispatcherScope, Exit.void)) }
    },
    projected: (webhook) =>
      eventually(
        async () => {
          const rows = await db.sql`
          select 1 from dispatcher.webhooks where webhook_id = ${webhook.webhookId} and version >= ${webhook.version}`
          if (rows.length === 0) throw new Error(`webhook ${webhook.webhookId} not projected yet`)
          // A dispatcher process just spawned reads the projection once it has loaded: seconds on a
          // loaded CI machine, more than eventually's default 5 s.
        },
        { timeoutMs: 30_000 },
      ),
    putWebhook: (webhook, deleted = false) =>
      append([
        {
          topic: Topics.registryWebhooks,
          key: webhook.webhookId,
          value: encodeBusValue(WebhookChanged, {
            webhookId: webhook.webhookId,
            orgId: webhook.orgId,
            url: webhook.url,
            events: webhook.events,
            enabled: webhook.enabled,
            sealedSecret: box.seal(webhook.secret),
            previousSecret:
              webhook.previousSecret === undefined
                ? null
                : {
                    sealedSecret: box.seal(webhook.previousSecret.secret),
                    expiresAt: webhook.previousSecret.expiresAt,
                  },
            deleted,
            version: webhook.version,
            changedAt: isoTimestamp(Date.now()),
          }),
        },
      ]),
    publishDeliveries: (deliveries) =>
      append(
        deliveries.map((delivery) => ({
          topic: Topics.dispatchDeliveries,
          key: delivery.webhookId,
          value: encodeBusValue(DeliveryRecord, delivery),
        })),
      ),
    publishEvents: async (events) => {
      for (let i = 0; i < events.length; i += 500) {
        await append(
          events.slice(i, i + 500).map((event) => ({
            topic: topicOfEvent(event.event),
            key: event.orgId,
            value: encodeBusValue(EventRecord, event),
          })),
        )
      }
    },
    close: async () => {
      await Effect.runPromise(Scope.close(scope, Exit.void))
      await db.close()
      await stopBroker()
    },
  }
}

/**
 * Waits (60 s at most) until the delivery of every (event, webhook) pair has reached the receiver
 * under `/stream-*` at least once, and answers the delivery ids it waited for. On a timeout it fails
 * with what `diagnose` tells of the run.
 */
export const untilEveryDeliveryArrives = async (
  receiver: StubServer,
  events: ReadonlyArray<EventRecord>,
  webhooks: ReadonlyArray<{ readonly webhookId: WebhookId }>,
  diagnose: () => string | Promise<string>,
): Promise<ReadonlySet<string>> => {
  const expected = new Set(events.flatMap((event) => webhooks.map((w) => deliveryIdFor(event.eventId, w.webhookId))))
  const received = () =>
    new Set(
      receiver.requests
        .filter((request) => request.path.startsWith("/stream-"))
        .map((request) => String(request.headers["x-service-delivery"])),
    )
  await eventually(
    () => {
      const seen = received()
      expect([...expected].filter((id) => !seen.has(id)).length).toBe(0)
    },
    { timeoutMs: 60_000, intervalMs: 250 },
  ).catch(async (error: unknown) => {
    throw new Error(`${String(error)}\n${await diagnose()}`)
  })
  return expected
}

import { type Bus, KafkaBus, type OutboxWriter, SingleNodeBus } from "@parley/bus"
import { Database } from "@parley/db"
import { type FreshDatabase, freshDatabase } from "@parley/db/testing"
import { makeLogger } from "@parley/platform"
import { eventually } from "@parley/platform/testing"
import { Exit, Layer, ManagedRuntime, Scope } from "effect"
import { afterAll, beforeAll, expect, it } from "vitest"
import { makeMessagingApp, migrateMessaging } from "../src/app.ts"
import {
  connectCloud,
  type FakeProvider,
  inboundPayload,
  newOrg,
  postCloudWebhook,
  startFakeProvider,
  testConfig,
} from "./harness.ts"

/**
 * Messaging as it runs with Kafka: events go to `messaging.outbox` in the ingesting transaction and
 * the relay publishes them. The relay publishes to the single-node bus here (the port is the same;
 * no broker is needed to prove the outbox path), so this also measures ingestion when an append is
 * a plain insert rather than the single-node log's per-partition counter.
 */
let db: FreshDatabase
let provider: FakeProvider
let runtime: ManagedRuntime.ManagedRuntime<Database | Bus | OutboxWriter, never>
const scope = Scope.makeUnsafe()

beforeAll(async () => {
  db = await freshDatabase()
  provider = await startFakeProvider()
  const database = Database.layer({ url: db.url })
  const migrated = Layer.effectDiscard(migrateMessaging).pipe(Layer.provideMerge(database))
  const bus = SingleNodeBus.layer().pipe(Layer.provideMerge(migrated))
  runtime = ManagedRuntime.make(KafkaBus.outboxLayer({ schema: "messaging" }).pipe(Layer.provideMerge(bus)))
})

afterAll(async () => {
  await runtime?.runPromise(Scope.close(scope, Exit.void))
  await runtime?.dispose()
  await provider?.server.close()
  await db?.close()
})

it("relays every event appended to messaging.outbox and reports the ingestion rate", async () => {
  const app = await runtime.runPromise(
    makeMessagingApp({
      config: testConfig(provider.server.url),
      logger: makeLogger({ service: "messaging", level: "silent" }),
      background: false,
    }).pipe(Scope.provide(scope)),
  )
  const orgId = newOrg()
  await connectCloud(app, orgId, "5670001")
  const total = 400
  let next = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < total) {
        const i = next++
        const payload = inboundPayload("5670001", [
          { from: "15550002222", id: `wamid.ob${i}`, type: "text", text: { body: `${i}` } },
        ])
        const response = await postCloudWebhook(app, payload)
        if (response.statusCode !== 200) throw new Error(`status ${response.statusCode}`)
      }
    }),
  )
  const rate = total / ((performance.now() - started) / 1000)
  console.info(`cloud ingress through the outbox: ${rate.toFixed(0)} payloads/s`)
  expect(rate).toBeGreaterThan(25)

  await eventually(
    async () => {
      const [relayed] = await db.sql`
        select count(*)::int as n from parley_bus.records where topic = 'parley.events.message.v1' and key = ${orgId}`
      expect(relayed?.n).toBe(total)
      const [left] = await db.sql`select count(*)::int as n from messaging.outbox`
      expect(left?.n).toBe(0)
    },
    { timeoutMs: 20_000 },
  )
})

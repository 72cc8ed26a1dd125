/**
 * The registry as its own process (src/main.ts), SIGKILLed and restarted while events stream through
 * the dispatcher: deliveries never depended on it, and its delivery log catches up on every attempt
 * from the bus once it is back.
 */
import { type Bus, OutboxWriter, SingleNodeBus } from "@parley/bus"
import { EventId, EventRecord, encodeBusValue, isoTimestamp, type OrgId, topicOfEvent } from "@parley/contracts"
import { Database, withTransaction } from "@parley/db"
import { type FreshDatabase, freshDatabase } from "@parley/db/testing"
import { makeDispatcher } from "@parley/dispatcher"
import { newId } from "@parley/platform"
import { eventually, type StubServer, startHttpServer } from "@parley/platform/testing"
import { Effect, Exit, Layer, Scope } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ChildRegistry, startChildRegistry } from "./child-registry.ts"
import { newOrg, principalHeader, secretKey } from "./harness.ts"

let db: FreshDatabase
let scope: Scope.Closeable
let receiver: StubServer
let publishEvents: (events: ReadonlyArray<EventRecord>) => Promise<void>
const children: Array<ChildRegistry> = []

beforeAll(async () => {
  db = await freshDatabase()
  receiver = await startHttpServer()
  scope = Effect.runSync(Scope.make())
  const layer: Layer.Layer<Bus | OutboxWriter | Database, unknown> = SingleNodeBus.layer({
    timings: { drainTimeoutMs: 500 },
  }).pipe(Layer.provideMerge(Database.layer({ url: db.url })))
  const context = await Effect.runPromise(Layer.buildWithScope(layer, scope))
  // The dispatcher stays up throughout, in this process; only the registry is killed.
  await Effect.runPromiseWith(context)(makeDispatcher({ secretKey, allowPrivate: true }).pipe(Scope.provide(scope)))
  publishEvents = (events) =>
    Effect.runPromiseWith(context)(
      withTransaction((tx) =>
        Effect.gen(function* () {
          const outbox = yield* OutboxWriter
          yield* outbox.append(
            tx,
            events.map((event) => ({
              topic: topicOfEvent(event.event),
              key: event.orgId,
              value: encodeBusValue(EventRecord, event),
            })),
          )
        }),
      ),
    )
}, 60_000)

afterAll(async () => {
  for (const child of children) await child.kill()
  if (scope !== undefined) await Effect.runPromise(Scope.close(scope, Exit.void))
  await receiver?.close()
  await db?.close()
})

const start = async () => {
  const child = await startChildRegistry({ databaseUrl: db.url })
  children.push(child)
  return child
}

const call = (registry: ChildRegistry, org: OrgId, method: "GET" | "POST", path: string, body?: object) =>
  fetch(`${registry.url}${path}`, {
    method,
    headers: {
      "x-parley-principal": principalHeader(org),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })

/** A lead.created whose name tells the events apart at the receiver. */
const leadNumbered = (org: OrgId, n: number): EventRecord => ({
  eventId: EventId.make(newId("evt")),
  orgId: org,
  event: "lead.created",
  timestamp: isoTimestamp(Date.now()),
  data: { phone: "14155550100", name: `Lead ${n}`, type: "CALLBACK_REQUESTED", booking: null },
})

describe("durability of the registry", () => {
  it("loses no delivery and no logged attempt when the registry is killed and restarted while thousands of events stream in", async () => {
    const org = newOrg()
    let registry = await start()
    const paths = ["/stream-a", "/stream-b"]
    const webhookIds: Array<string> = []
    for (const path of paths) {
      const created = await call(registry, org, "POST", "/api/org/webhooks", {
        url: `${receiver.url}${path}`,
        events: ["lead.created"],
      })
      expect(created.status).toBe(201)
      webhookIds.push(((await created.json()) as { id: string }).id)
    }
    await eventually(async () => {
      const rows = await db.sql`select 1 from dispatcher.webhooks where org_id = ${org}`
      expect(rows).toHaveLength(2)
    })

    const events: Array<EventRecord> = []
    for (let batch = 0; batch < 20; batch++) {
      const next = Array.from({ length: 150 }, (_, i) => leadNumbered(org, events.length + i))
      events.push(...next)
      await publishEvents(next)
      if (batch === 8) {
        // Killed only once it is writing the delivery log, so the kill lands mid-stream.
        await eventually(
          async () => {
            const [row] = await db.sql<Array<{ n: number }>>`
              select count(*)::int as n from webhook_registry.attempts where org_id = ${org}`
            expect(row?.n).toBeGreaterThan(0)
          },
          { timeoutMs: 20_000 },
        )
        await registry.kill()
        registry = await start()
      }
    }

    // Every (event, webhook) pair reached the receiver…
    const expected = new Set(paths.flatMap((path) => events.map((_, n) => `${path} Lead ${n}`)))
    const received = () =>
      new Set(
        receiver.requests
          .filter((request) => paths.includes(request.path))
          .map((request) => `${request.path} ${(request.json() as { data: { name: string } }).data.name}`),
      )
    await eventually(
      () => {
        const seen = received()
        expect([...expected].filter((pair) => !seen.has(pair))).toEqual([])
      },
      { timeoutMs: 30_000, intervalMs: 250 },
    )
    expect(expected.size).toBe(6_000)

    // …and the restarted registry's log holds every attempt, each once.
    const expectedAttempts = new Set(webhookIds.flatMap((webhookId) => events.map((e) => `${webhookId} ${e.eventId}`)))
    await eventually(
      async () => {
        const rows = await db.sql<Array<{ webhook_id: string; event_id: string; attempt: number; status: string }>>`
          select webhook_id, event_id, attempt, status from webhook_registry.attempts where org_id = ${org}`
        const logged = new Set(rows.map((row) => `${row.webhook_id} ${row.event_id}`))
        expect([...expectedAttempts].filter((pair) => !logged.has(pair))).toEqual([])
        expect(rows).toHaveLength(expectedAttempts.size)
        expect(rows.every((row) => row.attempt === 1 && row.status === "success")).toBe(true)
      },
      { timeoutMs: 30_000, intervalMs: 250 },
    ).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${children.map((c) => c.output().slice(-3000)).join("\n---\n")}`)
    })
    for (const webhookId of webhookIds) {
      const webhook = await call(registry, org, "GET", `/api/org/webhooks/${webhookId}`)
      expect(await webhook.json()).toMatchObject({ enabled: true, lastDeliveryStatus: "success", failureCount: 0 })
      const log = (await (
        await call(registry, org, "GET", `/api/org/webhooks/${webhookId}/deliveries?limit=100`)
      ).json()) as {
        data: Array<unknown>
        nextCursor: string | null
      }
      expect(log.data).toHaveLength(100)
      expect(log.nextCursor).not.toBeNull()
    }
  }, 90_000)
})

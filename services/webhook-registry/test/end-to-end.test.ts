/**
 * The registry and the dispatcher together, on the single-node bus and on Kafka: a webhook created
 * over HTTP receives signed deliveries of events written through the outbox, its attempts show up in
 * its delivery log, and redeliver and replay send the same envelope again under new delivery ids.
 */
import { type Bus, KafkaBus, OutboxWriter, SingleNodeBus } from "@parley/bus"
import { kafkaTestBrokers } from "@parley/bus/testing"
import {
  EventCatalogue,
  EventId,
  EventRecord,
  encodeBusValue,
  isoTimestamp,
  type OrgId,
  TopicCatalog,
  topicOfEvent,
} from "@parley/contracts"
import { Database, withTransaction } from "@parley/db"
import { type FreshDatabase, freshDatabase } from "@parley/db/testing"
import { makeDispatcher } from "@parley/dispatcher"
import { makeLogger, newId } from "@parley/platform"
import { eventually, type StubServer, startHttpServer } from "@parley/platform/testing"
import { verify } from "@parley/webhooks"
import { Effect, Exit, Layer, Scope } from "effect"
import type { FastifyInstance } from "fastify"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeWebhookRegistryApp } from "../src/app.ts"
import { internalSecret, newOrg, principalHeader, secretKey } from "./harness.ts"

const kinds = ["single-node", "kafka"] as const

describe.each(kinds)("registry and dispatcher on the %s bus", (kind) => {
  let db: FreshDatabase
  let scope: Scope.Closeable
  let app: FastifyInstance
  let receiver: StubServer
  let stopBroker = async () => {}
  let publishEvent: (event: EventRecord) => Promise<void>
  /** Paths the receiver answers 503 on until a test takes them out. */
  const failing = new Set<string>(["/down"])

  beforeAll(async () => {
    db = await freshDatabase()
    receiver = await startHttpServer((request) => (failing.has(request.path) ? { status: 503 } : undefined))
    scope = Effect.runSync(Scope.make())
    const database = Database.layer({ url: db.url })
    let layer: Layer.Layer<Bus | OutboxWriter | Database, unknown>
    let prefix = ""
    if (kind === "kafka") {
      const broker = await kafkaTestBrokers()
      await broker.createTopics(TopicCatalog)
      stopBroker = () => broker.stop()
      prefix = `${newId("g")}.`
      const bus = KafkaBus.layer({
        brokers: broker.brokers,
        clientId: "registry-e2e",
        idempotent: broker.idempotent,
        sessionTimeoutMs: 6_000,
        maxWaitTimeMs: 50,
        commitIntervalMs: 50,
        drainTimeoutMs: 1_000,
      })
      // The outbox layer creates webhook_registry.outbox, which its writer and relay use.
      layer = KafkaBus.outboxLayer({ schema: "webhook_registry" }).pipe(
        Layer.provideMerge(bus),
        Layer.provideMerge(database),
      )
    } else {
      layer = SingleNodeBus.layer({ timings: { drainTimeoutMs: 500 } }).pipe(Layer.provideMerge(database))
    }
    const context = await Effect.runPromise(Layer.buildWithScope(layer, scope))
    const registry = await Effect.runPromiseWith(context)(
      makeWebhookRegistryApp({
        logger: makeLogger({ service: "webhook-registry", level: "silent" }),
        secretKey,
        internalSecret,
        allowPrivate: true,
        groupPrefix: `${prefix}webhook-registry.`,
      }).pipe(Scope.provide(scope)),
    )
    app = registry.http
    await Effect.runPromiseWith(context)(
      makeDispatcher({
        secretKey,
        allowPrivate: true,
        groupPrefix: `${prefix}dispatcher.`,
        schedule: [0, 300, 600],
      }).pipe(Scope.provide(scope)),
    )
    publishEvent = (event) =>
      Effect.runPromiseWith(context)(
        withTransaction((tx) =>
          Effect.gen(function* () {
            const outbox = yield* OutboxWriter
            yield* outbox.append(tx, [
              { topic: topicOfEvent(event.event), key: event.orgId, value: encodeBusValue(EventRecord, event) },
            ])
          }),
        ),
      )
  }, 120_000)

  afterAll(async () => {
    if (scope !== undefined) await Effect.runPromise(Scope.close(scope, Exit.void))
    await receiver?.close()
    await db?.close()
    await stopBroker()
  })

  const call = (org: OrgId, method: "GET" | "POST" | "PUT", url: string, payload?: object) =>
    app.inject({
      method,
      url,
      headers: { "x-parley-principal": principalHeader(org) },
      ...(payload ? { payload } : {}),
    })

  const leadEvent = (org: OrgId): EventRecord => ({
    eventId: EventId.make(newId("evt")),
    orgId: org,
    event: "lead.created",
    timestamp: isoTimestamp(Date.now()),
    data: { phone: "14155550100", name: "Grace", type: "DEMO_REQUESTED", booking: null },
  })

  /** The receiver's first request of a delivery, once it has arrived. */
  const arrivalOf = (deliveryId: string) =>
    eventually(
      () => {
        const found = receiver.requests.find((r) => r.headers["x-service-delivery"] === deliveryId)
        if (found === undefined) throw new Error(`${deliveryId} has not arrived yet`)
        return found
      },
      { timeoutMs: 15_000 },
    )

  /** docs/contract.md §6: a change governs events that happen more than one second after it was answered. */
  const oneSecondAfter = async (answeredAt: number) =>
    eventually(() => expect(Date.now()).toBeGreaterThan(answeredAt + 1_000), { intervalMs: 10 })

  it("delivers signed, logs the attempt, redelivers and replays the same envelope", async () => {
    const org = newOrg()
    const created = await call(org, "POST", "/api/org/webhooks", {
      url: `${receiver.url}/${kind}/ok`,
      events: ["lead.created"],
    })
    expect(created.statusCode).toBe(201)
    const { id, secret } = created.json()
    await oneSecondAfter(Date.now())
    const event = leadEvent(org)
    await publishEvent(event)
    const path = `/${kind}/ok`
    const first = await eventually(
      () => {
        const found = receiver.requests.find((r) => r.path === path)
        if (found === undefined) throw new Error("not delivered yet")
        return found
      },
      { timeoutMs: 15_000 },
    )
    const envelope = await verify(first.body, first.headers, secret)
    expect(envelope).toEqual({ event: "lead.created", timestamp: event.timestamp, data: event.data })

    await eventually(
      async () => {
        const log = (await call(org, "GET", `/api/org/webhooks/${id}/deliveries`)).json()
        expect(log.data).toHaveLength(1)
        expect(log.data[0]).toMatchObject({
          deliveryId: first.headers["x-service-delivery"],
          eventId: event.eventId,
          event: "lead.created",
          attempt: 1,
          status: "success",
          responseStatus: 200,
          error: null,
        })
        expect((await call(org, "GET", `/api/org/webhooks/${id}`)).json()).toMatchObject({
          lastDeliveryStatus: "success",
          lastResponseStatus: 200,
          failureCount: 0,
        })
      },
      { timeoutMs: 15_000 },
    )

    const redeliver = await eventually(async () => {
      const answer = await call(
        org,
        "POST",
        `/api/org/webhooks/${id}/deliveries/${first.headers["x-service-delivery"]}/redeliver`,
      )
      expect(answer.statusCode).toBe(202)
      return answer.json()
    })
    const again = await arrivalOf(redeliver.deliveryId)
    expect(again.body.equals(first.body)).toBe(true)
    await verify(again.body, again.headers, secret)

    const replay = await call(org, "POST", `/api/org/webhooks/${id}/replay`, {
      since: new Date(Date.now() - 60_000).toISOString(),
    })
    expect(replay.statusCode).toBe(202)
    expect(replay.json()).toEqual({ queued: 1 })
    await eventually(() => expect(receiver.requests.filter((r) => r.path === path)).toHaveLength(3), {
      timeoutMs: 15_000,
    })
  }, 60_000)

  it("sends a test event to a disabled webhook, marked X-Service-Test on it and on its redelivery", async () => {
    const org = newOrg()
    const path = `/${kind}/test-event`
    const created = (
      await call(org, "POST", "/api/org/webhooks", { url: `${receiver.url}${path}`, events: ["message.inbound"] })
    ).json()
    await call(org, "PUT", `/api/org/webhooks/${created.id}`, { enabled: false })
    const test = await call(org, "POST", `/api/org/webhooks/${created.id}/test`, { event: "campaign.completed" })
    expect(test.statusCode).toBe(202)
    const { deliveryId } = test.json()
    const first = await arrivalOf(deliveryId)
    expect(first.headers["x-service-test"]).toBe("true")
    expect(first.headers["x-service-event"]).toBe("campaign.completed")
    const envelope = await verify(first.body, first.headers, created.secret)
    expect(envelope.data).toEqual(EventCatalogue.find((e) => e.name === "campaign.completed")?.sample)
    await eventually(
      async () => {
        const log = (await call(org, "GET", `/api/org/webhooks/${created.id}/deliveries`)).json()
        expect(log.data).toEqual([expect.objectContaining({ deliveryId, event: "campaign.completed", attempt: 1 })])
      },
      { timeoutMs: 15_000 },
    )
    const again = (await call(org, "POST", `/api/org/webhooks/${created.id}/deliveries/${deliveryId}/redeliver`)).json()
    const redelivered = await arrivalOf(again.deliveryId)
    expect(redelivered.headers["x-service-test"]).toBe("true")
    expect(redelivered.body.equals(first.body)).toBe(true)
  }, 60_000)

  it("counts failed attempts and stops delivering once disabled", async () => {
    const org = newOrg()
    const down = (await call(org, "POST", "/api/org/webhooks", { url: `${receiver.url}/down` })).json()
    await call(org, "POST", "/api/org/webhooks", { url: `${receiver.url}/${kind}/control` })
    await oneSecondAfter(Date.now())
    await publishEvent(leadEvent(org))
    await eventually(
      async () =>
        expect((await call(org, "GET", `/api/org/webhooks/${down.id}`)).json()).toMatchObject({
          lastDeliveryStatus: "failed",
          lastResponseStatus: 503,
          failureCount: 3,
        }),
      { timeoutMs: 20_000 },
    )
    const disabled = await call(org, "PUT", `/api/org/webhooks/${down.id}`, { enabled: false })
    expect(disabled.json().enabled).toBe(false)
    const downBefore = receiver.requests.filter((r) => r.path === "/down").length
    await oneSecondAfter(Date.now())
    await publishEvent(leadEvent(org))
    await eventually(() => expect(receiver.requests.filter((r) => r.path === `/${kind}/control`)).toHaveLength(2), {
      timeoutMs: 15_000,
    })
    expect(receiver.requests.filter((r) => r.path === "/down")).toHaveLength(downBefore)
  }, 60_000)

  it("never disables a webhook that failed every attempt, and delivers to it again once it answers 2xx", async () => {
    const org = newOrg()
    const path = `/${kind}/recovers`
    failing.add(path)
    const created = (await call(org, "POST", "/api/org/webhooks", { url: `${receiver.url}${path}` })).json()
    await oneSecondAfter(Date.now())
    // Two events, three failed attempts each: more than a whole delivery's worth of failures.
    await publishEvent(leadEvent(org))
    await publishEvent(leadEvent(org))
    await eventually(
      async () =>
        expect((await call(org, "GET", `/api/org/webhooks/${created.id}`)).json()).toMatchObject({
          enabled: true,
          lastDeliveryStatus: "failed",
          lastResponseStatus: 503,
          failureCount: 6,
        }),
      { timeoutMs: 20_000 },
    )
    expect(receiver.requests.filter((r) => r.path === path)).toHaveLength(6)

    failing.delete(path)
    const later = leadEvent(org)
    await publishEvent(later)
    await eventually(() => expect(receiver.requests.filter((r) => r.path === path)).toHaveLength(7), {
      timeoutMs: 15_000,
    })
    await eventually(
      async () => {
        const log = (await call(org, "GET", `/api/org/webhooks/${created.id}/deliveries?status=success`)).json()
        expect(log.data).toEqual([expect.objectContaining({ eventId: later.eventId, attempt: 1, responseStatus: 200 })])
        expect((await call(org, "GET", `/api/org/webhooks/${created.id}`)).json()).toMatchObject({
          enabled: true,
          lastDeliveryStatus: "success",
          lastResponseStatus: 200,
          failureCount: 6,
        })
      },
      { timeoutMs: 15_000 },
    )
  }, 60_000)
})

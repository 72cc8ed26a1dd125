import { Bus, type BusRecord, KafkaBus } from "@parley/bus"
import { kafkaTestBrokers } from "@parley/bus/testing"
import { ChannelInbound, encodeBusValue, TopicCatalog, Topics } from "@parley/contracts"
import { Database, outboxTableSql } from "@parley/db"
import { type FreshDatabase, freshDatabase } from "@parley/db/testing"
import { makeLogger, newId } from "@parley/platform"
import { eventually } from "@parley/platform/testing"
import { Effect, Exit, Layer, ManagedRuntime, Scope } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ASSISTANT_SCHEMA, type AssistantApp, makeAssistantApp } from "../src/app.ts"
import { INTERNAL_SECRET, newOrg, widget } from "./harness.ts"

// The assistant as it runs distributed: records leave through `assistant.outbox` and the relay to
// Kafka, and channel messages arrive from Kafka.
let db: FreshDatabase
let stopBroker = async () => {}
let runtime: ManagedRuntime.ManagedRuntime<Database | Bus | import("@parley/bus").OutboxWriter, unknown>
let scope: Scope.Closeable
let app: AssistantApp
const received: Array<BusRecord> = []

beforeAll(async () => {
  db = await freshDatabase()
  const broker = await kafkaTestBrokers()
  stopBroker = () => broker.stop()
  await broker.createTopics(TopicCatalog)
  // The relay starts with the bus, before the app's migrations: its table must already be there.
  await db.sql.unsafe(`create schema if not exists ${ASSISTANT_SCHEMA}`)
  await db.sql.unsafe(outboxTableSql(ASSISTANT_SCHEMA))
  const bus = KafkaBus.layer({
    brokers: broker.brokers,
    clientId: "assistant-test",
    idempotent: broker.idempotent,
    sessionTimeoutMs: 6_000,
    maxWaitTimeMs: 50,
    commitIntervalMs: 50,
    drainTimeoutMs: 1_000,
  })
  runtime = ManagedRuntime.make(
    KafkaBus.outboxLayer({ schema: ASSISTANT_SCHEMA }).pipe(
      Layer.provideMerge(bus),
      Layer.provideMerge(Database.layer({ url: db.url })),
    ),
  )
  scope = Scope.makeUnsafe()
  app = await runtime.runPromise(
    Effect.gen(function* () {
      const bus = yield* Bus
      yield* bus.subscribe(
        { groupId: `${newId("g")}.observer`, topics: [Topics.eventsLead, Topics.channelOutbound] },
        (record) => Effect.sync(() => received.push(record)),
      )
      return yield* makeAssistantApp({
        logger: makeLogger({ service: "assistant", level: "silent" }),
        internalSecret: INTERNAL_SECRET,
      })
    }).pipe(Scope.provide(scope)),
  )
}, 120_000)

afterAll(async () => {
  await runtime?.runPromise(Scope.close(scope, Exit.void))
  await runtime?.dispose()
  await stopBroker()
  await db?.close()
}, 60_000)

const on = (topic: string, key: string) =>
  received.filter((r) => r.topic === topic && r.key === key).map((r) => JSON.parse(r.value) as Record<string, unknown>)

describe("on Kafka", () => {
  it("publishes lead.created from a widget chat through the outbox", async () => {
    const orgId = newOrg()
    const response = await widget(app, orgId, "POST", "/api/public/chat", {
      message: "I'm Dana, call me on 4155550100",
    })
    expect(response.statusCode).toBe(200)
    const [event] = await eventually(
      () => {
        const events = on(Topics.eventsLead, orgId)
        expect(events).toHaveLength(1)
        return events
      },
      { timeoutMs: 20_000 },
    )
    expect(event).toMatchObject({
      event: "lead.created",
      data: { phone: "14155550100", name: "Dana", type: "CALLBACK_REQUESTED", booking: null },
    })
  }, 30_000)

  it("answers a channel message from Kafka with a reply on Kafka", async () => {
    const orgId = newOrg()
    const inbound = {
      orgId,
      channel: "bridge",
      from: "4915100000009",
      name: "",
      type: "text",
      text: "please call me back",
      messageId: `m.${newId("msg")}`,
      receivedAt: new Date().toISOString(),
    } as ChannelInbound
    await runtime.runPromise(
      Effect.gen(function* () {
        const bus = yield* Bus
        yield* bus.publish([
          { topic: Topics.channelInbound, key: orgId, value: encodeBusValue(ChannelInbound, inbound) },
        ])
      }),
    )
    const [reply] = await eventually(
      () => {
        const replies = on(Topics.channelOutbound, orgId)
        expect(replies).toHaveLength(1)
        return replies
      },
      { timeoutMs: 20_000 },
    )
    expect(reply).toMatchObject({ orgId, channel: "bridge", to: "4915100000009", inReplyTo: inbound.messageId })
    expect(on(Topics.eventsLead, orgId)).toMatchObject([
      { event: "lead.created", data: { type: "CALLBACK_REQUESTED" } },
    ])
  }, 30_000)
})

import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { SingleNodeBus } from "@parley/bus"
import { Database } from "@parley/db"
import { makeLogger } from "@parley/platform"
import { eventually } from "@parley/platform/testing"
import { type Effect, Exit, Layer, ManagedRuntime, Scope } from "effect"
import { afterAll, beforeAll, expect, it } from "vitest"
import { makeMessagingApp } from "../src/app.ts"
import {
  asTenant,
  connectCloud,
  type FakeProvider,
  inboundPayload,
  newOrg,
  postCloudWebhook,
  startFakeProvider,
  testConfig,
} from "./harness.ts"

/**
 * Standalone runs on the embedded Postgres over ONE connection: nothing here may wait on a second
 * connection while holding the first. This drives ingress, sending and a campaign through it.
 */
let dataDir: string
let provider: FakeProvider
let runtime: ManagedRuntime.ManagedRuntime<never, never>
let scope: Scope.Closeable

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "parley-messaging-"))
  provider = await startFakeProvider()
  runtime = ManagedRuntime.make(
    SingleNodeBus.layer().pipe(Layer.provideMerge(Database.layer({ dataDir }))) as Layer.Layer<never>,
  )
  scope = Scope.makeUnsafe()
})

afterAll(async () => {
  await runtime?.runPromise(Scope.close(scope, Exit.void))
  await runtime?.dispose()
  await provider?.server.close()
  await rm(dataDir, { recursive: true, force: true })
})

it("ingests, sends and completes a campaign on the embedded single-connection Postgres", async () => {
  const app = await runtime.runPromise(
    makeMessagingApp({
      config: testConfig(provider.server.url),
      logger: makeLogger({ service: "messaging", level: "silent" }),
    }).pipe(Scope.provide(scope)) as Effect.Effect<Effect.Success<ReturnType<typeof makeMessagingApp>>>,
  )
  const orgId = newOrg()
  await connectCloud(app, orgId, "1230001", "1230002")
  const payload = inboundPayload("1230001", [
    { from: "15550001111", id: "wamid.e1", type: "text", text: { body: "hi" } },
  ])
  expect((await postCloudWebhook(app, payload)).statusCode).toBe(200)
  expect((await postCloudWebhook(app, payload)).statusCode).toBe(200)
  // Concurrent deliveries share batch transactions, one at a time on the one connection.
  const concurrent = await Promise.all(
    Array.from({ length: 40 }, (_, i) =>
      postCloudWebhook(
        app,
        inboundPayload("1230001", [
          { from: "15550001112", id: `wamid.ec${i % 20}`, type: "text", text: { body: "x" } },
        ]),
      ),
    ),
  )
  expect(concurrent.map((r) => r.statusCode)).toEqual(Array(40).fill(200))
  const batched = await app.http.inject({ method: "GET", url: "/metrics" })
  const transactions =
    /parley_messaging_cloud_ingress_batch_payloads_count\{[^}]*outcome="committed"[^}]*\} (\d+)/.exec(batched.body)
  expect(Number(transactions?.[1])).toBeLessThan(42)
  const stored = (await asTenant(app, orgId, "GET", "/api/messages?phone=15550001112&limit=100")).json().data
  expect(stored).toHaveLength(20)
  expect((await asTenant(app, orgId, "POST", "/api/messages", { to: "15550001111", text: "hello" })).statusCode).toBe(
    202,
  )

  const template = await asTenant(app, orgId, "POST", "/api/templates", {
    name: "embedded_news",
    language: "en_US",
    category: "MARKETING",
    components: [{ type: "BODY", text: "News" }],
  })
  expect(template.statusCode).toBe(201)
  await postCloudWebhook(app, {
    object: "whatsapp_business_account",
    entry: [
      {
        id: "1230002",
        changes: [
          {
            field: "message_template_status_update",
            value: { event: "APPROVED", message_template_name: "embedded_news", message_template_language: "en_US" },
          },
        ],
      },
    ],
  })
  const created = await asTenant(app, orgId, "POST", "/api/campaigns", {
    name: "Embedded",
    template: { name: "embedded_news", language: "en_US" },
    recipients: Array.from({ length: 30 }, (_, i) => `1555000${String(i).padStart(4, "0")}`),
  })
  expect(created.statusCode).toBe(202)
  await eventually(
    async () => {
      const campaign = (await asTenant(app, orgId, "GET", `/api/campaigns/${created.json().id}`)).json()
      expect(campaign).toMatchObject({ status: "completed", sent: 30, failed: 0 })
    },
    { timeoutMs: 20_000 },
  )
  const listed = (await asTenant(app, orgId, "GET", "/api/messages?phone=15550001111")).json().data
  expect(listed.map((m: { direction: string }) => m.direction).sort()).toEqual(["inbound", "outbound"])
})

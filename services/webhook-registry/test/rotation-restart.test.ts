/**
 * A rotation survives restarts: the registry (its own process, SIGKILLed) and the dispatcher (a new
 * instance, nothing kept in memory) come back still signing with both keys, because the previous
 * key lives sealed in the registry's table and travels on the compacted `parley.registry.webhooks.v1`
 * into the dispatcher's projection. Once the window ends it is forgotten on that same path.
 */
import { type Bus, OutboxWriter, SingleNodeBus } from "@parley/bus"
import { EventId, EventRecord, encodeBusValue, isoTimestamp, type OrgId, topicOfEvent } from "@parley/contracts"
import { Database, withTransaction } from "@parley/db"
import { type FreshDatabase, freshDatabase } from "@parley/db/testing"
import { makeDispatcher } from "@parley/dispatcher"
import { newId } from "@parley/platform"
import { eventually, type ReceivedRequest, type StubServer, startHttpServer } from "@parley/platform/testing"
import { sign, verify } from "@parley/webhooks"
import { type Context, Effect, Exit, Layer, Scope } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { WebhookStore } from "../src/webhooks/webhook-store.ts"
import { type ChildRegistry, startChildRegistry } from "./child-registry.ts"
import { box, newOrg, principalHeader, secretKey } from "./harness.ts"

/** The registry's sweep, through its WebhookStore service as `app.ts` composes it. */
const forgetExpiredPreviousSecrets = (now: Date) =>
  WebhookStore.use((store) => store.forgetExpiredPreviousSecrets(now)).pipe(
    Effect.provide(WebhookStore.layer("webhook_registry")),
  )

type Services = Bus | OutboxWriter | Database

let db: FreshDatabase
let scope: Scope.Closeable
let context: Context.Context<Services>
let receiver: StubServer
const children: Array<ChildRegistry> = []

beforeAll(async () => {
  db = await freshDatabase()
  receiver = await startHttpServer()
  scope = Effect.runSync(Scope.make())
  const layer: Layer.Layer<Services, unknown> = SingleNodeBus.layer({ timings: { drainTimeoutMs: 500 } }).pipe(
    Layer.provideMerge(Database.layer({ url: db.url })),
  )
  context = await Effect.runPromise(Layer.buildWithScope(layer, scope))
}, 60_000)

afterAll(async () => {
  for (const child of children) await child.kill()
  if (scope !== undefined) await Effect.runPromise(Scope.close(scope, Exit.void))
  await receiver?.close()
  await db?.close()
})

const startRegistry = async () => {
  const child = await startChildRegistry({ databaseUrl: db.url })
  children.push(child)
  return child
}

/** A dispatcher instance of its own: stopping it drops everything it held in memory. */
const startDispatcher = async () => {
  const own = Effect.runSync(Scope.make())
  await Effect.runPromiseWith(context)(makeDispatcher({ secretKey, allowPrivate: true }).pipe(Scope.provide(own)))
  return { stop: () => Effect.runPromise(Scope.close(own, Exit.void)) }
}

const call = async (registry: ChildRegistry, org: OrgId, method: "POST" | "PUT", path: string, body: object) => {
  const response = await fetch(`${registry.url}${path}`, {
    method,
    headers: { "x-parley-principal": principalHeader(org), "content-type": "application/json" },
    body: JSON.stringify(body),
  })
  expect(response.status, await response.clone().text()).toBeLessThan(300)
  return (await response.json()) as Record<string, string>
}

const publishLead = (org: OrgId, name: string) =>
  Effect.runPromiseWith(context)(
    withTransaction((tx) =>
      Effect.gen(function* () {
        const event: EventRecord = {
          eventId: EventId.make(newId("evt")),
          orgId: org,
          event: "lead.created",
          timestamp: isoTimestamp(Date.now()),
          data: { phone: "14155550100", name, type: "CALLBACK_REQUESTED", booking: null },
        }
        const outbox = yield* OutboxWriter
        yield* outbox.append(tx, [
          { topic: topicOfEvent(event.event), key: event.orgId, value: encodeBusValue(EventRecord, event) },
        ])
      }),
    ),
  )

const deliveryNamed = (name: string) =>
  eventually(
    () => {
      const found = receiver.requests.find((r) => (r.json() as { data: { name: string } }).data.name === name)
      if (found === undefined) throw new Error(`no delivery of ${name} yet`)
      return found
    },
    { timeoutMs: 20_000 },
  )

const signaturesOf = (request: ReceivedRequest) => String(request.headers["webhook-signature"]).split(" ")

describe("a rotation", () => {
  it("keeps both keys signing across a restart of the registry and of the dispatcher, and forgets the old one after its window", async () => {
    const org = newOrg()
    const [first, second] = [Buffer.alloc(32, 71).toString("base64"), Buffer.alloc(32, 72).toString("base64url")]
    let registry = await startRegistry()
    let dispatcher = await startDispatcher()
    const { id } = await call(registry, org, "POST", "/api/org/webhooks", {
      url: `${receiver.url}/rotation`,
      secret: first,
      events: ["lead.created"],
    })
    if (id === undefined) throw new Error("no webhook id")
    await call(registry, org, "PUT", `/api/org/webhooks/${id}`, { secret: second })

    // Both restarted: the registry killed, the dispatcher replaced by a new instance.
    await registry.kill()
    await dispatcher.stop()
    registry = await startRegistry()
    dispatcher = await startDispatcher()
    await eventually(async () => {
      const [row] = await db.sql`
        select previous_sealed_secret from dispatcher.webhooks where webhook_id = ${id}`
      expect(row?.previous_sealed_secret).toMatch(/^v1\./)
    })

    await publishLead(org, "after restart")
    const during = await deliveryNamed("after restart")
    expect(signaturesOf(during)).toHaveLength(2)
    expect(during.headers["x-service-signature"]).toBe(await sign(during.body, second))
    for (const key of [second, first, `whsec_${Buffer.from(first, "base64").toString("base64")}`]) {
      expect((await verify(during.body, during.headers, key)).event).toBe("lead.created")
    }
    const [row] = await db.sql<Array<{ previous_sealed_secret: string; previous_secret_expires_at: Date }>>`
      select previous_sealed_secret, previous_secret_expires_at from webhook_registry.webhooks where id = ${id}`
    if (row === undefined) throw new Error("the webhook is gone")
    expect(box.open(row.previous_sealed_secret)).toBe(first)

    // A day later, the registry's sweep (the one each instance runs every minute) ends the window.
    const dayLater = new Date(row.previous_secret_expires_at.getTime() + 1)
    expect(await Effect.runPromiseWith(context)(forgetExpiredPreviousSecrets(dayLater))).toBe(1)
    await eventually(async () => {
      const [projected] = await db.sql`
        select previous_sealed_secret from dispatcher.webhooks where webhook_id = ${id}`
      expect(projected?.previous_sealed_secret).toBeNull()
    })
    const [registryRow] = await db.sql`
      select previous_sealed_secret from webhook_registry.webhooks where id = ${id}`
    expect(registryRow?.previous_sealed_secret).toBeNull()

    await publishLead(org, "after the window")
    const after = await deliveryNamed("after the window")
    expect(signaturesOf(after)).toHaveLength(1)
    expect((await verify(after.body, after.headers, second)).event).toBe("lead.created")
    await expect(verify(after.body, after.headers, first)).rejects.toMatchObject({ _tag: "InvalidSignature" })
    await dispatcher.stop()
  }, 90_000)
})

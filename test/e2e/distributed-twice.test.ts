import { createHmac } from "node:crypto"
import { once } from "node:events"
import { partitionOf } from "@parley/bus/testing"
import {
  CreatedApiKey,
  CreatedWebhook,
  CreateOrganizationResponse,
  ListDeliveriesResponse,
  TopicCatalog,
  Topics,
} from "@parley/contracts"
import { eventually, type ReceivedRequest, type StubServer, startHttpServer } from "@parley/platform/testing"
import { Schema } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ensureBuilt } from "./support/distributed-build.ts"
import { awaitReady, type ServiceProcess } from "./support/distributed-process.ts"
import { type DistributedSystem, startDistributedSystem } from "./support/distributed-system.ts"

// Two of every consumer (docs/design.md §3.4): two processes each of the dispatcher, the assistant,
// messaging and the webhook registry on Kafka, sharing every topic's partitions through their
// consumer groups; one gateway and one identity. Customer messages come from organizations chosen so
// that their ids (the key of the inbound, outbound and event topics) land on every partition, and
// their webhooks' ids (the key of the attempts and retry topics) too. Then one instance of each is
// SIGKILLed in the middle of a retry schedule, and everything sent afterwards must still be served.
const partitionsOf = (topic: string): number => TopicCatalog.find((spec) => spec.name === topic)?.partitions ?? 0
const ORG_PARTITIONS = partitionsOf(Topics.channelInbound)
const WEBHOOK_PARTITIONS = partitionsOf(Topics.dispatchAttempts)
const DOUBLED = ["dispatcher", "assistant", "messaging", "webhook-registry"] as const

interface Org {
  readonly id: string
  readonly key: string
  readonly phoneNumberId: string
  readonly businessAccountId: string
  readonly webhooks: Array<{ readonly id: string; readonly path: string }>
}

interface Sent {
  readonly org: Org
  readonly from: string
  readonly messageId: string
  readonly after: "start" | "kill"
}

describe("Parley distributed with two of every consumer (Kafka), one of each killed", () => {
  let system: DistributedSystem
  let receiver: StubServer
  let provider: StubServer
  const orgs: Array<Org> = []
  const sent: Array<Sent> = []
  /** The customer whose message.inbound the receiver refuses twice (attempts 1 and 2). */
  const retriedFrom = "14155559999"

  const dataOf = (request: ReceivedRequest): { from?: string } =>
    ((request.json() as { data?: { from?: string } }).data ?? {}) as { from?: string }

  beforeAll(async () => {
    await ensureBuilt()
    receiver = await startHttpServer((request) =>
      dataOf(request).from === retriedFrom && request.headers["x-service-attempt"] !== "3"
        ? { status: 500 }
        : undefined,
    )
    let answered = 0
    provider = await startHttpServer(() => ({ body: { messages: [{ id: `wamid.out${++answered}` }] } }))
    system = await startDistributedSystem({
      instances: Object.fromEntries(DOUBLED.map((name) => [name, 2])),
      // A killed member's partitions move after its session times out: 3 s here, as in the bus's own tests.
      env: {
        PARLEY_CLOUD_API_URL: provider.url,
        KAFKA_SESSION_TIMEOUT_MS: "3000",
        // Nine processes on Postgres at 10 connections each peaked at 63 of a default server's 100,
        // shared with the other test files running beside this one; 4 each serve this load.
        DATABASE_POOL_MAX: "4",
      },
    })
    console.info(`two of each: ${system.services.length} processes up in ${system.startupMs} ms`)
  }, 300_000)

  afterAll(async () => {
    await system?.stop()
    await receiver?.close()
    await provider?.close()
  }, 60_000)

  const instancesOf = (name: string): Array<ServiceProcess> => system.services.filter((s) => s.name === name)

  const api = async (
    path: string,
    init: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
  ) => {
    const response = await fetch(`${system.url}${path}`, {
      method: init.method ?? "GET",
      headers: { ...(init.body === undefined ? {} : { "content-type": "application/json" }), ...init.headers },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    })
    if (response.status >= 400)
      throw new Error(`${init.method ?? "GET"} ${path}: ${response.status} ${await response.text()}`)
    return response
  }
  const decoded = async <A, I>(schema: Schema.Codec<A, I>, response: Response): Promise<A> =>
    Schema.decodeUnknownSync(schema)(await response.json())

  let sequence = 0
  /** A signed cloud webhook with one text message of a new customer of `org`. */
  const sendInbound = async (org: Org, after: Sent["after"], from = `1415${String(++sequence).padStart(7, "0")}`) => {
    const message: Sent = { org, from, messageId: `wamid.in.${from}`, after }
    sent.push(message)
    const body = JSON.stringify({
      object: "whatsapp_business_account",
      entry: [
        {
          id: org.businessAccountId,
          changes: [
            {
              field: "messages",
              value: {
                messaging_product: "whatsapp",
                metadata: { display_phone_number: "15550000000", phone_number_id: org.phoneNumberId },
                contacts: [{ profile: { name: "Robin" }, wa_id: from }],
                messages: [
                  {
                    from,
                    id: message.messageId,
                    timestamp: "1763800000",
                    type: "text",
                    text: { body: `Hello ${from}` },
                  },
                ],
              },
            },
          ],
        },
      ],
    })
    const response = await fetch(`${system.url}/channels/cloud/webhook`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-hub-signature-256": `sha256=${createHmac("sha256", system.cloudAppSecret).update(body).digest("hex")}`,
      },
      body,
    })
    expect(response.status, `${await response.text()}\n${system.logs()}`).toBe(200)
    return message
  }

  const answersTo = (message: Sent) =>
    provider.requests.filter(
      (request) =>
        request.path === `/v21.0/${message.org.phoneNumberId}/messages` &&
        (request.json() as { to?: string }).to === message.from,
    )
  const deliveriesOf = (message: Sent, webhook: Org["webhooks"][number]) =>
    receiver.requests.filter((request) => request.path === webhook.path && dataOf(request).from === message.from)

  /** Every message answered and every one of its org's webhooks delivered to (bounded wait). */
  const awaitServed = (messages: ReadonlyArray<Sent>, timeoutMs: number) =>
    eventually(
      () => {
        const unanswered = messages.filter((message) => answersTo(message).length === 0)
        const undelivered = messages.filter((message) =>
          message.org.webhooks.some((webhook) => deliveriesOf(message, webhook).length === 0),
        )
        if (unanswered.length > 0 || undelivered.length > 0) {
          throw new Error(
            `${unanswered.length} of ${messages.length} unanswered (${unanswered.map((m) => m.from)}), ${undelivered.length} undelivered (${undelivered.map((m) => m.from)})`,
          )
        }
      },
      { timeoutMs, intervalMs: 100 },
    ).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${system.logs()}`)
    })

  it("runs two live, ready processes of the dispatcher, the assistant, messaging and the registry", async () => {
    for (const name of DOUBLED) expect(instancesOf(name), name).toHaveLength(2)
    for (const service of system.services) await awaitReady(service)
  }, 90_000)

  it("sets up organizations whose ids cover every partition, with webhooks whose ids cover every partition", async () => {
    // Organizations until every partition of the org-keyed topics has one.
    const byPartition = new Map<number, string>()
    for (let n = 0; byPartition.size < ORG_PARTITIONS; n++) {
      expect(n, "organizations created to cover every partition").toBeLessThan(200)
      const email = `owner${n}@twice.example`
      const created = await decoded(
        CreateOrganizationResponse,
        await api("/api/operator/organizations", {
          method: "POST",
          headers: { authorization: `Bearer ${system.operatorToken}` },
          body: { name: `Twice ${n}`, features: ["api_access"], admin: { email, password: "correct horse battery" } },
        }),
      )
      const partition = partitionOf("kafka", created.organization.id, ORG_PARTITIONS)
      if (byPartition.has(partition)) continue
      byPartition.set(partition, email)
      const login = await api("/api/auth/login", { method: "POST", body: { email, password: "correct horse battery" } })
      const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0] as string
      const { key } = await decoded(
        CreatedApiKey,
        await api("/api/org/api-keys", { method: "POST", headers: { cookie }, body: { name: "server" } }),
      )
      const phoneNumberId = String(106540352242000 + orgs.length)
      const businessAccountId = String(5550000 + orgs.length)
      await api("/api/channels/cloud", {
        method: "PUT",
        headers: { "x-api-key": key },
        body: { phoneNumberId, businessAccountId, accessToken: "provider-access-token" },
      })
      orgs.push({ id: created.organization.id, key, phoneNumberId, businessAccountId, webhooks: [] })
    }
    // Webhooks, round the organizations, until every partition of the webhook-keyed topics has one;
    // one that adds no partition to an organization that already has one is deleted again.
    const webhookPartitions = new Set<number>()
    for (let n = 0; webhookPartitions.size < WEBHOOK_PARTITIONS || orgs.some((o) => o.webhooks.length === 0); n++) {
      expect(n, "webhooks created to cover every partition").toBeLessThan(200)
      const org = orgs[n % orgs.length] as Org
      const path = `/hook/${n}`
      const webhook = await decoded(
        CreatedWebhook,
        await api("/api/org/webhooks", {
          method: "POST",
          headers: { "x-api-key": org.key },
          body: { url: `${receiver.url}${path}`, events: ["message.inbound"] },
        }),
      )
      const partition = partitionOf("kafka", webhook.id, WEBHOOK_PARTITIONS)
      if (webhookPartitions.has(partition) && org.webhooks.length > 0) {
        await api(`/api/org/webhooks/${webhook.id}`, { method: "DELETE", headers: { "x-api-key": org.key } })
        continue
      }
      webhookPartitions.add(partition)
      org.webhooks.push({ id: webhook.id, path })
    }
    console.info(
      `two of each: ${orgs.length} organizations, ${orgs.reduce((n, o) => n + o.webhooks.length, 0)} webhooks`,
    )
  }, 120_000)

  it("answers every customer message once and delivers every message.inbound, shared by two of each consumer", async () => {
    expect(orgs).toHaveLength(ORG_PARTITIONS)
    const started = Date.now()
    // The registry announces each webhook over Kafka; until both dispatchers' projection has it, an
    // event finds no subscriber. Per organization, a message every 3 s until one is delivered to all
    // of its webhooks (these warm-ups are answered like any other and checked at the end too).
    await Promise.all(
      orgs.map((org) =>
        eventually(
          async () => {
            const message = await sendInbound(org, "start")
            await eventually(
              () => {
                for (const webhook of org.webhooks) expect(deliveriesOf(message, webhook).length).toBeGreaterThan(0)
              },
              { timeoutMs: 3_000, intervalMs: 100 },
            )
          },
          { timeoutMs: 60_000, intervalMs: 0 },
        ),
      ),
    ).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${system.logs()}`)
    })
    const warm = Date.now()
    const burst: Array<Sent> = []
    for (let round = 0; round < 3; round++) for (const org of orgs) burst.push(await sendInbound(org, "start"))
    await awaitServed(burst, 30_000)
    console.info(
      `two of each: warm after ${warm - started} ms; ${burst.length} messages answered and delivered ${Date.now() - warm} ms after the first`,
    )
  }, 120_000)

  it("keeps the retries at ≈5 s and ≈10 s while one instance of each is killed, and the survivors serve every partition", async () => {
    const retried = await sendInbound(orgs[0] as Org, "start", retriedFrom)
    const webhook = (orgs[0] as Org).webhooks[0] as Org["webhooks"][number]
    // Attempt 1 failed and was recorded (the registry has it from the attempts topic, published with
    // the retry): only then is a dispatcher killed, between the first attempt and the second.
    const attemptsLogged = () =>
      api(`/api/org/webhooks/${webhook.id}/deliveries`, { headers: { "x-api-key": (orgs[0] as Org).key } })
        .then((response) => decoded(ListDeliveriesResponse, response))
        .then(({ data }) =>
          data.filter(
            (attempt) => attempt.deliveryId === deliveriesOf(retried, webhook)[0]?.headers["x-service-delivery"],
          ),
        )
    await eventually(
      async () => expect((await attemptsLogged()).map((attempt) => attempt.status)).toEqual(["failed"]),
      { timeoutMs: 30_000, intervalMs: 50 },
    )
    // SIGKILL, no goodbye: the groups move the partitions after the session timeout. The gateway
    // talks to the first instance of each, so the second is the one killed (the dispatcher, which
    // serves nothing over HTTP, loses its first). Kafka's eager rebalance revokes every partition of
    // the group, so the retry record is handed over whichever dispatcher held it.
    const killed = [
      instancesOf("dispatcher")[0],
      instancesOf("assistant")[1],
      instancesOf("messaging")[1],
      instancesOf("webhook-registry")[1],
    ] as Array<ServiceProcess>
    await Promise.all(
      killed.map(async (service) => {
        const exited = once(service.child, "exit")
        service.child.kill("SIGKILL")
        await exited
      }),
    )
    const killedAt = Date.now()
    // Two messages per organization after the kill: every partition of every org-keyed topic.
    const afterKill: Array<Sent> = []
    for (let round = 0; round < 2; round++) for (const org of orgs) afterKill.push(await sendInbound(org, "kill"))
    await awaitServed(afterKill, 45_000)
    console.info(`two of each: ${afterKill.length} messages after the kill served within ${Date.now() - killedAt} ms`)

    const attempts = await eventually(
      () => {
        const received = deliveriesOf(retried, webhook)
        expect(received.map((request) => request.headers["x-service-attempt"])).toEqual(["1", "2", "3"])
        return received
      },
      { timeoutMs: 30_000, intervalMs: 50 },
    ).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${system.logs()}`)
    })
    const [first, second, third] = attempts.map((request) => request.receivedAt) as [number, number, number]
    console.info(
      `two of each: retry gaps ${second - first} ms and ${third - second} ms (killed ${killedAt - first} ms after the first)`,
    )
    expect(new Set(attempts.map((request) => request.headers["x-service-delivery"])).size).toBe(1)
    expect(second - first).toBeGreaterThanOrEqual(5_000)
    expect(second - first).toBeLessThan(7_500)
    expect(third - second).toBeGreaterThanOrEqual(10_000)
    expect(third - second).toBeLessThan(12_500)

    // The surviving registry records every attempt of the webhook-keyed partitions, so the delivery
    // log of every webhook lists each delivery made after the kill.
    await eventually(
      async () => {
        for (const org of orgs) {
          for (const each of org.webhooks) {
            const { data } = await decoded(
              ListDeliveriesResponse,
              await api(`/api/org/webhooks/${each.id}/deliveries?limit=100`, { headers: { "x-api-key": org.key } }),
            )
            const logged = new Set(data.map((attempt) => attempt.deliveryId))
            for (const message of afterKill.filter((m) => m.org === org)) {
              const id = deliveriesOf(message, each)[0]?.headers["x-service-delivery"]
              expect(logged.has(id as never), `${each.id}: delivery ${id} of ${message.from} logged`).toBe(true)
            }
          }
        }
      },
      { timeoutMs: 20_000, intervalMs: 250 },
    )
    await eventually(
      async () =>
        expect((await attemptsLogged()).map((attempt) => attempt.status).sort()).toEqual([
          "failed",
          "failed",
          "success",
        ]),
      { timeoutMs: 10_000, intervalMs: 250 },
    )
  }, 120_000)

  it("answered no message twice, and delivered duplicates of an event only under its one delivery id", () => {
    expect(sent.length).toBeGreaterThan(3 * ORG_PARTITIONS)
    const answeredTwice = sent.filter((message) => answersTo(message).length !== 1)
    expect(
      answeredTwice.map((message) => `${message.from}: ${answersTo(message).length}`),
      "messages answered other than once",
    ).toEqual([])
    for (const message of sent.filter((m) => m.from !== retriedFrom)) {
      for (const webhook of message.org.webhooks) {
        const deliveries = deliveriesOf(message, webhook)
        // Warm-up messages sent before a dispatcher knew the webhook may have none; everything else one.
        if (deliveries.length === 0) continue
        const ids = new Set(deliveries.map((request) => request.headers["x-service-delivery"]))
        expect(ids.size, `${message.from} → ${webhook.path}: one delivery id`).toBe(1)
        if (deliveries.length > 1)
          console.info(`two of each: ${message.from} delivered ${deliveries.length}× (at least once)`)
      }
    }
  })
})

import { Topics } from "@parley/contracts"
import { withTransaction } from "@parley/db"
import { hmacSha256Hex } from "@parley/platform"
import { eventually } from "@parley/platform/testing"
import { Effect, Schema } from "effect"
import type postgres from "postgres"
import { Agent, request } from "undici"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CloudWebhookBody } from "../src/cloud/payload.ts"
import { readCloudChanges } from "../src/inbound/cloud-changes.ts"
import { ingestCloudPayloads } from "../src/inbound/cloud-ingest.ts"
import {
  APP_SECRET,
  connectCloud,
  eventsOf,
  type FakeProvider,
  inboundPayload,
  newOrg,
  postCloudWebhook,
  type RunningApp,
  recordsOn,
  startApp,
  startFakeProvider,
  startInfrastructure,
  type TestInfrastructure,
  testConfig,
} from "./harness.ts"

let infra: TestInfrastructure
let provider: FakeProvider
let app: RunningApp
const orgId = newOrg()
const PHONE_ID = "2220001"

beforeAll(async () => {
  infra = await startInfrastructure()
  provider = await startFakeProvider()
  app = await startApp(infra, { config: testConfig(provider.server.url), background: false })
  await connectCloud(app, orgId, PHONE_ID)
})

afterAll(async () => {
  await app?.stop()
  await provider?.server.close()
  await infra?.close()
})

const textFrom = (phone: string, id: string, body: string) => ({ from: phone, id, type: "text", text: { body } })

/** Committed ingress transactions and the payloads they held, from `/metrics`. */
const committedBatches = async (target: RunningApp) => {
  const body = (await target.http.inject({ method: "GET", url: "/metrics" })).body
  const read = (suffix: string) =>
    Number(
      new RegExp(
        `^parley_messaging_cloud_ingress_batch_payloads_${suffix}\\{[^}]*outcome="committed"[^}]*\\} (\\S+)$`,
        "m",
      ).exec(body)?.[1] ?? 0,
    )
  return { transactions: read("count"), payloads: read("sum") }
}

/** Holds inserts into messaging.messages until `release()`: ingress transactions wait inside. */
const holdInboundInserts = async () => {
  let release = () => {}
  const released = new Promise<void>((resolve) => {
    release = resolve
  })
  let locked = () => {}
  const isLocked = new Promise<void>((resolve) => {
    locked = resolve
  })
  const holding = infra.db.sql.begin(async (tx) => {
    await tx`lock table messaging.messages in share mode`
    locked()
    await released
  })
  await isLocked
  return {
    release: async () => {
      release()
      await holding
    },
  }
}

const waitingOnLocks = async (sql: postgres.Sql) => {
  const [row] = await sql<Array<{ n: number }>>`
    select count(*)::int as n from pg_locks where not granted and relation = 'messaging.messages'::regclass`
  return row?.n ?? 0
}

describe("cloud ingress group commit", () => {
  it("commits concurrent payloads together, in far fewer transactions than payloads, and stores every one", async () => {
    const before = await committedBatches(app)
    const hold = await holdInboundInserts()
    const total = 40
    const answers = Array.from({ length: total }, (_, i) =>
      postCloudWebhook(app, inboundPayload(PHONE_ID, [textFrom("15550200001", `wamid.gc${i}`, `m${i}`)])),
    )
    // Both batch slots wait on the lock; everything arriving meanwhile piles up behind them.
    await eventually(async () => expect(await waitingOnLocks(infra.db.sql)).toBe(2))
    await hold.release()
    expect((await Promise.all(answers)).map((r) => r.statusCode)).toEqual(Array(total).fill(200))

    const after = await committedBatches(app)
    expect(after.payloads - before.payloads).toBe(total)
    expect(after.transactions - before.transactions).toBeLessThanOrEqual(total / 4)
    const [stored] = await infra.db.sql<Array<{ n: number }>>`
      select count(*)::int as n from messaging.messages where provider_message_id like 'wamid.gc%'`
    expect(stored?.n).toBe(total)
    const fired = (await eventsOf(infra, orgId, "message.inbound")).filter((e) =>
      String(e.data.messageId).startsWith("wamid.gc"),
    )
    expect(fired).toHaveLength(total)
  })

  it("fires a message once when several payloads of one batch carry it, from its first copy", async () => {
    const read = (payload: unknown) =>
      readCloudChanges(Schema.decodeUnknownSync(CloudWebhookBody)(payload), new Date("2026-11-01T10:00:00.000Z"))
    const first = inboundPayload(PHONE_ID, [textFrom("15550200002", "wamid.twice", "first copy")])
    const again = inboundPayload(PHONE_ID, [textFrom("15550200002", "wamid.twice", "first copy")])
    const both = inboundPayload(PHONE_ID, [
      textFrom("15550200002", "wamid.twice", "first copy"),
      textFrom("15550200002", "wamid.other", "another"),
    ])
    const summaries = await infra.runtime.runPromise(
      Effect.gen(function* () {
        const payloads = [yield* read(first), yield* read(again), yield* read(both)]
        return yield* withTransaction((tx) => ingestCloudPayloads(tx, payloads))
      }),
    )
    expect(summaries.map((s) => s.inbound)).toEqual([1, 0, 1])
    const inbound = (await eventsOf(infra, orgId, "message.inbound")).filter((e) =>
      ["wamid.twice", "wamid.other"].includes(String(e.data.messageId)),
    )
    expect(inbound.map((e) => e.data.messageId)).toEqual(["wamid.twice", "wamid.other"])
    const turns = (await recordsOn(infra, Topics.channelInbound, orgId)) as Array<{ messageId: string }>
    expect(turns.filter((t) => t.messageId === "wamid.twice")).toHaveLength(1)

    // And through the webhook: a redelivery racing its copies fires nothing more.
    const redelivered = await Promise.all(Array.from({ length: 6 }, () => postCloudWebhook(app, both)))
    expect(redelivered.map((r) => r.statusCode)).toEqual(Array(6).fill(200))
    expect(
      (await eventsOf(infra, orgId, "message.inbound")).filter((e) => e.data.messageId === "wamid.twice"),
    ).toHaveLength(1)
  })

  it("answers the others 200 when one payload of their batch is refused by the database, and that one as alone", async () => {
    // A real refusal by Postgres for one message id, as a constraint or a full disk would give.
    await infra.db.sql.unsafe(`
      create or replace function messaging.test_refuse_message() returns trigger language plpgsql as $$
      begin
        if new.provider_message_id = 'wamid.refused' then raise exception 'refused for the test'; end if;
        return new;
      end $$;
      create trigger test_refuse_message before insert on messaging.messages
        for each row execute function messaging.test_refuse_message();`)
    try {
      const before = await committedBatches(app)
      const hold = await holdInboundInserts()
      const good = Array.from({ length: 10 }, (_, i) =>
        postCloudWebhook(app, inboundPayload(PHONE_ID, [textFrom("15550200003", `wamid.ok${i}`, `fine ${i}`)])),
      )
      const bad = postCloudWebhook(app, inboundPayload(PHONE_ID, [textFrom("15550200003", "wamid.refused", "no")]))
      await eventually(async () => expect(await waitingOnLocks(infra.db.sql)).toBe(2))
      await hold.release()
      expect((await Promise.all(good)).map((r) => r.statusCode)).toEqual(Array(10).fill(200))
      const refused = await bad
      expect(refused.statusCode).toBe(500)
      expect(refused.json()).toMatchObject({ code: "internal" })

      const [stored] = await infra.db.sql<Array<{ n: number }>>`
        select count(*)::int as n from messaging.messages where provider_message_id like 'wamid.ok%'`
      expect(stored?.n).toBe(10)
      const after = await committedBatches(app)
      expect(after.payloads - before.payloads).toBe(10)
      const rolledBack =
        /parley_messaging_cloud_ingress_batch_payloads_count\{[^}]*outcome="rolled_back"[^}]*\} (\d+)/.exec(
          (await app.http.inject({ method: "GET", url: "/metrics" })).body,
        )
      expect(Number(rolledBack?.[1])).toBeGreaterThanOrEqual(1)
    } finally {
      await infra.db.sql.unsafe(`
        drop trigger if exists test_refuse_message on messaging.messages;
        drop function if exists messaging.test_refuse_message();`)
    }
  })

  it("drops U+0000 from a provider's strings rather than fail the payload on every redelivery", async () => {
    const answer = await postCloudWebhook(
      app,
      inboundPayload(PHONE_ID, [textFrom("15550200005", "wamid.nul", "a\u0000b")]),
    )
    expect(answer.statusCode).toBe(200)
    const [stored] = await infra.db.sql<Array<{ text: string }>>`
      select text from messaging.messages where provider_message_id = 'wamid.nul'`
    expect(stored?.text).toBe("ab")
    const [event] = (await eventsOf(infra, orgId, "message.inbound")).filter((e) => e.data.messageId === "wamid.nul")
    expect(event?.data.text).toBe("ab")
  })

  it("answers every payload in hand before a stopping service's scope closes", async () => {
    const otherOrg = newOrg()
    const stopping = await startApp(infra, { config: testConfig(provider.server.url), background: false })
    await connectCloud(stopping, otherOrg, "2220002")
    const address = await stopping.http.listen({ port: 0, host: "127.0.0.1" })
    let received = 0
    stopping.http.server.on("request", () => received++)
    // Without keep-alive, like a provider that closes after each delivery: a kept-alive idle socket
    // would hold the server's close open until the client drops it.
    const client = new Agent({ pipelining: 0 })
    const hold = await holdInboundInserts()
    const total = 30
    const answers = Array.from({ length: total }, async (_, i) => {
      const payload = JSON.stringify(
        inboundPayload("2220002", [textFrom("15550200004", `wamid.stop${i}`, `before stop ${i}`)]),
      )
      const response = await request(`${address}/channels/cloud/webhook`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-hub-signature-256": `sha256=${hmacSha256Hex(APP_SECRET, payload)}`,
        },
        body: payload,
        dispatcher: client,
      })
      await response.body.dump()
      return response.statusCode
    })
    // Every request is in the server's hands and both batch slots wait on the lock: stop now.
    await eventually(async () => {
      expect(received).toBe(total)
      expect(await waitingOnLocks(infra.db.sql)).toBe(2)
    })
    const stop = stopping.stop()
    await hold.release()
    await stop
    await client.close()
    expect(await Promise.all(answers)).toEqual(Array(total).fill(200))
    const [stored] = await infra.db.sql<Array<{ n: number }>>`
      select count(*)::int as n from messaging.messages where org_id = ${otherOrg} and provider_message_id like 'wamid.stop%'`
    expect(stored?.n).toBe(total)
  })
})

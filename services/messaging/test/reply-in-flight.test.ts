/**
 * A reply is sent once even when its record is handled twice at the same time: on Kafka a rebalance
 * hands a partition to another member (or back to the same one) while a send of the previous owner
 * is still waiting for the provider, and the record comes again. The second handling finds the reply
 * recorded `pending` — in flight, not left by a crash — and must wait for it, not send it again
 * (found by test/e2e/distributed-twice.test.ts, two messaging processes: a customer answered twice).
 */
import { Bus } from "@parley/bus"
import { ChannelOutbound, encodeBusValue, Topics } from "@parley/contracts"
import { eventually } from "@parley/platform/testing"
import { Effect } from "effect"
import { afterAll, beforeAll, expect, it } from "vitest"
import { PendingSendLeaseMs } from "../src/messages/send.ts"
import {
  connectCloud,
  type FakeProvider,
  newOrg,
  type RunningApp,
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

beforeAll(async () => {
  infra = await startInfrastructure()
  provider = await startFakeProvider()
  app = await startApp(infra, { config: testConfig(provider.server.url), retryBaseMs: 20 })
  await connectCloud(app, orgId, "6660099")
})

afterAll(async () => {
  await app?.stop()
  await provider?.server.close()
  await infra?.close()
})

/** Publishes the same reply twice while the provider answers after `latencyMs`; answers its sends. */
const replyTwice = async (question: string, to: string, text: string, latencyMs: number) => {
  await infra.db.sql`
    insert into messaging.messages (id, org_id, channel, direction, phone, type, text, provider_message_id, status)
    values (${`msg_${question.replace(/[^a-z]/g, "")}`}, ${orgId}, 'cloud', 'inbound', ${to}, 'text', 'Are you open?',
            ${question}, 'received')`
  provider.setLatencyMs(latencyMs)
  const reply = encodeBusValue(ChannelOutbound, {
    orgId,
    channel: "cloud",
    to,
    text,
    inReplyTo: question,
  })
  await infra.runtime.runPromise(
    Effect.gen(function* () {
      const bus = yield* Bus
      yield* bus.publish([
        { topic: Topics.channelOutbound, key: orgId, value: reply },
        { topic: Topics.channelOutbound, key: orgId, value: reply },
      ])
    }),
  )
  // Both records are done and the reply is recorded sent, once.
  await eventually(
    async () => {
      const rows = await infra.db.sql`
        select status from messaging.messages where org_id = ${orgId} and direction = 'outbound' and phone = ${to}`
      expect(rows.map((row) => row.status)).toEqual(["sent"])
      expect(await committed()).toBe(done + 2)
    },
    { timeoutMs: latencyMs + 10_000, intervalMs: 50 },
  )
  done += 2
  provider.setLatencyMs(0)
  return provider.sends().filter((send) => JSON.stringify(send.body).includes(text))
}

let done = 0
const committed = async () => {
  const [row] = await infra.db.sql`
    select coalesce(max(committed), 0)::int as n from parley_bus.group_offsets
    where group_id = 'messaging.channel-outbound' and topic = ${Topics.channelOutbound}`
  return row?.n as number
}

it("sends a reply once when its record is handled again while the first send waits for the provider", async () => {
  expect(await replyTwice("wamid.open-today", "14155550299", "Yes, until 6", 800)).toHaveLength(1)
})

it("keeps a send that outlasts the lease its own by renewing it: the second handling still waits", async () => {
  const sends = await replyTwice("wamid.open-sunday", "14155550298", "Closed on Sundays", PendingSendLeaseMs + 1_500)
  expect(sends).toHaveLength(1)
}, 30_000)

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

it("sends a reply once when its record is handled again while the first send waits for the provider", async () => {
  await infra.db.sql`
    insert into messaging.messages (id, org_id, channel, direction, phone, type, text, provider_message_id, status)
    values ('msg_question99', ${orgId}, 'cloud', 'inbound', '14155550299', 'text', 'Are you open?',
            'wamid.open-today', 'received')`
  // The provider takes a while to answer, so the second record arrives while the first send waits.
  provider.setLatencyMs(800)
  const reply = encodeBusValue(ChannelOutbound, {
    orgId: orgId as never,
    channel: "cloud",
    to: "14155550299",
    text: "Yes, until 6",
    inReplyTo: "wamid.open-today",
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
  // Both records are done (committed past) and the reply is recorded sent, once.
  await eventually(
    async () => {
      const rows = await infra.db.sql`
        select status from messaging.messages where org_id = ${orgId} and direction = 'outbound'`
      expect(rows.map((row) => row.status)).toEqual(["sent"])
      const offsets = await infra.db.sql`
        select count(*)::int as n from parley_bus.group_offsets where group_id = 'messaging.channel-outbound'
          and topic = ${Topics.channelOutbound} and committed >= 2`
      expect(offsets[0]?.n).toBeGreaterThan(0)
    },
    { timeoutMs: 15_000, intervalMs: 50 },
  )
  provider.setLatencyMs(0)
  expect(provider.sends().filter((send) => JSON.stringify(send.body).includes("Yes, until 6"))).toHaveLength(1)
})

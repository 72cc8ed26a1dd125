/**
 * No accepted reply is lost (DESIGN §3.1, issue #22): the assistant's reply is recorded `pending`,
 * then sent. The messaging service runs as its own process, exactly as deployed, and is SIGKILLed
 * by the provider stand-in the moment the reply's send reaches it — the last instant before the
 * provider's answer would be stored, which leaves what a kill anywhere between recording and
 * answering leaves: the reply `pending`, the bus record not committed. After a restart the record
 * is delivered again and the reply is sent (at least once: the Graph API has no idempotency key, so
 * the stand-in sees it twice), never skipped as a duplicate of itself.
 */
import { Bus } from "@parley/bus"
import { ChannelOutbound, encodeBusValue, Topics } from "@parley/contracts"
import { eventually, type ServiceProcess, startServiceProcess } from "@parley/platform/testing"
import { Effect } from "effect"
import { afterAll, beforeAll, expect, it } from "vitest"
import {
  APP_SECRET,
  type FakeProvider,
  INTERNAL_SECRET,
  newOrg,
  principalHeader,
  startFakeProvider,
  startInfrastructure,
  type TestInfrastructure,
} from "./harness.ts"

let infra: TestInfrastructure
let provider: FakeProvider
const children: Array<ServiceProcess> = []
const orgId = newOrg()

const startMessaging = async () => {
  const child = await startServiceProcess({
    name: "messaging",
    main: new URL("../src/main.ts", import.meta.url),
    portVariable: "PARLEY_MESSAGING_PORT",
    env: {
      DATABASE_URL: infra.db.url,
      PARLEY_SECRET_KEY: Buffer.alloc(32, 7).toString("base64"),
      PARLEY_INTERNAL_SECRET: INTERNAL_SECRET,
      PARLEY_CLOUD_API_URL: provider.server.url,
      PARLEY_CLOUD_APP_SECRET: APP_SECRET,
    },
  })
  children.push(child)
  return child
}

beforeAll(async () => {
  infra = await startInfrastructure()
  provider = await startFakeProvider()
}, 60_000)
afterAll(async () => {
  provider?.onSend(undefined)
  for (const child of children) await child.kill()
  await provider?.server.close()
  await infra?.close()
})

it("sends a reply left pending by a SIGKILL once the restarted service gets its record again", async () => {
  const first = await startMessaging()
  const connected = await fetch(`${first.url}/api/channels/cloud`, {
    method: "PUT",
    headers: { "x-parley-principal": principalHeader(orgId), "content-type": "application/json" },
    body: JSON.stringify({ phoneNumberId: "6660088", businessAccountId: "8880088", accessToken: "token" }),
  })
  expect(connected.status).toBe(200)

  // The customer's question the reply answers (it also opens the 24-hour service window).
  await infra.db.sql`
    insert into messaging.messages (id, org_id, channel, direction, phone, type, text, provider_message_id, status)
    values ('msg_question01', ${orgId}, 'cloud', 'inbound', '14155550222', 'text', 'When do you open?',
            'wamid.opening-hours', 'received')`
  let killed: Promise<void> | undefined
  provider.onSend((to) => {
    if (to === "14155550222" && killed === undefined) killed = first.kill()
  })
  const reply = encodeBusValue(ChannelOutbound, {
    orgId,
    channel: "cloud",
    to: "14155550222",
    text: "We open at 9",
    inReplyTo: "wamid.opening-hours",
  })
  await infra.runtime.runPromise(
    Effect.gen(function* () {
      const bus = yield* Bus
      yield* bus.publish([{ topic: Topics.channelOutbound, key: orgId, value: reply }])
    }),
  )
  await eventually(() => expect(killed).toBeDefined(), { timeoutMs: 30_000 })
  await killed
  provider.onSend(undefined)
  const left = await infra.db.sql`
    select id, status from messaging.messages where org_id = ${orgId} and direction = 'outbound'`
  expect(left.map((row) => row.status)).toEqual(["pending"])

  await startMessaging()
  await eventually(
    async () => {
      const rows = await infra.db.sql`
        select id, status from messaging.messages where org_id = ${orgId} and direction = 'outbound'`
      expect(rows.map((row) => [row.id, row.status])).toEqual([[left[0]?.id, "sent"]])
    },
    { timeoutMs: 40_000 },
  )
  const sends = provider.sends().filter((send) => JSON.stringify(send.body).includes("We open at 9"))
  expect(sends).toHaveLength(2)
}, 90_000)

import { Context, Effect, Exit, Fiber, Layer, Option, Scope } from "effect"
import { afterAll, beforeAll, expect, it } from "vitest"
import { migrateMessaging } from "../src/app.ts"
import { type PendingRow, SendWriteBatches } from "../src/messages/send-writes.ts"
import { newOrg, startInfrastructure, type TestInfrastructure } from "./harness.ts"

let infra: TestInfrastructure
const orgId = newOrg()
const orgWithoutChannel = newOrg()

beforeAll(async () => {
  infra = await startInfrastructure()
  await infra.runtime.runPromise(migrateMessaging)
  await infra.db.sql`
    insert into messaging.channels (id, org_id, kind, phone_number_id, sandbox)
    values ('ch_batches', ${orgId}, 'cloud', '7770001', true)`
  await infra.db.sql`
    insert into messaging.messages (id, org_id, channel, direction, phone, type, text, status, source_key)
    values ('msg_earlier', ${orgId}, 'cloud', 'outbound', '14155550100', 'text', 'hi', 'pending', 'reply:earlier')`
})

afterAll(async () => {
  await infra?.close()
})

const pending = (id: string, org = orgId): PendingRow => ({
  id,
  orgId: org,
  channel: undefined,
  phone: "14155550101",
  type: "text",
  text: "Your table is ready",
  campaignId: null,
  sourceKey: `reply:${id}`,
})

it("records sends on their organization's channel and settles another send in the same transaction", async () => {
  const scope = Scope.makeUnsafe()
  const writes = await infra.runtime.runPromise(
    Layer.buildWithScope(SendWriteBatches.layer, scope).pipe(Effect.map(Context.get(SendWriteBatches))),
  )
  // The first two leave at once, one batch each (two in flight at most); the rest pile up behind.
  const first = [writes.record(pending("msg_first")), writes.record(pending("msg_second"))].map((write) =>
    Effect.runFork(write),
  )
  const settled = Effect.runFork(writes.settle({ id: "msg_earlier", providerMessageId: "wamid.earlier", error: null }))
  const recorded = Effect.runFork(writes.record(pending("msg_later")))
  const unrecorded = Effect.runFork(writes.record(pending("msg_nowhere", orgWithoutChannel)))
  for (const fiber of first) expect(Option.getOrThrow(await Effect.runPromise(Fiber.join(fiber))).id).toBe("ch_batches")
  await Effect.runPromise(Fiber.join(settled))
  expect(Option.map(await Effect.runPromise(Fiber.join(recorded)), (channel) => channel.kind)).toEqual(
    Option.some("cloud"),
  )
  expect(Option.isNone(await Effect.runPromise(Fiber.join(unrecorded)))).toBe(true)

  const rows = await infra.db.sql<Array<{ id: string; status: string; channel: string; tx: string }>>`
    select id, status, channel, xmin::text as tx from messaging.messages where org_id = ${orgId} order by id`
  expect(rows.map(({ id, status, channel }) => ({ id, status, channel }))).toEqual([
    { id: "msg_earlier", status: "sent", channel: "cloud" },
    { id: "msg_first", status: "pending", channel: "cloud" },
    { id: "msg_later", status: "pending", channel: "cloud" },
    { id: "msg_second", status: "pending", channel: "cloud" },
  ])
  const txOf = new Map(rows.map((row) => [row.id, row.tx]))
  expect(txOf.get("msg_later")).toBe(txOf.get("msg_earlier"))
  expect(await infra.db.sql`select 1 from messaging.messages where org_id = ${orgWithoutChannel}`).toHaveLength(0)
  await Effect.runPromise(Scope.close(scope, Exit.void))
})

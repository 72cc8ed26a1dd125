import type { OutgoingRecord } from "@parley/bus"
import { AttemptRecord, type DeliveryRecord, decodeBusValue, Topics } from "@parley/contracts"
import { clientOptions, loadMigrations, migrate } from "@parley/db"
import { type FreshDatabase, freshDatabase } from "@parley/db/testing"
import { newId } from "@parley/platform"
import { Effect } from "effect"
import postgres from "postgres"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type AttemptOutcome, recordsOf } from "./attempt.ts"
import { AttemptLog } from "./attempt-log.ts"

let db: FreshDatabase
let sql: postgres.Sql
let log: AttemptLog

beforeAll(async () => {
  db = await freshDatabase()
  sql = postgres(db.url, clientOptions(2))
  await Effect.runPromise(
    migrate({
      sql,
      schema: "log_test",
      migrations: await Effect.runPromise(loadMigrations(new URL("../../migrations/", import.meta.url))),
    }),
  )
  log = new AttemptLog(sql, "log_test")
})
afterAll(async () => {
  await sql?.end()
  await db?.close()
})

const webhookId = newId("wh")
const orgId = newId("org")
const delivery = (attempt: 1 | 2 | 3 = 1): DeliveryRecord =>
  ({
    deliveryId: newId("dlv"),
    webhookId,
    orgId,
    eventId: newId("evt"),
    event: "lead.created",
    timestamp: "2026-11-25T09:30:00.000Z",
    data: { phone: "14155550100", name: "Ada", type: "GENERAL_INQUIRY", booking: null },
    attempt,
    notBefore: "2026-11-25T09:30:00.000Z",
    reason: "event",
  }) as DeliveryRecord

const failed: AttemptOutcome = {
  ok: false,
  responseStatus: 503,
  error: "HTTP 503",
  durationMs: 12,
  attemptedAt: Date.parse("2026-11-25T09:30:01.000Z"),
  retryAt: Date.parse("2026-11-25T09:30:06.012Z"),
}

describe("the attempt log", () => {
  it("finds an attempt's outcome, and the records rebuilt from it are the ones first published", async () => {
    const first = delivery()
    const published = recordsOf(first, failed)
    await log.record(first.deliveryId, 1, failed)
    const found = await log.find(first.deliveryId, 1)
    expect(found?.outcome).toEqual(failed)
    expect(recordsOf(first, found?.outcome as AttemptOutcome)).toEqual(published)
    // The attempt record and the retry of attempt 2, due when the outcome said.
    expect(published.map((record) => record.topic)).toEqual([Topics.dispatchAttempts, Topics.dispatchRetry5s])
    const attempt = await Effect.runPromise(decodeBusValue(AttemptRecord)((published[0] as OutgoingRecord).value))
    expect(attempt).toMatchObject({ attempt: 1, status: "failed", responseStatus: 503, error: "HTTP 503" })
    expect(JSON.parse((published[1] as OutgoingRecord).value)).toMatchObject({
      attempt: 2,
      notBefore: "2026-11-25T09:30:06.012Z",
    })
  })

  it("keeps the first outcome of an attempt recorded twice, and knows nothing of other attempts", async () => {
    const twice = delivery()
    await log.record(twice.deliveryId, 1, failed)
    await log.record(twice.deliveryId, 1, { ...failed, ok: true, error: null, responseStatus: 200, retryAt: null })
    expect((await log.find(twice.deliveryId, 1))?.outcome).toEqual(failed)
    expect(await log.find(twice.deliveryId, 2)).toBeUndefined()
    expect(await log.find(newId("dlv"), 1)).toBeUndefined()
  })

  it("still reads rows written before outcomes were kept: their records", async () => {
    const old = delivery()
    const records = recordsOf(old, failed)
    await sql`
      insert into log_test.attempt_log (delivery_id, attempt, records)
      values (${old.deliveryId}, 1, ${JSON.stringify(records)})`
    expect(await log.find(old.deliveryId, 1)).toEqual({ records })
  })
})

import { afterAll, beforeAll, expect, it } from "vitest"
import { msUntilNextReport } from "../src/sandbox/reporter.ts"
import {
  newOrg,
  type RunningApp,
  startApp,
  startInfrastructure,
  type TestInfrastructure,
  testConfig,
} from "./harness.ts"

/**
 * How long the sandbox's status reporter sleeps, read from the real table: with no report waiting
 * it must sleep its idle interval. It once read "nothing waiting" as "due now" (`greatest(0, NULL)`
 * is 0) and polled every 10 ms, two statements each time, on every idle Parley.
 */

let infra: TestInfrastructure
let app: RunningApp

beforeAll(async () => {
  infra = await startInfrastructure()
  // No provider is called here: the URL only completes the configuration.
  app = await startApp(infra, { config: testConfig("http://127.0.0.1:9") })
})

afterAll(async () => {
  await app?.stop()
  await infra?.close()
})

const insertReport = (messageId: string, dueInMs: number | null) =>
  infra.db.sql`
    insert into messaging.sandbox_outbox (message_id, org_id, phone_number_id, client_ref, recipient, type, status, next_status_at)
    values (${messageId}, ${newOrg()}, 'sandbox-phone', ${messageId}, '15550001111', 'text', 'sent',
            ${dueInMs === null ? null : infra.db.sql`now() + ${dueInMs} * interval '1 millisecond'`})`

it("reads no report waiting as nothing to wait for, not as due now", async () => {
  expect(await msUntilNextReport(infra.db.sql)).toBeUndefined()
  // A message whose reports are all done (next_status_at null) is not waiting either.
  await insertReport("msg-done", null)
  expect(await msUntilNextReport(infra.db.sql)).toBeUndefined()
})

it("reads the nearest report's time, and an overdue one as due now", async () => {
  await insertReport("msg-later", 60_000)
  await insertReport("msg-sooner", 3_000)
  const wait = await msUntilNextReport(infra.db.sql)
  expect(wait).toBeGreaterThan(2_000)
  expect(wait).toBeLessThanOrEqual(3_000)
  await insertReport("msg-overdue", -5_000)
  expect(await msUntilNextReport(infra.db.sql)).toBeLessThanOrEqual(0)
})

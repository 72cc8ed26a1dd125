import { afterAll, beforeAll, expect, it } from "vitest"
import {
  asTenant,
  newOrg,
  type RunningApp,
  startApp,
  startInfrastructure,
  type TestInfrastructure,
  testConfig,
} from "./harness.ts"

let infra: TestInfrastructure
let app: RunningApp
const orgId = newOrg()

beforeAll(async () => {
  infra = await startInfrastructure()
  // No worker: this file measures acceptance only.
  app = await startApp(infra, { config: testConfig("http://127.0.0.1:9"), background: false })
  // A sandbox channel: this file never reaches a provider (a real channel's connection asks one).
  expect((await asTenant(app, orgId, "PUT", "/api/channels/cloud", { sandbox: true })).statusCode).toBe(200)
  await infra.db.sql`
    insert into messaging.templates (id, org_id, name, language, category, components, status)
    values ('tpl_scale000000000000000', ${orgId}, 'big_news', 'en_US', 'MARKETING', '[]', 'APPROVED')`
})

afterAll(async () => {
  await app?.stop()
  await infra?.close()
})

// The route's declared limit (CAMPAIGN_BODY_LIMIT in packages/contracts/src/api/routes/messaging.ts),
// which the gateway and this service both apply: written out here, so a change to it fails this file.
const CAMPAIGN_LIMIT = 4 * 1024 * 1024

it("accepts a campaign of 100,000 recipients in one request, storing every one before answering 202", async () => {
  // Written as people write numbers, the gateway's example form: ~2 MB, over 1 MiB, under 4 MiB.
  const recipients = Array.from({ length: 100_000 }, (_, i) => {
    const digits = String(i).padStart(7, "0")
    return `+1 (555) ${digits.slice(0, 3)}-${digits.slice(3)}`
  })
  const body = JSON.stringify({ name: "Everyone", template: { name: "big_news", language: "en_US" }, recipients })
  expect(Buffer.byteLength(body)).toBeGreaterThan(1024 * 1024)
  expect(Buffer.byteLength(body)).toBeLessThan(CAMPAIGN_LIMIT)
  const started = performance.now()
  const response = await asTenant(app, orgId, "POST", "/api/campaigns", body, { "content-type": "application/json" })
  const seconds = (performance.now() - started) / 1000
  console.info(`campaign of 100000 recipients (${Buffer.byteLength(body)} bytes) accepted in ${seconds.toFixed(2)} s`)
  expect(response.statusCode).toBe(202)
  expect(response.json()).toMatchObject({ status: "running", totalRecipients: 100_000 })
  const [stored] = await infra.db.sql`
    select count(*)::int as n, min(phone) as first from messaging.campaign_recipients
    where campaign_id = ${response.json().id} and state = 'pending'`
  expect(stored).toEqual({ n: 100_000, first: "15550000000" })
})

it("accepts a campaign body of exactly 4 MiB, the gateway's limit, and answers 413 one byte over", async () => {
  const json = JSON.stringify({ name: "Padded", template: { name: "big_news", language: "en_US" }, recipients: [] })
  // JSON allows whitespace between tokens: pad inside the array to the exact size wanted.
  const padded = (size: number) => {
    const head = json.slice(0, -2)
    const tail = `"15550009999"]}`
    return `${head}${" ".repeat(size - head.length - tail.length)}${tail}`
  }
  const atLimit = padded(CAMPAIGN_LIMIT)
  expect(Buffer.byteLength(atLimit)).toBe(CAMPAIGN_LIMIT)
  const accepted = await asTenant(app, orgId, "POST", "/api/campaigns", atLimit, { "content-type": "application/json" })
  expect(accepted.statusCode).toBe(202)
  expect(accepted.json()).toMatchObject({ totalRecipients: 1 })
  const over = await asTenant(app, orgId, "POST", "/api/campaigns", padded(CAMPAIGN_LIMIT + 1), {
    "content-type": "application/json",
  })
  expect(over.statusCode).toBe(413)
  expect(over.json()).toMatchObject({ code: "payload_too_large" })
})

import { afterAll, beforeAll, expect, it } from "vitest"
import {
  asTenant,
  connectCloud,
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
  await connectCloud(app, orgId, "9990001", "9990002")
  await infra.db.sql`
    insert into messaging.templates (id, org_id, name, language, category, components, status)
    values ('tpl_scale000000000000000', ${orgId}, 'big_news', 'en_US', 'MARKETING', '[]', 'APPROVED')`
})

afterAll(async () => {
  await app?.stop()
  await infra?.close()
})

it("accepts a campaign of 100,000 recipients in one request, storing every one before answering 202", async () => {
  const recipients = Array.from({ length: 100_000 }, (_, i) => `+1 (555) ${String(i).padStart(7, "0")}`)
  const started = performance.now()
  const response = await asTenant(app, orgId, "POST", "/api/campaigns", {
    name: "Everyone",
    template: { name: "big_news", language: "en_US" },
    recipients,
  })
  const seconds = (performance.now() - started) / 1000
  console.info(`campaign of 100000 recipients accepted in ${seconds.toFixed(2)} s`)
  expect(response.statusCode).toBe(202)
  expect(response.json()).toMatchObject({ status: "running", totalRecipients: 100_000 })
  const [stored] = await infra.db.sql`
    select count(*)::int as n, min(phone) as first from messaging.campaign_recipients
    where campaign_id = ${response.json().id} and state = 'pending'`
  expect(stored).toEqual({ n: 100_000, first: "15550000000" })
})

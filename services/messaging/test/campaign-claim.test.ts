/**
 * A campaign worker claims at most its batch, whatever plan the server picks for the claim. As
 * `seq in (select … limit n for update skip locked)`, a nested-loop semi-join (what a generic plan
 * chose under load) ran the subquery once per joined row, each run locking the next n: one claim
 * took a whole campaign, and a STOP sent while it ran was read long before that customer's send,
 * which then went out (docs/contract.md §9). The planner settings below force that plan.
 */
import { afterAll, beforeAll, expect, it } from "vitest"
import { claimRecipients } from "../src/campaigns/worker.ts"
import {
  newOrg,
  type RunningApp,
  startApp,
  startInfrastructure,
  type TestInfrastructure,
  testConfig,
} from "./harness.ts"

let infra: TestInfrastructure
let app: RunningApp

beforeAll(async () => {
  infra = await startInfrastructure()
  // Its migrations only: no worker runs, so the claim below is the only one.
  app = await startApp(infra, { config: testConfig("http://127.0.0.1:9"), background: false })
})

afterAll(async () => {
  await app?.stop()
  await infra?.close()
})

it("claims at most the batch, also when the server joins the pick as a nested loop", async () => {
  const campaign = { id: "cmp_claim_plan", org_id: newOrg() }
  const { sql } = infra.db
  await sql`
    insert into messaging.campaigns (id, org_id, name, template_name, template_language, status, total_recipients)
    values (${campaign.id}, ${campaign.org_id}, 'Plan', 'promo', 'en_US', 'running', 300)`
  await sql`
    insert into messaging.campaign_recipients (campaign_id, seq, phone)
    select ${campaign.id}, seq, '1415555' || lpad(seq::text, 4, '0') from generate_series(1, 300) as seq`
  await sql`insert into messaging.opt_outs (org_id, phone, source) values (${campaign.org_id}, '14155550005', 'keyword')`
  await sql`analyze messaging.campaign_recipients`
  const claimed = await sql.begin(async (tx) => {
    for (const setting of ["enable_hashagg", "enable_sort", "enable_hashjoin", "enable_mergejoin", "enable_material"]) {
      await tx.unsafe(`set local ${setting} = off`)
    }
    return claimRecipients(tx, campaign, 13, "cw_test")
  })
  expect(claimed.map((r) => r.seq)).toEqual(Array.from({ length: 13 }, (_, i) => i + 1))
  expect(claimed.filter((r) => r.opted_out).map((r) => r.phone)).toEqual(["14155550005"])
  const [held] = await sql<Array<{ n: number }>>`
    select count(*)::int as n from messaging.campaign_recipients where campaign_id = ${campaign.id} and state = 'claimed'`
  expect(held?.n).toBe(13)
})

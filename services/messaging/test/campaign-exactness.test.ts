/**
 * A campaign completes once, with every recipient counted (docs/contract.md §7, §9): `campaign.completed`
 * never fires while a recipient is still pending, claimed or being sent — whoever holds it — and a
 * throughput refusal is retried, never counted a failure. (The hard kill of a separate process is
 * `campaign-crash.test.ts`.)
 */
import { eventually } from "@parley/platform/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  approveTemplate,
  asTenant,
  connectCloud,
  eventsOf,
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
const orgId = newOrg()
const WABA = "8880031"
const PHONE_ID = "6660031"

const list = (count: number, prefix: string) =>
  Array.from({ length: count }, (_, i) => `1${prefix}${String(i).padStart(10 - prefix.length, "0")}`)

const campaignOf = async (app: RunningApp, id: string) =>
  (await asTenant(app, orgId, "GET", `/api/campaigns/${id}`)).json() as {
    status: string
    sent: number
    failed: number
    totalRecipients: number
  }

const completedEvents = async (id: string) =>
  (await eventsOf(infra, orgId, "campaign.completed")).filter((e) => e.data.campaignId === id)

beforeAll(async () => {
  infra = await startInfrastructure()
  provider = await startFakeProvider()
  const setup = await startApp(infra, { config: testConfig(provider.server.url), background: false })
  try {
    await connectCloud(setup, orgId, PHONE_ID, WABA)
    const created = await asTenant(setup, orgId, "POST", "/api/templates", {
      name: "exact",
      language: "en_US",
      category: "MARKETING",
      components: [{ type: "BODY", text: "Hello {{1}}" }],
    })
    expect(created.statusCode).toBe(201)
    await approveTemplate(setup, WABA, "exact")
  } finally {
    await setup.stop()
  }
}, 60_000)

afterAll(async () => {
  await provider?.server.close()
  await infra?.close()
})

const create = async (app: RunningApp, name: string, phones: ReadonlyArray<string>) => {
  const created = await asTenant(app, orgId, "POST", "/api/campaigns", {
    name,
    template: { name: "exact", language: "en_US" },
    recipients: phones.map((phone, i) => ({ phone, variables: [`friend ${i}`] })),
  })
  expect(created.statusCode, created.body).toBe(202)
  return String(created.json().id)
}

describe("completing a campaign", () => {
  it("does not complete while another worker holds recipients claimed inside its lease, keeps sending other campaigns meanwhile, and sends the held ones once the lease runs out", async () => {
    const setup = await startApp(infra, { config: testConfig(provider.server.url), background: false })
    const phones = list(6, "41590")
    const id = await create(setup, "Held", phones)
    const next = await create(setup, "Next", list(3, "41592"))
    await setup.stop()
    // Another instance claimed two recipients a moment ago and has not called the provider yet
    // (it is waiting for its pace slot, or was killed inside its lease): they are not settled.
    await infra.db.sql`
      update messaging.campaign_recipients set state = 'claimed', claimed_at = now(), claim_token = 'cw_other'
      where campaign_id = ${id} and seq in (5, 6)`
    const worker = await startApp(infra, {
      config: testConfig(provider.server.url),
      campaigns: { claimLeaseMs: 5000, pollMs: 100 },
    })
    try {
      // The campaign created after it is not held up (checking "Held" for completion while two of
      // its recipients are claimed must neither complete it nor fail the worker's round).
      await eventually(async () => expect((await campaignOf(worker, next)).status).toBe("completed"), {
        timeoutMs: 3000,
        intervalMs: 50,
      })
      // Everything this worker could send is sent; the held two are not: no completion yet.
      expect((await campaignOf(worker, id)).sent).toBe(4)
      expect((await campaignOf(worker, id)).status).toBe("running")
      expect(await completedEvents(id)).toEqual([])
      // The other's lease runs out (it died): its claims come back and are sent.
      const done = await eventually(
        async () => {
          const campaign = await campaignOf(worker, id)
          expect(campaign.status).toBe("completed")
          return campaign
        },
        { timeoutMs: 15_000 },
      )
      expect(done).toMatchObject({ totalRecipients: 6, sent: 6, failed: 0 })
      const accepted = provider.accepted().filter((a) => phones.includes(a.to))
      expect(accepted.map((a) => a.to).sort()).toEqual([...phones].sort())
      expect((await completedEvents(id)).map((e) => e.data)).toEqual([
        { campaignId: id, name: "Held", totalRecipients: 6, sent: 6, failed: 0 },
      ])
    } finally {
      await worker.stop()
    }
  })

  it("with two instances racing and the provider throttling every 7th send, sends each recipient once, counts no throttle as a failure, keeps to the pace and completes once", async () => {
    const rate = 100
    const config = testConfig(provider.server.url, { campaignRatePerSecond: rate })
    const options = { config, campaigns: { retryBaseMs: 100, pollMs: 100 } }
    const [a, b] = await Promise.all([startApp(infra, options), startApp(infra, options)])
    provider.throttleEvery(7)
    const phones = list(400, "41591")
    const since = provider.accepted().length
    const sendsBefore = provider.sends().length
    try {
      const id = await create(a, "Raced", phones)
      const done = await eventually(
        async () => {
          const campaign = await campaignOf(b, id)
          expect(campaign.status).toBe("completed")
          return campaign
        },
        { timeoutMs: 60_000, intervalMs: 100 },
      )
      expect(done).toMatchObject({ totalRecipients: 400, sent: 400, failed: 0 })
      const accepted = provider.accepted().slice(since)
      const perRecipient = new Map<string, number>()
      for (const send of accepted) perRecipient.set(send.to, (perRecipient.get(send.to) ?? 0) + 1)
      for (const phone of phones) expect(perRecipient.get(phone), phone).toBe(1)
      const attempts = provider.sends().length - sendsBefore
      const throttled = attempts - accepted.length
      expect(throttled).toBeGreaterThan(40)
      // Every attempt, throttled ones included, was a paced slot of the one number shared by both
      // instances: over any second-long stretch, at most the rate (plus one block of slack).
      const times = provider.server.requests.slice(-attempts).map((r) => r.receivedAt)
      const spanMs = Math.max(...times) - Math.min(...times)
      expect(attempts / (spanMs / 1000)).toBeLessThanOrEqual(rate * 1.1)
      // The body parameters went out with each recipient's own values.
      expect(provider.sends().at(-1)?.body).toMatchObject({
        template: {
          components: [{ type: "body", parameters: [{ type: "text", text: expect.stringMatching(/^friend \d+$/) }] }],
        },
      })
      const rows = await infra.db.sql<Array<{ state: string; throttled: number }>>`
        select state, throttled from messaging.campaign_recipients where campaign_id = ${id}`
      expect(rows.every((r) => r.state === "sent")).toBe(true)
      expect(rows.reduce((n, r) => n + r.throttled, 0)).toBe(throttled)
      expect((await completedEvents(id)).map((e) => e.data)).toEqual([
        { campaignId: id, name: "Raced", totalRecipients: 400, sent: 400, failed: 0 },
      ])
      console.log(
        `two instances, ${phones.length} recipients at ${rate}/s: ${attempts} provider calls (${throttled} throttled and retried) in ${Math.round(spanMs)} ms = ${(attempts / (spanMs / 1000)).toFixed(1)} calls/s`,
      )
    } finally {
      provider.throttleEvery(0)
      await Promise.all([a.stop(), b.stop()])
    }
  }, 90_000)
})

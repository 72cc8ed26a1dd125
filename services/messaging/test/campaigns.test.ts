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
const WABA = "8880001"
const PHONE_ID = "6660001"

/** Per recipient, how many times the provider was asked to send to it. */
const sendsPerRecipient = (): Map<string, number> => {
  const counts = new Map<string, number>()
  for (const send of provider.sends()) counts.set(String(send.body.to), (counts.get(String(send.body.to)) ?? 0) + 1)
  return counts
}

const recipients = (count: number, prefix: string) =>
  Array.from({ length: count }, (_, i) => `+1 41${prefix} ${String(i).padStart(7, "0")}`)

const campaignOf = async (app: RunningApp, id: string) =>
  (await asTenant(app, orgId, "GET", `/api/campaigns/${id}`)).json() as {
    status: string
    sent: number
    failed: number
    totalRecipients: number
    completedAt: string | null
  }

beforeAll(async () => {
  infra = await startInfrastructure()
  provider = await startFakeProvider()
  const setup = await startApp(infra, { config: testConfig(provider.server.url), background: false })
  try {
    await connectCloud(setup, orgId, PHONE_ID, WABA)
    for (const name of ["launch", "draft"]) {
      const created = await asTenant(setup, orgId, "POST", "/api/templates", {
        name,
        language: "en_US",
        category: "MARKETING",
        components: [{ type: "BODY", text: "News!" }],
      })
      expect(created.statusCode).toBe(201)
    }
    await approveTemplate(setup, WABA, "launch")
  } finally {
    await setup.stop()
  }
})

afterAll(async () => {
  await provider?.server.close()
  await infra?.close()
})

describe("creating a campaign", () => {
  let app: RunningApp
  beforeAll(async () => {
    app = await startApp(infra, { config: testConfig(provider.server.url), background: false })
  })
  afterAll(() => app?.stop())

  it("answers 409 saying whether the template is not APPROVED or does not exist", async () => {
    for (const [template, error] of [
      [{ name: "draft", language: "en_US" }, "Template draft (en_US) is not approved"],
      [{ name: "nope", language: "en_US" }, "Template nope (en_US) does not exist"],
      [{ name: "launch", language: "fr" }, "Template launch (fr) does not exist"],
    ] as const) {
      for (const dryRun of [false, true]) {
        const response = await asTenant(app, orgId, "POST", "/api/campaigns", {
          name: "x",
          template,
          recipients: ["15550000001"],
          dryRun,
        })
        expect(response.statusCode).toBe(409)
        expect(response.json()).toEqual({ error, code: "conflict" })
      }
    }
  })

  it("answers 400 to no recipients, more than 100000, or a recipient that is not a number", async () => {
    const template = { name: "launch", language: "en_US" }
    for (const list of [[], recipients(100_001, "4"), ["hello"]]) {
      const response = await asTenant(app, orgId, "POST", "/api/campaigns", { name: "x", template, recipients: list })
      expect(response.statusCode).toBe(400)
    }
  })

  it("answers 404 for an unknown campaign or another organization's", async () => {
    const created = await asTenant(app, orgId, "POST", "/api/campaigns", {
      name: "private",
      template: { name: "launch", language: "en_US" },
      recipients: ["15550000009"],
    })
    const id = created.json().id
    expect((await asTenant(app, newOrg(), "GET", `/api/campaigns/${id}`)).statusCode).toBe(404)
    expect((await asTenant(app, orgId, "GET", "/api/campaigns/cmp_unknown")).statusCode).toBe(404)
  })
})

describe("running a campaign", () => {
  it("answers 202 at once, sends every recipient exactly once, and fires campaign.completed once with the totals", async () => {
    const app = await startApp(infra, { config: testConfig(provider.server.url, { campaignRatePerSecond: 500 }) })
    try {
      const list = recipients(120, "2")
      // One refusal: that recipient counts as failed, the rest still go.
      provider.refuseRecipient("14120000007")
      const created = await asTenant(app, orgId, "POST", "/api/campaigns", {
        name: "Spring launch",
        template: { name: "launch", language: "en_US" },
        recipients: [...list, list[0]],
      })
      expect(created.statusCode).toBe(202)
      const { id, status, totalRecipients } = created.json()
      expect(id).toMatch(/^cmp_/)
      expect(status).toBe("running")
      expect(totalRecipients).toBe(120)

      const done = await eventually(
        async () => {
          const campaign = await campaignOf(app, id)
          expect(campaign.status).toBe("completed")
          return campaign
        },
        { timeoutMs: 20_000 },
      )
      expect(done).toMatchObject({ totalRecipients: 120, sent: 119, failed: 1 })
      expect(done.completedAt).toMatch(/Z$/)
      const counts = sendsPerRecipient()
      for (const phone of list.map((p) => p.replace(/\D/g, ""))) expect(counts.get(phone)).toBe(1)
      expect(provider.sends().at(-1)?.body).toMatchObject({
        type: "template",
        template: { name: "launch", language: { code: "en_US" } },
      })
      const completed = (await eventsOf(infra, orgId, "campaign.completed")).filter((e) => e.data.campaignId === id)
      expect(completed.map((e) => e.data)).toEqual([
        { campaignId: id, name: "Spring launch", totalRecipients: 120, sent: 119, failed: 1 },
      ])
    } finally {
      await app.stop()
    }
  })

  it("retries the provider's rate-limit answers (429, 130429, 131056) with backoff and still sends each once", async () => {
    const app = await startApp(infra, {
      config: testConfig(provider.server.url, { campaignRatePerSecond: 500 }),
      campaigns: { retryBaseMs: 20, concurrency: 1 },
    })
    try {
      const before = provider.sends().length
      provider.failNext(
        { status: 429, body: { error: { message: "Too many", code: 4 } } },
        { status: 400, body: { error: { message: "throughput", code: 130429 } } },
        { status: 400, body: { error: { message: "pair rate", code: 131056 } } },
      )
      const created = await asTenant(app, orgId, "POST", "/api/campaigns", {
        name: "Limited",
        template: { name: "launch", language: "en_US" },
        recipients: recipients(5, "3"),
      })
      const { id } = created.json()
      const done = await eventually(
        async () => {
          const campaign = await campaignOf(app, id)
          expect(campaign.status).toBe("completed")
          return campaign
        },
        { timeoutMs: 20_000 },
      )
      expect(done).toMatchObject({ sent: 5, failed: 0 })
      // Three refused attempts plus five accepted sends.
      expect(provider.sends().length - before).toBe(8)
    } finally {
      await app.stop()
    }
  })

  it("paces sends under the configured rate", async () => {
    const app = await startApp(infra, { config: testConfig(provider.server.url, { campaignRatePerSecond: 40 }) })
    try {
      const before = provider.server.requests.length
      const created = await asTenant(app, orgId, "POST", "/api/campaigns", {
        name: "Paced",
        template: { name: "launch", language: "en_US" },
        recipients: recipients(21, "5"),
      })
      const { id } = created.json()
      await eventually(async () => expect((await campaignOf(app, id)).status).toBe("completed"), { timeoutMs: 20_000 })
      const times = provider.server.requests.slice(before).map((r) => r.receivedAt)
      const spanMs = Math.max(...times) - Math.min(...times)
      // 21 sends at 40/s need at least 20 gaps of 25 ms.
      expect(spanMs).toBeGreaterThanOrEqual(450)
    } finally {
      await app.stop()
    }
  })

  it("resumes after a restart mid-campaign with no recipient sent twice and none skipped, then fires campaign.completed once with sent + failed = totalRecipients", async () => {
    provider.setLatencyMs(5)
    const config = testConfig(provider.server.url, { campaignRatePerSecond: 200 })
    const first = await startApp(infra, { config })
    const list = recipients(300, "6")
    // One refusal: whichever instance attempts it, it is counted failed exactly once.
    provider.refuseRecipient("14160000280")
    const created = await asTenant(first, orgId, "POST", "/api/campaigns", {
      name: "Restarted",
      template: { name: "launch", language: "en_US" },
      recipients: list,
    })
    const { id } = created.json()
    await eventually(async () => expect((await campaignOf(first, id)).sent).toBeGreaterThanOrEqual(60), {
      timeoutMs: 20_000,
    })
    await first.stop()
    const midway = await infra.db.sql`
      select status, sent, failed from messaging.campaigns where id = ${id}`
    expect(midway[0]?.status).toBe("running")
    expect(midway[0]?.sent).toBeLessThan(300)
    const inFlight = await infra.db.sql`
      select count(*)::int as n from messaging.campaign_recipients where campaign_id = ${id} and state = 'sending'`
    expect(inFlight[0]?.n).toBe(0)

    const second = await startApp(infra, { config })
    try {
      const done = await eventually(
        async () => {
          const campaign = await campaignOf(second, id)
          expect(campaign.status).toBe("completed")
          return campaign
        },
        { timeoutMs: 30_000 },
      )
      expect(done).toMatchObject({ totalRecipients: 300, sent: 299, failed: 1 })
      const counts = sendsPerRecipient()
      for (const phone of list.map((p) => p.replace(/\D/g, ""))) expect(counts.get(phone)).toBe(1)
      const completed = (await eventsOf(infra, orgId, "campaign.completed")).filter((e) => e.data.campaignId === id)
      expect(completed.map((e) => e.data)).toEqual([
        { campaignId: id, name: "Restarted", totalRecipients: 300, sent: 299, failed: 1 },
      ])
      const totals = completed[0]?.data as { sent: number; failed: number; totalRecipients: number }
      expect(totals.sent + totals.failed).toBe(totals.totalRecipients)
    } finally {
      await second.stop()
      provider.setLatencyMs(0)
    }
  })

  it("shares one campaign between two running instances without sending anyone twice", async () => {
    provider.setLatencyMs(3)
    const config = testConfig(provider.server.url, { campaignRatePerSecond: 300 })
    const [a, b] = await Promise.all([startApp(infra, { config }), startApp(infra, { config })])
    try {
      const list = recipients(200, "8")
      const created = await asTenant(a, orgId, "POST", "/api/campaigns", {
        name: "Shared",
        template: { name: "launch", language: "en_US" },
        recipients: list,
      })
      const { id } = created.json()
      const done = await eventually(
        async () => {
          const campaign = await campaignOf(b, id)
          expect(campaign.status).toBe("completed")
          return campaign
        },
        { timeoutMs: 30_000 },
      )
      expect(done).toMatchObject({ sent: 200, failed: 0 })
      const counts = sendsPerRecipient()
      for (const phone of list.map((p) => p.replace(/\D/g, ""))) expect(counts.get(phone)).toBe(1)
      const completed = (await eventsOf(infra, orgId, "campaign.completed")).filter((e) => e.data.campaignId === id)
      expect(completed).toHaveLength(1)
    } finally {
      await Promise.all([a.stop(), b.stop()])
      provider.setLatencyMs(0)
    }
  })

  it("counts as failed, never resends, a recipient a crashed worker left mid-send, and sends one it had only claimed", async () => {
    const app = await startApp(infra, { config: testConfig(provider.server.url), background: false })
    const created = await asTenant(app, orgId, "POST", "/api/campaigns", {
      name: "Crashed",
      template: { name: "launch", language: "en_US" },
      recipients: ["+1 700 000 0001", "+1 700 000 0002"],
    })
    expect(created.statusCode, created.body).toBe(202)
    const { id } = created.json()
    await app.stop()
    // What a crashed worker leaves: one recipient whose provider call had begun, one only claimed.
    await infra.db.sql`
      update messaging.campaign_recipients set state = 'sending', claimed_at = now() - interval '1 hour',
        claim_token = 'cw_dead'
      where campaign_id = ${id} and phone = '17000000001'`
    await infra.db.sql`
      update messaging.campaign_recipients set state = 'claimed', claimed_at = now() - interval '1 hour',
        claim_token = 'cw_dead'
      where campaign_id = ${id} and phone = '17000000002'`
    const worker = await startApp(infra, {
      config: testConfig(provider.server.url),
      campaigns: { claimLeaseMs: 60_000 },
    })
    try {
      const done = await eventually(
        async () => {
          const campaign = await campaignOf(worker, id)
          expect(campaign.status).toBe("completed")
          return campaign
        },
        { timeoutMs: 20_000 },
      )
      expect(done).toMatchObject({ totalRecipients: 2, sent: 1, failed: 1 })
      expect(sendsPerRecipient().get("17000000001")).toBeUndefined()
      expect(sendsPerRecipient().get("17000000002")).toBe(1)
    } finally {
      await worker.stop()
    }
  })
})

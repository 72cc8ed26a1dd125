/**
 * Creating and reading campaigns as docs/contract.md §9 says: numbers read with the organization's
 * country, invalid ones listed, repeats and opted-out numbers counted and left out, template
 * variables required per recipient, `dryRun`, the list of campaigns and each one's recipients.
 */
import { eventually } from "@parley/platform/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  approveTemplate,
  asTenant,
  connectCloud,
  customerWrites,
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
const WABA = "8880041"
const PHONE_ID = "6660041"
const template = { name: "welcome", language: "en_US" }

beforeAll(async () => {
  infra = await startInfrastructure()
  provider = await startFakeProvider()
  app = await startApp(infra, {
    config: testConfig(provider.server.url, { campaignRatePerSecond: 500 }),
    campaigns: { pollMs: 100 },
  })
  await connectCloud(app, orgId, PHONE_ID, WABA)
  for (const [name, text] of [
    ["welcome", "Hi {{1}}, your code is {{2}}"],
    ["plain", "News for everyone"],
  ] as const) {
    const created = await asTenant(app, orgId, "POST", "/api/templates", {
      name,
      language: "en_US",
      category: "MARKETING",
      components: [{ type: "BODY", text }],
    })
    expect(created.statusCode).toBe(201)
    await approveTemplate(app, WABA, name)
  }
}, 60_000)

afterAll(async () => {
  await app?.stop()
  await provider?.server.close()
  await infra?.close()
})

const campaignOf = async (id: string, org = orgId) => (await asTenant(app, org, "GET", `/api/campaigns/${id}`)).json()

describe("creating a campaign", () => {
  it("answers a dry run 200 with the counts of invalid, duplicate and opted-out recipients, storing and sending nothing", async () => {
    await customerWrites(app, PHONE_ID, "14155550199", "STOP")
    // The confirmation goes out first (so it does not land in the count below).
    await eventually(() => expect(provider.sends().some((s) => s.body.to === "14155550199")).toBe(true))
    const before = provider.sends().length
    const [count] = await infra.db.sql`select count(*)::int as n from messaging.campaigns where org_id = ${orgId}`
    const response = await asTenant(app, orgId, "POST", "/api/campaigns", {
      name: "Preview",
      template,
      dryRun: true,
      recipients: [
        { phone: "(415) 555-0110", variables: ["Dana", "A1"] },
        { phone: "+1 415 555 0110", variables: ["Dana again", "A2"] },
        { phone: "not a number", variables: ["x", "y"] },
        { phone: "+999 1234 5678", variables: ["x", "y"] },
        { phone: "415 555 0199", variables: ["Stopped", "S"] },
        { phone: "14155550111", variables: ["Lee", "B2"] },
        // Possible lengths, but no North American area code starts with 1.
        { phone: "+1 123 456 7890", variables: ["x", "y"] },
        { phone: "(123) 456-7890", variables: ["x", "y"] },
      ],
    })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({
      totalRecipients: 2,
      duplicates: 1,
      optedOut: 1,
      invalid: [
        { index: 2, input: "not a number", error: expect.any(String) },
        { index: 3, input: "+999 1234 5678", error: "+999 1234 5678 is not a number in any country's plan" },
        { index: 6, input: "+1 123 456 7890", error: "+1 123 456 7890 is not a number in any country's plan" },
        {
          index: 7,
          input: "(123) 456-7890",
          error: "(123) 456-7890 is not a number in US's plan nor an international one",
        },
      ],
    })
    const [after] = await infra.db.sql`select count(*)::int as n from messaging.campaigns where org_id = ${orgId}`
    expect(after?.n).toBe(count?.n)
    expect(provider.sends().length).toBe(before)
  })

  it("answers 400 naming the recipient and the variable a template needs, and stores nothing", async () => {
    const [count] = await infra.db.sql`select count(*)::int as n from messaging.campaigns where org_id = ${orgId}`
    for (const [recipients, named] of [
      [["14155550120"], "recipients[0].variables: {{1}} has no value"],
      [
        [
          { phone: "14155550120", variables: ["Dana", "A1"] },
          { phone: "14155550121", variables: ["Lee"] },
        ],
        "recipients[1].variables: {{2}}",
      ],
      [[{ phone: "14155550120", variables: ["Dana", "A1", "extra"] }], "{{3}} is not a variable"],
    ] as const) {
      const response = await asTenant(app, orgId, "POST", "/api/campaigns", { name: "Bad", template, recipients })
      expect(response.statusCode).toBe(400)
      expect(response.json().code).toBe("invalid_request")
      expect(response.json().error).toContain(named)
    }
    const [after] = await infra.db.sql`select count(*)::int as n from messaging.campaigns where org_id = ${orgId}`
    expect(after?.n).toBe(count?.n)
  })

  it("answers 400 when no recipient is left to send to", async () => {
    const response = await asTenant(app, orgId, "POST", "/api/campaigns", {
      name: "Empty",
      template: { name: "plain", language: "en_US" },
      recipients: ["hello", "12"],
    })
    expect(response.statusCode).toBe(400)
    expect(response.json().issues.map((i: { path: string }) => i.path)).toEqual(["recipients[0]", "recipients[1]"])
  })
})

describe("running and reading campaigns", () => {
  it("sends each recipient its own variables as body parameters, fails with the provider's code and opted_out, and lists per-recipient results", async () => {
    provider.refuseRecipient("14155550132")
    const created = await asTenant(app, orgId, "POST", "/api/campaigns", {
      name: "Codes",
      template,
      recipients: [
        { phone: "(415) 555-0130", variables: ["Ana", "C0"] },
        { phone: "(415) 555-0131", variables: ["Ben", "C1"] },
        { phone: "(415) 555-0132", variables: ["Cy", "C2"] },
      ],
    })
    expect(created.statusCode).toBe(202)
    expect(created.json()).toMatchObject({
      status: "running",
      totalRecipients: 3,
      invalid: [],
      duplicates: 0,
      optedOut: 0,
    })
    const id = created.json().id
    await eventually(async () => expect((await campaignOf(id)).status).toBe("completed"), { timeoutMs: 15_000 })
    expect(await campaignOf(id)).toMatchObject({ template, totalRecipients: 3, sent: 2, failed: 1 })
    const toAna = provider.sends().find((s) => s.body.to === "14155550130")
    expect(toAna?.body.template).toEqual({
      name: "welcome",
      language: { code: "en_US" },
      components: [
        {
          type: "body",
          parameters: [
            { type: "text", text: "Ana" },
            { type: "text", text: "C0" },
          ],
        },
      ],
    })
    const all = (await asTenant(app, orgId, "GET", `/api/campaigns/${id}/recipients`)).json()
    expect(all.data).toEqual([
      { phone: "14155550130", status: "sent", messageId: expect.stringMatching(/^wamid\./), error: null },
      { phone: "14155550131", status: "sent", messageId: expect.stringMatching(/^wamid\./), error: null },
      { phone: "14155550132", status: "failed", messageId: null, error: expect.stringContaining("131026") },
    ])
    const failed = (await asTenant(app, orgId, "GET", `/api/campaigns/${id}/recipients?status=failed`)).json()
    expect(failed.data.map((r: { phone: string }) => r.phone)).toEqual(["14155550132"])
    const page = (await asTenant(app, orgId, "GET", `/api/campaigns/${id}/recipients?limit=2`)).json()
    expect(page.data).toHaveLength(2)
    const rest = (
      await asTenant(app, orgId, "GET", `/api/campaigns/${id}/recipients?limit=2&cursor=${page.nextCursor}`)
    ).json()
    expect(rest).toMatchObject({ data: [{ phone: "14155550132" }], nextCursor: null })
  })

  it("fails with opted_out, without a provider call, a recipient who opts out while the campaign runs", async () => {
    const worker = await startApp(infra, { config: testConfig(provider.server.url), background: false })
    try {
      // Created while nobody runs it, then the customer writes STOP, then a worker picks it up.
      await app.stop()
      const created = await asTenant(worker, orgId, "POST", "/api/campaigns", {
        name: "Opt-out midway",
        template: { name: "plain", language: "en_US" },
        recipients: ["14155550140", "14155550141"],
      })
      expect(created.json().totalRecipients).toBe(2)
      await customerWrites(worker, PHONE_ID, "14155550141", "  Baja ")
    } finally {
      await worker.stop()
    }
    app = await startApp(infra, { config: testConfig(provider.server.url), campaigns: { pollMs: 100 } })
    const id = (await asTenant(app, orgId, "GET", "/api/campaigns?limit=1")).json().data[0].id
    await eventually(async () => expect((await campaignOf(id)).status).toBe("completed"), { timeoutMs: 15_000 })
    expect(await campaignOf(id)).toMatchObject({ totalRecipients: 2, sent: 1, failed: 1 })
    const results = (await asTenant(app, orgId, "GET", `/api/campaigns/${id}/recipients`)).json().data
    expect(results[1]).toEqual({ phone: "14155550141", status: "failed", messageId: null, error: "opted_out" })
    expect(provider.sends().filter((s) => s.body.to === "14155550141" && s.body.type === "template")).toEqual([])
  })

  it("lists campaigns newest first with their template and times, pages them, and shows another organization nothing", async () => {
    const first = (await asTenant(app, orgId, "GET", "/api/campaigns?limit=2")).json()
    expect(first.data).toHaveLength(2)
    expect(first.data[0]).toMatchObject({
      name: "Opt-out midway",
      template: { name: "plain", language: "en_US" },
      createdAt: expect.stringMatching(/Z$/),
    })
    expect(first.data[1].name).toBe("Codes")
    expect(first.nextCursor).toBeNull()
    const one = (await asTenant(app, orgId, "GET", "/api/campaigns?limit=1")).json()
    const two = (await asTenant(app, orgId, "GET", `/api/campaigns?limit=1&cursor=${one.nextCursor}`)).json()
    expect([...one.data, ...two.data].map((c: { name: string }) => c.name)).toEqual(["Opt-out midway", "Codes"])
    const other = newOrg()
    expect((await asTenant(app, other, "GET", "/api/campaigns")).json()).toEqual({ data: [], nextCursor: null })
    const id = first.data[0].id
    expect((await asTenant(app, other, "GET", `/api/campaigns/${id}/recipients`)).statusCode).toBe(404)
    expect((await asTenant(app, orgId, "GET", `/api/campaigns/${id}/recipients?cursor=bogus`)).statusCode).toBe(400)
  })
})

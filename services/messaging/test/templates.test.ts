import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  API_VERSION,
  asTenant,
  connectCloud,
  eventsOf,
  type FakeProvider,
  newOrg,
  postCloudWebhook,
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
const otherOrg = newOrg()
const WABA = "7770001"

const components = [{ type: "BODY", text: "Hello {{1}}, your order {{2}} is ready" }]

beforeAll(async () => {
  infra = await startInfrastructure()
  provider = await startFakeProvider()
  app = await startApp(infra, { config: testConfig(provider.server.url), background: false })
  await connectCloud(app, orgId, "4440001", WABA)
  await connectCloud(app, otherOrg, "4440002", "7770002")
})

afterAll(async () => {
  await app?.stop()
  await provider?.server.close()
  await infra?.close()
})

const templateChange = (businessAccountId: string, field: string, value: Record<string, unknown>) => ({
  object: "whatsapp_business_account",
  entry: [{ id: businessAccountId, time: 1700000000, changes: [{ field, value }] }],
})

const createTemplate = async (name: string, language = "en_US") => {
  const response = await asTenant(app, orgId, "POST", "/api/templates", {
    name,
    language,
    category: "UTILITY",
    components,
  })
  expect(response.statusCode).toBe(201)
  return response.json() as { id: string; metaTemplateId: string }
}

describe("submitting templates", () => {
  it("submits to the business account's message_templates and stores it PENDING with the provider's id", async () => {
    const response = await asTenant(app, orgId, "POST", "/api/templates", {
      name: "order_ready",
      language: "en_US",
      category: "UTILITY",
      components,
    })
    expect(response.statusCode).toBe(201)
    const request = provider.server.requests.at(-1)
    expect(request?.path).toBe(`/${API_VERSION}/${WABA}/message_templates`)
    expect(request?.headers.authorization).toBe(`Bearer token-${orgId}`)
    expect(request?.json()).toEqual({ name: "order_ready", language: "en_US", category: "UTILITY", components })
    const template = response.json()
    expect(template).toMatchObject({
      name: "order_ready",
      language: "en_US",
      category: "UTILITY",
      status: "PENDING",
      qualityScore: null,
      reason: "",
    })
    expect(template.id).toMatch(/^tpl_/)
    expect(template.metaTemplateId).toMatch(/^\d+$/)
    const listed = await asTenant(app, orgId, "GET", "/api/templates")
    expect(listed.json().data).toEqual([template])
  })

  it("stores the category the provider answers when it moves the template at submission", async () => {
    provider.failNext({ status: 200, body: { id: "4242", status: "PENDING", category: "MARKETING" } })
    const response = await asTenant(app, orgId, "POST", "/api/templates", {
      name: "recategorised",
      language: "en_US",
      category: "UTILITY",
      components,
    })
    expect(response.json()).toMatchObject({ category: "MARKETING", metaTemplateId: "4242" })
  })

  it("answers 409 to a second template with the same name and language", async () => {
    const response = await asTenant(app, orgId, "POST", "/api/templates", {
      name: "order_ready",
      language: "en_US",
      category: "UTILITY",
      components,
    })
    expect(response.statusCode).toBe(409)
    expect(response.json()).toMatchObject({ code: "conflict" })
  })

  it("keeps nothing when the provider refuses the submission, so it can be retried", async () => {
    provider.failNext({ status: 400, body: { error: { message: "Invalid parameter", code: 100 } } })
    const refused = await asTenant(app, orgId, "POST", "/api/templates", {
      name: "promo",
      language: "en_US",
      category: "MARKETING",
      components,
    })
    expect(refused.statusCode).toBe(400)
    const retried = await asTenant(app, orgId, "POST", "/api/templates", {
      name: "promo",
      language: "en_US",
      category: "MARKETING",
      components,
    })
    expect(retried.statusCode).toBe(201)
  })

  it("answers 400 to an invalid name, category or empty components", async () => {
    for (const body of [
      { name: "Bad Name", language: "en_US", category: "UTILITY", components },
      { name: "ok_name", language: "en_US", category: "SPAM", components },
      { name: "ok_name", language: "en_US", category: "UTILITY", components: [] },
    ]) {
      expect((await asTenant(app, orgId, "POST", "/api/templates", body)).statusCode).toBe(400)
    }
  })

  it("shows another organization none of these templates", async () => {
    expect((await asTenant(app, otherOrg, "GET", "/api/templates")).json()).toEqual({ data: [] })
  })
})

describe("template updates from the provider", () => {
  it("fires template.status on APPROVED, updating the stored status, and only once when redelivered", async () => {
    const template = await createTemplate("welcome")
    const approved = templateChange(WABA, "message_template_status_update", {
      event: "APPROVED",
      message_template_id: Number(template.metaTemplateId),
      message_template_name: "welcome",
      message_template_language: "en_US",
      reason: "NONE",
    })
    expect((await postCloudWebhook(app, approved)).statusCode).toBe(200)
    expect((await postCloudWebhook(app, approved)).statusCode).toBe(200)
    const fired = (await eventsOf(infra, orgId, "template.status")).filter((e) => e.data.name === "welcome")
    expect(fired.map((e) => e.data)).toEqual([
      { name: "welcome", language: "en_US", metaTemplateId: template.metaTemplateId, status: "APPROVED", reason: "" },
    ])
    const listed = (await asTenant(app, orgId, "GET", "/api/templates")).json().data
    expect(listed.find((t: { name: string }) => t.name === "welcome")).toMatchObject({ status: "APPROVED", reason: "" })
  })

  it('carries the provider\'s reason on REJECTED only (PAUSED and DISABLED say ""), storing each status, and ignores statuses outside the four', async () => {
    const template = await createTemplate("rejected_one")
    const stored = async () =>
      (await asTenant(app, orgId, "GET", "/api/templates"))
        .json()
        .data.find((t: { name: string }) => t.name === "rejected_one")
    const change = (event: string, reason: string | null) =>
      templateChange(WABA, "message_template_status_update", {
        event,
        message_template_id: template.metaTemplateId,
        message_template_name: "rejected_one",
        message_template_language: "en_US",
        reason,
      })
    expect((await postCloudWebhook(app, change("REJECTED", "INVALID_FORMAT"))).statusCode).toBe(200)
    expect(await stored()).toMatchObject({ status: "REJECTED", reason: "INVALID_FORMAT" })
    expect((await postCloudWebhook(app, change("IN_APPEAL", null))).statusCode).toBe(200)
    expect(await stored()).toMatchObject({ status: "REJECTED", reason: "INVALID_FORMAT" })
    expect((await postCloudWebhook(app, change("PAUSED", "SCAM"))).statusCode).toBe(200)
    expect(await stored()).toMatchObject({ status: "PAUSED", reason: "" })
    expect((await postCloudWebhook(app, change("DISABLED", "SCAM"))).statusCode).toBe(200)
    expect(await stored()).toMatchObject({ status: "DISABLED", reason: "" })
    const fired = (await eventsOf(infra, orgId, "template.status")).filter((e) => e.data.name === "rejected_one")
    expect(fired.map((e) => [e.data.status, e.data.reason])).toEqual([
      ["REJECTED", "INVALID_FORMAT"],
      ["PAUSED", ""],
      ["DISABLED", ""],
    ])
    expect(fired.at(-1)?.data).toEqual({
      name: "rejected_one",
      language: "en_US",
      metaTemplateId: template.metaTemplateId,
      status: "DISABLED",
      reason: "",
    })
  })

  it("fires template.quality with the previous score, empty when unknown", async () => {
    const template = await createTemplate("quality_one")
    const change = (previous: string, next: string) =>
      templateChange(WABA, "message_template_quality_update", {
        previous_quality_score: previous,
        new_quality_score: next,
        message_template_id: Number(template.metaTemplateId),
        message_template_name: "quality_one",
        message_template_language: "en_US",
      })
    await postCloudWebhook(app, change("UNKNOWN", "GREEN"))
    await postCloudWebhook(app, change("UNKNOWN", "GREEN"))
    await postCloudWebhook(app, change("GREEN", "YELLOW"))
    const fired = (await eventsOf(infra, orgId, "template.quality")).filter((e) => e.data.name === "quality_one")
    expect(fired.map((e) => [e.data.previousQualityScore, e.data.qualityScore])).toEqual([
      ["", "GREEN"],
      ["GREEN", "YELLOW"],
    ])
    const listed = (await asTenant(app, orgId, "GET", "/api/templates")).json().data
    expect(listed.find((t: { name: string }) => t.name === "quality_one").qualityScore).toBe("YELLOW")
  })

  it("fires template.category when the provider moves a template, with the previous category", async () => {
    const template = await createTemplate("category_one")
    const change = templateChange(WABA, "template_category_update", {
      previous_category: "UTILITY",
      new_category: "MARKETING",
      message_template_id: template.metaTemplateId,
      message_template_name: "category_one",
      message_template_language: "en_US",
    })
    await postCloudWebhook(app, change)
    await postCloudWebhook(app, change)
    const fired = (await eventsOf(infra, orgId, "template.category")).filter((e) => e.data.name === "category_one")
    expect(fired.map((e) => e.data)).toEqual([
      {
        name: "category_one",
        language: "en_US",
        metaTemplateId: template.metaTemplateId,
        category: "MARKETING",
        previousCategory: "UTILITY",
      },
    ])
  })

  it("matches an update by the provider's template id when it names one: another id of the same name is another template", async () => {
    const template = await createTemplate("id_match")
    const change = (id: string) =>
      templateChange(WABA, "message_template_status_update", {
        event: "APPROVED",
        message_template_id: id,
        message_template_name: "id_match",
        message_template_language: "en_US",
      })
    await postCloudWebhook(app, change("123456789"))
    const stored = async (name: string) =>
      (await asTenant(app, orgId, "GET", "/api/templates")).json().data.find((t: { name: string }) => t.name === name)
    expect(await stored("id_match")).toMatchObject({ status: "PENDING", metaTemplateId: template.metaTemplateId })
    expect((await eventsOf(infra, orgId, "template.status")).filter((e) => e.data.name === "id_match")).toEqual([])
    await postCloudWebhook(app, change(template.metaTemplateId))
    expect(await stored("id_match")).toMatchObject({ status: "APPROVED" })

    // A template whose submission answer was lost (no id stored) is still found by name and language.
    await createTemplate("id_lost")
    await infra.db
      .sql`update messaging.templates set meta_template_id = null where org_id = ${orgId} and name = 'id_lost'`
    await postCloudWebhook(
      app,
      templateChange(WABA, "message_template_status_update", {
        event: "APPROVED",
        message_template_id: "555666777",
        message_template_name: "id_lost",
        message_template_language: "en_US",
      }),
    )
    expect(await stored("id_lost")).toMatchObject({ status: "APPROVED", metaTemplateId: "555666777" })
  })

  it("routes by the entry's business account: another account's update touches nothing here", async () => {
    await createTemplate("routed_one")
    await postCloudWebhook(
      app,
      templateChange("7770002", "message_template_status_update", {
        event: "APPROVED",
        message_template_id: 1,
        message_template_name: "routed_one",
        message_template_language: "en_US",
      }),
    )
    const fired = (await eventsOf(infra, orgId, "template.status")).filter((e) => e.data.name === "routed_one")
    expect(fired).toEqual([])
    expect(await eventsOf(infra, otherOrg)).toEqual([])
  })
})

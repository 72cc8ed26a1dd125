import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  API_VERSION,
  asTenant,
  connectCloud,
  customerWrites,
  type FakeProvider,
  newOrg,
  type RunningApp,
  setCountry,
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
const PHONE_ID = "2220001"

beforeAll(async () => {
  infra = await startInfrastructure()
  provider = await startFakeProvider()
  app = await startApp(infra, { config: testConfig(provider.server.url), background: false })
  await connectCloud(app, orgId, PHONE_ID, "5550001")
  // Free-form text goes only to customers who wrote within 24 hours (docs/contract.md §9).
  for (const n of ["0142", "0144", "0145", "0146", "0160"]) await customerWrites(app, PHONE_ID, `1415555${n}`)
})

afterAll(async () => {
  await app?.stop()
  await provider?.server.close()
  await infra?.close()
})

describe("connecting the cloud channel", () => {
  it("stores the channel and never returns or stores the access token in clear", async () => {
    const listed = await asTenant(app, orgId, "GET", "/api/channels")
    expect(listed.statusCode).toBe(200)
    const [channel] = listed.json().data
    expect(channel).toMatchObject({ type: "cloud", phoneNumberId: PHONE_ID, businessAccountId: "5550001" })
    expect(JSON.stringify(listed.json())).not.toContain(`token-${orgId}`)
    const [row] = await infra.db.sql`select access_token_sealed from messaging.channels where org_id = ${orgId}`
    expect(String(row?.access_token_sealed)).not.toContain("token-")
  })

  it("refuses with 409 a number another organization already connected", async () => {
    const response = await asTenant(app, otherOrg, "PUT", "/api/channels/cloud", {
      phoneNumberId: PHONE_ID,
      businessAccountId: "1",
      accessToken: "x",
    })
    expect(response.statusCode).toBe(409)
    expect(response.json()).toMatchObject({ code: "conflict" })
  })

  it("refuses with 409 a business account another organization already connected, and nothing changes", async () => {
    const response = await asTenant(app, otherOrg, "PUT", "/api/channels/cloud", {
      phoneNumberId: "9990001234",
      businessAccountId: "5550001",
      accessToken: "x",
    })
    expect(response.statusCode).toBe(409)
    expect(response.json()).toEqual({
      error: "This business account is connected to another organization",
      code: "conflict",
    })
    expect((await asTenant(app, otherOrg, "GET", "/api/channels")).json().data).toEqual([])
    // Its owner connects it again (a new token, the same account) as often as it likes.
    const again = await asTenant(app, orgId, "PUT", "/api/channels/cloud", {
      phoneNumberId: PHONE_ID,
      businessAccountId: "5550001",
      accessToken: `token-${orgId}`,
    })
    expect(again.statusCode).toBe(200)
  })

  it("answers 400 naming the fields of a bad body", async () => {
    const response = await asTenant(app, orgId, "PUT", "/api/channels/cloud", { phoneNumberId: "abc" })
    expect(response.statusCode).toBe(400)
    const paths = (response.json().issues as Array<{ path: string }>).map((i) => i.path)
    expect(paths).toEqual(expect.arrayContaining(["phoneNumberId", "businessAccountId", "accessToken"]))
  })

  it("refuses an access token no HTTP header can carry, instead of failing every later send", async () => {
    for (const accessToken of ["line\nbreak", "snow☃man", "two words"]) {
      const response = await asTenant(app, orgId, "PUT", "/api/channels/cloud", {
        phoneNumberId: PHONE_ID,
        businessAccountId: "5550001",
        accessToken,
      })
      expect(response.statusCode, accessToken).toBe(400)
      expect(response.json().issues).toEqual([expect.objectContaining({ path: "accessToken" })])
    }
  })
})

describe("sending a message", () => {
  it("posts the Graph API body with the sealed token and answers 202 with the provider's id", async () => {
    const response = await asTenant(app, orgId, "POST", "/api/messages", {
      to: "+1 415-555-0142",
      text: "Your table is ready",
    })
    expect(response.statusCode).toBe(202)
    const body = response.json()
    expect(body).toMatchObject({ status: "sent" })
    expect(body.id).toMatch(/^msg_/)
    expect(body.messageId).toMatch(/^wamid\./)
    const request = provider.server.requests.at(-1)
    expect(request?.path).toBe(`/${API_VERSION}/${PHONE_ID}/messages`)
    expect(request?.headers.authorization).toBe(`Bearer token-${orgId}`)
    expect(request?.json()).toEqual({
      messaging_product: "whatsapp",
      recipient_type: "individual",
      to: "14155550142",
      type: "text",
      text: { preview_url: false, body: "Your table is ready" },
    })
  })

  it("sends with a token rotated by PUT /api/channels/cloud from the very next send", async () => {
    const rotate = (accessToken: string) =>
      asTenant(app, orgId, "PUT", "/api/channels/cloud", {
        phoneNumberId: PHONE_ID,
        businessAccountId: "5550001",
        accessToken,
      })
    expect((await rotate(`rotated-${orgId}`)).statusCode).toBe(200)
    const response = await asTenant(app, orgId, "POST", "/api/messages", { to: "14155550142", text: "Still on?" })
    expect(response.statusCode).toBe(202)
    expect(provider.server.requests.at(-1)?.headers.authorization).toBe(`Bearer rotated-${orgId}`)
    expect((await rotate(`token-${orgId}`)).statusCode).toBe(200)
  })

  it("sends a template with its language and body variables", async () => {
    const response = await asTenant(app, orgId, "POST", "/api/messages", {
      to: "14155550143",
      template: { name: "order_ready", language: "en_US", variables: ["Dana", "42"] },
    })
    expect(response.statusCode).toBe(202)
    expect(provider.server.requests.at(-1)?.json()).toMatchObject({
      type: "template",
      template: {
        name: "order_ready",
        language: { code: "en_US" },
        components: [
          {
            type: "body",
            parameters: [
              { type: "text", text: "Dana" },
              { type: "text", text: "42" },
            ],
          },
        ],
      },
    })
  })

  it("answers 400 with the provider's reason when it refuses, and records the message as failed", async () => {
    provider.failNext({
      status: 400,
      body: { error: { message: "(#131030) Recipient phone number not in allowed list", code: 131030 } },
    })
    const response = await asTenant(app, orgId, "POST", "/api/messages", { to: "14155550144", text: "hi" })
    expect(response.statusCode).toBe(400)
    expect(response.json().error).toContain("131030")
    const [row] = await infra.db
      .sql`select status, error from messaging.messages where phone = '14155550144' and direction = 'outbound'`
    expect(row).toMatchObject({ status: "failed" })
    expect(String(row?.error)).toContain("131030")
  })

  it("answers 503 with Retry-After when the provider is rate limiting or down, and records the message as failed", async () => {
    provider.failNext({ status: 429, body: { error: { message: "rate", code: 130429 } } })
    const limited = await asTenant(app, orgId, "POST", "/api/messages", { to: "14155550145", text: "hi" })
    provider.failNext({ status: 500, body: { error: { message: "boom", code: 1 } } })
    const down = await asTenant(app, orgId, "POST", "/api/messages", { to: "14155550146", text: "hi" })
    for (const response of [limited, down]) {
      expect(response.statusCode).toBe(503)
      expect(response.json()).toMatchObject({ code: "unavailable", error: "Service temporarily unavailable" })
      expect(Number(response.headers["retry-after"])).toBeGreaterThanOrEqual(1)
    }
    const rows = await infra.db.sql`
      select status from messaging.messages where phone in ('14155550145', '14155550146') and direction = 'outbound'`
    expect(rows.map((r) => r.status)).toEqual(["failed", "failed"])
  })

  it("answers 400 naming both fields to a body with both text and template, and sends nothing", async () => {
    const before = provider.sends().length
    const response = await asTenant(app, orgId, "POST", "/api/messages", {
      to: "14155550142",
      text: "hi",
      template: { name: "reminder", language: "en_US" },
    })
    expect(response.statusCode).toBe(400)
    const body = response.json()
    expect(body.code).toBe("invalid_request")
    expect(body.error).toMatch(/^Invalid request: /)
    expect(body.issues).toEqual(
      expect.arrayContaining([
        { path: "template", message: "not allowed with text: a message is a text or a template, not both" },
        { path: "text", message: "not allowed with template: a message is a text or a template, not both" },
      ]),
    )
    expect(provider.sends().length).toBe(before)
  })

  it("answers 409 when the organization has no channel to send through", async () => {
    const response = await asTenant(app, newOrg(), "POST", "/api/messages", { to: "14155550147", text: "hi" })
    expect(response.statusCode).toBe(409)
  })

  it("answers 400, never 500, to bodies that are neither a text nor a template", async () => {
    for (const body of [{}, { to: "12", text: "x" }, { to: "14155550148" }, { to: "14155550148", text: "" }, [1]]) {
      const response = await asTenant(app, orgId, "POST", "/api/messages", body)
      expect(response.statusCode).toBe(400)
    }
    const wrongType = await asTenant(app, orgId, "POST", "/api/messages", "to=1", { "content-type": "text/plain" })
    expect(wrongType.statusCode).toBe(415)
  })
})

describe("sending as the messaging network requires", () => {
  it("answers 409 outside_service_window to free-form text when the customer never wrote or wrote more than 24 hours ago, and sends nothing", async () => {
    const before = provider.sends().length
    const never = await asTenant(app, orgId, "POST", "/api/messages", { to: "14155550170", text: "hi" })
    expect(never.statusCode).toBe(409)
    expect(never.json()).toEqual({
      error: "Outside the 24-hour customer service window: send an approved template",
      code: "outside_service_window",
    })
    await customerWrites(app, PHONE_ID, "14155550171")
    await infra.db.sql`
      update messaging.messages set created_at = now() - interval '24 hours 1 minute'
      where org_id = ${orgId} and phone = '14155550171' and direction = 'inbound'`
    const lapsed = await asTenant(app, orgId, "POST", "/api/messages", { to: "+1 415 555 0171", text: "hi" })
    expect(lapsed.statusCode).toBe(409)
    expect(lapsed.json().code).toBe("outside_service_window")
    expect(provider.sends().length).toBe(before)
    const [stored] = await infra.db.sql`
      select count(*)::int as n from messaging.messages where phone in ('14155550170', '14155550171') and direction = 'outbound'`
    expect(stored?.n).toBe(0)
    // A template is not limited by the window; a new message from the customer reopens it.
    const template = await asTenant(app, orgId, "POST", "/api/messages", {
      to: "14155550171",
      template: { name: "reminder", language: "en_US" },
    })
    expect(template.statusCode).toBe(202)
    await customerWrites(app, PHONE_ID, "14155550171")
    expect((await asTenant(app, orgId, "POST", "/api/messages", { to: "14155550171", text: "hi" })).statusCode).toBe(
      202,
    )
  })

  it("reads a national number with the organization's country, and refuses with 400 one it cannot read", async () => {
    const org = newOrg()
    await connectCloud(app, org, "2220002")
    // The default country is US: (415) 555-0110 is 14155550110, not a Swiss 41… number.
    await customerWrites(app, "2220002", "14155550110")
    expect((await asTenant(app, org, "POST", "/api/messages", { to: "(415) 555-0110", text: "a" })).statusCode).toBe(
      202,
    )
    expect(provider.sends().at(-1)?.body.to).toBe("14155550110")
    await setCountry(infra, org, "GB")
    await customerWrites(app, "2220002", "447700900456")
    const gb = await asTenant(app, org, "POST", "/api/messages", { to: "07700 900456", text: "b" })
    expect(gb.statusCode).toBe(202)
    expect(provider.sends().at(-1)?.body.to).toBe("447700900456")
    const bad = await asTenant(app, org, "POST", "/api/messages", { to: "+999 1234 5678", text: "c" })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().issues).toEqual([{ path: "to", message: "+999 1234 5678 is not a number in any country's plan" }])
  })

  it("refuses with 400 a number of a right length that no country's plan has, and sends nothing", async () => {
    const org = newOrg()
    await connectCloud(app, org, "2220004")
    const before = provider.sends().length
    const us = await asTenant(app, org, "POST", "/api/messages", {
      to: "+1 123 456 7890",
      template: { name: "reminder", language: "en_US" },
    })
    expect(us.statusCode).toBe(400)
    expect(us.json()).toEqual({
      error: "Invalid request: to +1 123 456 7890 is not a number in any country's plan",
      code: "invalid_request",
      issues: [{ path: "to", message: "+1 123 456 7890 is not a number in any country's plan" }],
    })
    await setCountry(infra, org, "GB")
    const gb = await asTenant(app, org, "POST", "/api/messages", {
      to: "(415) 555-0110",
      template: { name: "reminder", language: "en_US" },
    })
    expect(gb.statusCode).toBe(400)
    expect(gb.json().issues).toEqual([
      { path: "to", message: "(415) 555-0110 is not a number in GB's plan nor an international one" },
    ])
    // The UK's range kept for drama is in its plan.
    const fictional = await asTenant(app, org, "POST", "/api/messages", {
      to: "07700 900457",
      template: { name: "reminder", language: "en_US" },
    })
    expect(fictional.statusCode).toBe(202)
    expect(
      provider
        .sends()
        .slice(before)
        .map((s) => s.body.to),
    ).toEqual(["447700900457"])
  })

  it("requires a value for each of the template's {{1}}…{{n}} and answers 400 naming the missing one", async () => {
    const org = newOrg()
    await connectCloud(app, org, "2220003")
    const created = await asTenant(app, org, "POST", "/api/templates", {
      name: "order_ready",
      language: "en_US",
      category: "UTILITY",
      components: [{ type: "BODY", text: "Hi {{1}}, order {{2}} is ready" }],
    })
    expect(created.statusCode).toBe(201)
    expect(created.json().components).toEqual([{ type: "BODY", text: "Hi {{1}}, order {{2}} is ready" }])
    const before = provider.sends().length
    for (const [variables, named] of [
      [undefined, "{{1}}"],
      [["Dana"], "{{2}}"],
      [["Dana", ""], "{{2}}"],
      [["Dana", "42", "x"], "{{3}}"],
    ] as const) {
      const response = await asTenant(app, org, "POST", "/api/messages", {
        to: "14155550180",
        template: { name: "order_ready", language: "en_US", ...(variables === undefined ? {} : { variables }) },
      })
      expect(response.statusCode).toBe(400)
      expect(response.json().error).toContain(named)
      expect(response.json().issues[0].path).toBe("template.variables")
    }
    expect(provider.sends().length).toBe(before)
  })
})

describe("listing messages", () => {
  it("lists newest first, filters by phone, and pages with a cursor", async () => {
    for (const text of ["one", "two", "three"]) {
      await asTenant(app, orgId, "POST", "/api/messages", { to: "14155550160", text })
    }
    const first = await asTenant(app, orgId, "GET", "/api/messages?phone=%2B1%20415%20555%200160&limit=2")
    expect(first.statusCode).toBe(200)
    expect(first.json().data.map((m: { text: string }) => m.text)).toEqual(["three", "two"])
    const cursor = first.json().nextCursor
    expect(typeof cursor).toBe("string")
    const second = await asTenant(app, orgId, "GET", `/api/messages?phone=14155550160&limit=2&cursor=${cursor}`)
    // The customer's own message, which opened the service window, is the oldest.
    expect(second.json().data.map((m: { text: string }) => m.text)).toEqual(["one", "hello"])
    expect(second.json().nextCursor).toBeNull()
    expect(second.json().data[0]).toMatchObject({ direction: "outbound", channel: "cloud", status: "sent" })
  })

  it("answers 400 to a limit out of range or a cursor it did not issue", async () => {
    expect((await asTenant(app, orgId, "GET", "/api/messages?limit=0")).statusCode).toBe(400)
    expect((await asTenant(app, orgId, "GET", "/api/messages?limit=101")).statusCode).toBe(400)
    expect((await asTenant(app, orgId, "GET", "/api/messages?cursor=bogus")).statusCode).toBe(400)
  })
})

describe("tenant isolation and authentication", () => {
  it("shows another organization nothing of this one's channels or messages", async () => {
    const channels = await asTenant(app, otherOrg, "GET", "/api/channels")
    const messages = await asTenant(app, otherOrg, "GET", "/api/messages")
    expect(channels.json()).toMatchObject({ data: [] })
    expect(messages.json()).toEqual({ data: [], nextCursor: null })
  })

  it("refuses a request without a valid gateway principal with 401", async () => {
    const none = await app.http.inject({ method: "GET", url: "/api/channels" })
    const forged = await app.http.inject({
      method: "GET",
      url: "/api/channels",
      headers: { "x-parley-principal": "a.b" },
    })
    expect(none.statusCode).toBe(401)
    expect(forged.statusCode).toBe(401)
  })

  it("refuses an organization member with 403 admin_required", async () => {
    const { principalHeader } = await import("./harness.ts")
    const response = await app.http.inject({
      method: "GET",
      url: "/api/channels",
      headers: { "x-parley-principal": principalHeader(orgId, "member") },
    })
    expect(response.statusCode).toBe(403)
    expect(response.json()).toMatchObject({ code: "admin_required" })
  })
})

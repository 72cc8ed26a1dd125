/**
 * Opt-out by keyword and the opt-out list (docs/contract.md §9): a message whose whole text is a stop word
 * records the sender (source `keyword`) and is answered once with a confirmation instead of by the
 * assistant; START reverses it; the list routes show and remove, per organization.
 */
import { Topics } from "@parley/contracts"
import { eventually } from "@parley/platform/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  asTenant,
  connectCloud,
  customerWrites,
  eventsOf,
  type FakeProvider,
  inboundPayload,
  newOrg,
  postCloudWebhook,
  principalHeader,
  type RunningApp,
  recordsOn,
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
const PHONE_ID = "6660051"

beforeAll(async () => {
  infra = await startInfrastructure()
  provider = await startFakeProvider()
  app = await startApp(infra, { config: testConfig(provider.server.url) })
  await connectCloud(app, orgId, PHONE_ID)
}, 60_000)

afterAll(async () => {
  await app?.stop()
  await provider?.server.close()
  await infra?.close()
})

const textsTo = (phone: string) =>
  provider
    .sends()
    .filter((s) => s.body.to === phone && s.body.type === "text")
    .map((s) => (s.body.text as { body: string }).body)

const optOuts = async (org = orgId, query = "") =>
  (await asTenant(app, org, "GET", `/api/contacts/opt-outs${query}`)).json() as {
    data: Array<{ phone: string; source: string; optedOutAt: string }>
    nextCursor: string | null
  }

describe("stop words", () => {
  it("records the sender on STOP, answers once with a confirmation instead of the assistant, and fires message.inbound", async () => {
    const message = {
      from: "14155550201",
      id: "wamid.stop-1",
      timestamp: "1700000000",
      type: "text",
      text: { body: " stop " },
    }
    expect((await postCloudWebhook(app, inboundPayload(PHONE_ID, [message]))).statusCode).toBe(200)
    // The provider redelivers the same payload; the customer writes STOP again.
    expect((await postCloudWebhook(app, inboundPayload(PHONE_ID, [message]))).statusCode).toBe(200)
    await customerWrites(app, PHONE_ID, "14155550201", "STOP")
    await eventually(() => expect(textsTo("14155550201")).toHaveLength(1))
    expect(textsTo("14155550201")[0]).toContain("unsubscribed")
    expect((await optOuts()).data).toEqual([
      { phone: "14155550201", source: "keyword", optedOutAt: expect.stringMatching(/Z$/) },
    ])
    const inbound = (await eventsOf(infra, orgId, "message.inbound")).filter((e) => e.data.from === "14155550201")
    expect(inbound.map((e) => e.data.text)).toEqual([" stop ", "STOP"])
    // Not a conversation turn: nothing for the assistant to answer.
    const turns = (await recordsOn(infra, Topics.channelInbound, orgId)) as Array<{ from: string }>
    expect(turns.filter((t) => t.from === "14155550201")).toEqual([])
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(textsTo("14155550201")).toHaveLength(1)
  })

  it("confirms in the stop word's language, takes every listed word, and leaves other messages to the assistant", async () => {
    const words = ["UNSUBSCRIBE", "stopall", "Cancel", "END", "quit", "ARRÊT", "baja", "Abmelden", "PARAR"]
    for (const [i, word] of words.entries()) await customerWrites(app, PHONE_ID, `1415555030${i}`, word)
    await customerWrites(app, PHONE_ID, "14155550320", "please stop calling me at 9")
    await eventually(async () => expect((await optOuts()).data).toHaveLength(1 + words.length), { timeoutMs: 5000 })
    await eventually(() => expect(textsTo("14155550305")).toHaveLength(1))
    expect(textsTo("14155550305")[0]).toContain("désabonné")
    await eventually(() => expect(textsTo("14155550306")[0]).toContain("dado de baja"))
    await eventually(() => expect(textsTo("14155550307")[0]).toContain("abgemeldet"))
    await eventually(() => expect(textsTo("14155550308")[0]).toContain("cancelada"))
    const turns = (await recordsOn(infra, Topics.channelInbound, orgId)) as Array<{ from: string }>
    expect(turns.filter((t) => t.from === "14155550320")).toHaveLength(1)
    expect((await optOuts()).data.map((o) => o.phone)).not.toContain("14155550320")
  })

  it("reads the whole text aside from punctuation and symbols around the word, and still only the whole text", async () => {
    const written = ["STOP.", "Stop!", "stop!!", "«STOP»", "¡Baja!", "stop 🛑", "👋🏽 Stop…"]
    for (const [i, text] of written.entries()) await customerWrites(app, PHONE_ID, `1415555040${i}`, text)
    const notKeywords = ["please stop!", "stop it.", "stop, stop"]
    for (const [i, text] of notKeywords.entries()) await customerWrites(app, PHONE_ID, `1415555041${i}`, text)
    const expected = written.map((_, i) => `1415555040${i}`)
    await eventually(
      async () => expect((await optOuts()).data.map((o) => o.phone)).toEqual(expect.arrayContaining(expected)),
      {
        timeoutMs: 5000,
      },
    )
    await eventually(() => expect(textsTo("14155550400")[0]).toContain("unsubscribed"))
    await eventually(() => expect(textsTo("14155550404")[0]).toContain("dado de baja"))
    // START with punctuation reverses it.
    await customerWrites(app, PHONE_ID, "14155550400", "Start!")
    await eventually(async () => expect((await optOuts()).data.map((o) => o.phone)).not.toContain("14155550400"))
    const turns = (await recordsOn(infra, Topics.channelInbound, orgId)) as Array<{ from: string }>
    for (const phone of expected) expect(turns.filter((t) => t.from === phone)).toEqual([])
    await eventually(async () => {
      const turnsNow = (await recordsOn(infra, Topics.channelInbound, orgId)) as Array<{ from: string }>
      for (const [i] of notKeywords.entries())
        expect(turnsNow.filter((t) => t.from === `1415555041${i}`)).toHaveLength(1)
    })
    const listed = (await optOuts(orgId, "?limit=100")).data.map((o) => o.phone)
    for (const [i] of notKeywords.entries()) expect(listed).not.toContain(`1415555041${i}`)
  })

  it("reverses an opt-out on START, confirmed once", async () => {
    await customerWrites(app, PHONE_ID, "14155550201", "Start")
    await eventually(() => expect(textsTo("14155550201")).toHaveLength(2))
    expect(textsTo("14155550201")[1]).toContain("subscribed again")
    expect((await optOuts()).data.map((o) => o.phone)).not.toContain("14155550201")
  })

  it("answers START from a number that never opted out, which the assistant does not see either", async () => {
    await customerWrites(app, PHONE_ID, "14155550230", "START")
    await eventually(() => expect(textsTo("14155550230")).toEqual(["You are subscribed. Reply STOP to unsubscribe."]))
    expect((await optOuts()).data.map((o) => o.phone)).not.toContain("14155550230")
  })
})

describe("sending to a number that opted out", () => {
  it("refuses a MARKETING template with 409 and sends nothing, still sends UTILITY, AUTHENTICATION and replies, and sends marketing again once the number is removed", async () => {
    const org = newOrg()
    await connectCloud(app, org, "6660052")
    for (const [name, category] of [
      ["spring_sale", "MARKETING"],
      ["order_ready", "UTILITY"],
      ["login_code", "AUTHENTICATION"],
    ]) {
      const created = await asTenant(app, org, "POST", "/api/templates", {
        name,
        language: "en_US",
        category,
        components: [{ type: "BODY", text: `${name} body` }],
      })
      expect(created.statusCode).toBe(201)
    }
    const send = (to: string, body: Record<string, unknown>) =>
      asTenant(app, org, "POST", "/api/messages", { to, ...body })
    const template = (name: string) => ({ template: { name, language: "en_US" } })
    // Not opted out: marketing goes.
    expect((await send("14155550501", template("spring_sale"))).statusCode).toBe(202)
    await customerWrites(app, "6660052", "14155550502", "STOP")
    await eventually(async () => expect((await optOuts(org)).data.map((o) => o.phone)).toEqual(["14155550502"]))
    const before = provider.sends().length
    const refused = await send("+1 (415) 555-0502", template("spring_sale"))
    expect(refused.statusCode).toBe(409)
    expect(refused.json()).toEqual({
      error: "14155550502 opted out of marketing messages (STOP): a MARKETING template is not sent",
      code: "conflict",
    })
    // A template Parley does not know may be marketing: refused too, saying why.
    const unknown = await send("14155550502", template("made_elsewhere"))
    expect(unknown.statusCode).toBe(409)
    expect(unknown.json().error).toBe(
      "14155550502 opted out of marketing messages (STOP): template made_elsewhere (en_US) is not one Parley knows, so it may be marketing and is not sent",
    )
    const sentSince = () =>
      provider
        .sends()
        .slice(before)
        .filter((s) => s.body.to === "14155550502")
    // A refusal answers before anything is recorded or sent: only the STOP confirmation went.
    expect(sentSince().filter((s) => s.body.type === "template")).toEqual([])
    const [stored] = await infra.db.sql`
      select count(*)::int as n from messaging.messages
      where org_id = ${org} and phone = '14155550502' and direction = 'outbound' and type = 'template'`
    expect(stored?.n).toBe(0)
    // Transactional templates and a reply within the window (the STOP opened it) are still sent.
    expect((await send("14155550502", template("order_ready"))).statusCode).toBe(202)
    expect((await send("14155550502", template("login_code"))).statusCode).toBe(202)
    expect((await send("14155550502", { text: "Your order ships today" })).statusCode).toBe(202)
    expect(
      sentSince()
        .filter((s) => s.body.type === "template")
        .map((s) => (s.body.template as { name: string }).name),
    ).toEqual(["order_ready", "login_code"])
    // The customer asked to receive marketing again.
    const removed = await app.http.inject({
      method: "DELETE",
      url: "/api/contacts/opt-outs/14155550502",
      headers: { "x-parley-principal": principalHeader(org) },
    })
    expect(removed.statusCode).toBe(204)
    expect((await send("14155550502", template("spring_sale"))).statusCode).toBe(202)
  })
})

describe("the opt-out list", () => {
  it("pages newest first, removes a number on DELETE (admin), and shows or changes nothing of another organization", async () => {
    const all = await optOuts()
    const first = await optOuts(orgId, "?limit=3")
    expect(first.data).toHaveLength(3)
    const second = await optOuts(orgId, `?limit=100&cursor=${first.nextCursor}`)
    expect([...first.data, ...second.data].map((o) => o.phone)).toEqual(all.data.map((o) => o.phone))
    const other = newOrg()
    expect(await optOuts(other)).toEqual({ data: [], nextCursor: null })
    const phone = all.data[0]?.phone as string
    const member = await app.http.inject({
      method: "DELETE",
      url: `/api/contacts/opt-outs/${phone}`,
      headers: { "x-parley-principal": principalHeader(orgId, "member") },
    })
    expect(member.statusCode).toBe(403)
    const foreign = await app.http.inject({
      method: "DELETE",
      url: `/api/contacts/opt-outs/${phone}`,
      headers: { "x-parley-principal": principalHeader(other) },
    })
    expect(foreign.statusCode).toBe(204)
    expect((await optOuts()).data.map((o) => o.phone)).toContain(phone)
    const removed = await app.http.inject({
      method: "DELETE",
      url: `/api/contacts/opt-outs/${phone}`,
      headers: { "x-parley-principal": principalHeader(orgId) },
    })
    expect(removed.statusCode).toBe(204)
    expect((await optOuts()).data.map((o) => o.phone)).not.toContain(phone)
    const malformed = await app.http.inject({
      method: "DELETE",
      url: "/api/contacts/opt-outs/+1%20415",
      headers: { "x-parley-principal": principalHeader(orgId) },
    })
    expect(malformed.statusCode).toBe(400)
  })
})

import { request as httpRequest } from "node:http"
import type { AddressInfo } from "node:net"
import { Bus } from "@parley/bus"
import {
  ChannelInbound,
  type ConversationSummary,
  encodeBusValue,
  MemberRemoved,
  type OrgId,
  Topics,
  UserId,
} from "@parley/contracts"
import { newId, signPrincipal } from "@parley/platform"
import { eventually } from "@parley/platform/testing"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  INTERNAL_SECRET,
  newOrg,
  type RunningApp,
  recordsOn,
  startApp,
  startInfrastructure,
  type TestInfrastructure,
  widget,
} from "./harness.ts"

let infra: TestInfrastructure
let app: RunningApp

beforeAll(async () => {
  infra = await startInfrastructure()
  app = await startApp(infra)
})
afterAll(async () => {
  await app?.stop()
  await infra?.close()
})

interface Person {
  readonly orgId: OrgId
  readonly id: UserId
  readonly email: string
  readonly role: "admin" | "member"
}

const person = (orgId: OrgId, role: "admin" | "member" = "member"): Person => {
  const id = UserId.make(newId("usr"))
  return { orgId, id, email: `${id.slice(4, 12)}@example.test`, role }
}

const principalOf = (who: Person) =>
  signPrincipal(INTERNAL_SECRET, {
    orgId: who.orgId,
    role: who.role,
    actor: { type: "user", userId: who.id, email: who.email },
    requestId: newId("req"),
  })

const as = (who: Person, method: "GET" | "POST", url: string, body?: unknown) =>
  app.app.inject({
    method,
    url,
    headers: {
      "x-parley-principal": principalOf(who),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  })

const chat = async (orgId: OrgId, message: string, sessionId?: string) => {
  const res = await widget(app, orgId, "POST", "/api/public/chat", { message, ...(sessionId ? { sessionId } : {}) })
  expect(res.statusCode).toBe(200)
  return res.json() as { sessionId: string; reply: { text: string } | null; lead: { id: string; type: string } | null }
}

const list = async (who: Person, query = "") => {
  const res = await as(who, "GET", `/api/conversations${query}`)
  expect(res.statusCode).toBe(200)
  return res.json() as { data: Array<ConversationSummary>; nextCursor: string | null }
}

/** The widget conversation of a fresh organization, as its inbox lists it. */
const widgetConversation = async (first = "Hello there") => {
  const orgId = newOrg()
  const alice = person(orgId)
  const { sessionId } = await chat(orgId, first)
  const [listed] = (await list(alice)).data
  return { orgId, alice, sessionId, id: String(listed?.id) }
}

const publish = (record: ChannelInbound) =>
  infra.runtime.runPromise(
    Effect.gen(function* () {
      const bus = yield* Bus
      yield* bus.publish([
        { topic: Topics.channelInbound, key: record.orgId, value: encodeBusValue(ChannelInbound, record) },
      ])
    }),
  )

const inbound = (orgId: OrgId, from: string, text: string, channel: "cloud" | "bridge" = "cloud") =>
  ({
    orgId,
    channel,
    from,
    name: "Kim Lee",
    type: "text",
    text,
    messageId: `wamid.${newId("msg")}`,
    receivedAt: new Date().toISOString(),
  }) as ChannelInbound

const outboundOf = (orgId: OrgId) => recordsOn(infra, Topics.channelOutbound, orgId)

describe("the inbox lists and reads conversations", () => {
  it("lists a widget session with its last message and lead, and reads its messages oldest first", async () => {
    const { orgId, alice, id, sessionId } = await widgetConversation("Hi, I'm Dana, please call me on +1 415 555 0134")
    expect(id).toMatch(/^cnv_[0-9A-Za-z]{16,64}$/)
    const [listed] = (await list(alice)).data
    expect(listed).toMatchObject({
      id,
      channel: "widget",
      customer: { phone: "14155550134", name: "Dana" },
      lead: { type: "CALLBACK_REQUESTED" },
      state: "assistant",
      assignee: null,
      waiting: false,
      lastMessage: { role: "assistant" },
    })
    await chat(orgId, "Thanks!", sessionId)
    const res = await as(alice, "GET", `/api/conversations/${id}?limit=3`)
    expect(res.statusCode).toBe(200)
    const page = res.json()
    expect(page.messages.map((m: { role: string }) => m.role)).toEqual(["customer", "assistant", "customer"])
    expect(page.messages[0].text).toContain("Dana")
    const rest = await as(alice, "GET", `/api/conversations/${id}?limit=3&cursor=${page.nextCursor}`)
    expect(rest.json().messages.map((m: { role: string }) => m.role)).toEqual(["assistant"])
    expect(rest.json().nextCursor).toBeNull()
  })

  it("reads a conversation of more than ten messages in order, every message once across its pages", async () => {
    const { orgId, alice, id, sessionId } = await widgetConversation("message 1")
    for (let n = 2; n <= 7; n++) await chat(orgId, `message ${n}`, sessionId)
    const texts: Array<string> = []
    let cursor: string | null = null
    do {
      const res = await as(
        alice,
        "GET",
        `/api/conversations/${id}?limit=4${cursor === null ? "" : `&cursor=${cursor}`}`,
      )
      expect(res.statusCode).toBe(200)
      const page = res.json() as { messages: Array<{ role: string; text: string }>; nextCursor: string | null }
      texts.push(...page.messages.map((m) => `${m.role}:${m.role === "customer" ? m.text : ""}`))
      cursor = page.nextCursor
    } while (cursor !== null)
    // 7 customer messages, each answered: 14, oldest first (seq 10 after 9, not after 1).
    expect(texts).toEqual(Array.from({ length: 7 }, (_, i) => [`customer:message ${i + 1}`, "assistant:"]).flat())
  })

  it("lists the most recently active first, pages, and filters by channel and state", async () => {
    const orgId = newOrg()
    const alice = person(orgId)
    const first = await chat(orgId, "first visitor")
    await chat(orgId, "second visitor")
    await publish(inbound(orgId, "4915112340000", "hello from the phone"))
    await eventually(async () => expect((await list(alice)).data).toHaveLength(3), { timeoutMs: 10_000 })
    await chat(orgId, "first visitor again", first.sessionId)
    const page1 = await list(alice, "?limit=2")
    expect(page1.data.map((c) => c.lastMessage?.text)).toHaveLength(2)
    expect(page1.data[0]?.customer).toBeDefined()
    const page2 = await list(alice, `?limit=2&cursor=${page1.nextCursor}`)
    expect(page2.nextCursor).toBeNull()
    const all = [...page1.data, ...page2.data]
    expect(new Set(all.map((c) => c.id)).size).toBe(3)
    const times = all.map((c) => Date.parse(c.updatedAt))
    expect([...times].sort((a, b) => b - a)).toEqual(times)
    expect((await list(alice, "?channel=cloud")).data.map((c) => c.customer)).toEqual([
      { phone: "4915112340000", name: "Kim Lee" },
    ])
    expect((await list(alice, "?channel=widget")).data).toHaveLength(2)
    await as(alice, "POST", `/api/conversations/${all[1]?.id}/takeover`)
    expect((await list(alice, "?state=human")).data.map((c) => c.id)).toEqual([all[1]?.id])
    expect((await list(alice, "?state=assistant")).data).toHaveLength(2)
  })

  it("refuses a malformed id, filter or cursor with 400", async () => {
    const alice = person(newOrg())
    expect((await as(alice, "GET", "/api/conversations/ses_123")).statusCode).toBe(400)
    expect((await as(alice, "GET", "/api/conversations?channel=email")).statusCode).toBe(400)
    expect((await as(alice, "GET", "/api/conversations?cursor=nope")).statusCode).toBe(400)
  })
})

describe("a person takes a widget conversation over", () => {
  it("keeps the assistant quiet while still capturing the lead, and shows the person's reply to the widget", async () => {
    const { orgId, alice, id, sessionId } = await widgetConversation()
    const taken = await as(alice, "POST", `/api/conversations/${id}/takeover`)
    expect(taken.statusCode).toBe(200)
    expect(taken.json()).toMatchObject({ id, state: "human", assignee: { id: alice.id, email: alice.email } })

    const quiet = await chat(orgId, "I'm Sam, call me at 415-555-0177 please", sessionId)
    expect(quiet.reply).toBeNull()
    expect(quiet.lead).toMatchObject({ type: "CALLBACK_REQUESTED" })

    const sent = await as(alice, "POST", `/api/conversations/${id}/messages`, {
      text: "Hi Sam, Alex here — calling you in 5.",
    })
    expect(sent.statusCode).toBe(202)
    expect(sent.json().id).toMatch(/^msg_/)

    const transcript = (await widget(app, orgId, "GET", `/api/public/chat/${sessionId}`)).json()
    expect(transcript.messages.map((m: { role: string }) => m.role)).toEqual([
      "visitor",
      "assistant",
      "visitor",
      "staff",
    ])
    expect(transcript.messages[3].text).toBe("Hi Sam, Alex here — calling you in 5.")

    const detail = (await as(alice, "GET", `/api/conversations/${id}`)).json()
    expect(detail.messages.at(-1)).toMatchObject({ role: "staff", author: { id: alice.id, email: alice.email } })
    expect(detail.lead).toMatchObject({ type: "CALLBACK_REQUESTED" })
  })

  it("answers another member 409 while an administrator may still reply and release", async () => {
    const { orgId, alice, id } = await widgetConversation()
    const bob = person(orgId)
    const boss = person(orgId, "admin")
    await as(alice, "POST", `/api/conversations/${id}/takeover`)
    const refused = await as(bob, "POST", `/api/conversations/${id}/messages`, { text: "me too" })
    expect(refused.statusCode).toBe(409)
    expect(refused.json()).toEqual({ error: "Conversation is held by another member", code: "conflict" })
    expect((await as(bob, "POST", `/api/conversations/${id}/takeover`)).statusCode).toBe(409)
    expect((await as(bob, "POST", `/api/conversations/${id}/release`)).statusCode).toBe(409)
    expect((await as(boss, "POST", `/api/conversations/${id}/messages`, { text: "Admin here" })).statusCode).toBe(202)
    const released = await as(boss, "POST", `/api/conversations/${id}/release`)
    expect(released.json()).toMatchObject({ state: "assistant", assignee: null })
  })

  it("takes a conversation nobody holds over for the member who replies in it", async () => {
    const { alice, id } = await widgetConversation()
    expect(
      (await as(alice, "POST", `/api/conversations/${id}/messages`, { text: "Hello from a person" })).statusCode,
    ).toBe(202)
    const [listed] = (await list(alice)).data
    expect(listed).toMatchObject({ state: "human", assignee: { id: alice.id }, lastMessage: { role: "staff" } })
  })

  it("answers again once released", async () => {
    const { orgId, alice, id, sessionId } = await widgetConversation()
    await as(alice, "POST", `/api/conversations/${id}/takeover`)
    expect((await chat(orgId, "anyone?", sessionId)).reply).toBeNull()
    const released = await as(alice, "POST", `/api/conversations/${id}/release`)
    expect(released.json()).toMatchObject({ state: "assistant", assignee: null })
    expect((await chat(orgId, "what are your opening hours?", sessionId)).reply?.text).toBeTruthy()
  })

  it("returns a conversation silent for 24 hours to the assistant, and not one silent for 23", async () => {
    const { orgId, alice, id, sessionId } = await widgetConversation()
    await as(alice, "POST", `/api/conversations/${id}/takeover`)
    const silentFor = (hours: number) =>
      infra.db
        .sql`update assistant.conversations set updated_at = now() - ${`${hours} hours`}::interval where public_id = ${id}`
    await silentFor(23)
    expect((await list(alice, "?state=human")).data.map((c) => c.id)).toEqual([id])
    await silentFor(24.01)
    expect((await list(alice)).data[0]).toMatchObject({ state: "assistant", assignee: null })
    expect((await list(alice, "?state=human")).data).toEqual([])
    const answered = await chat(orgId, "hello again?", sessionId)
    expect(answered.reply?.text).toBeTruthy()
    // The message that ended the silence did not renew the lapsed hold.
    expect((await list(alice)).data[0]).toMatchObject({ state: "assistant" })
  })
})

describe("a member removed from the organization", () => {
  const removed = (who: Person) =>
    infra.runtime.runPromise(
      Bus.use((bus) =>
        bus.publish([
          {
            topic: Topics.identityMembers,
            key: who.id,
            value: encodeBusValue(MemberRemoved, {
              orgId: who.orgId,
              userId: who.id,
              removedAt: new Date().toISOString(),
            }),
          },
        ]),
      ),
    )
  const versionOf = async (id: string) =>
    (await infra.db.sql`select version from assistant.conversations where public_id = ${id}`)[0]?.version

  it("gives back the conversations they held in that organization within seconds, once, and no one else's", async () => {
    const { orgId, alice, id, sessionId } = await widgetConversation()
    const bob = person(orgId)
    const other = await chat(orgId, "Hello, a second visitor")
    const otherId = (await list(bob)).data.find((c) => c.id !== id)?.id ?? ""
    // The same person's membership of another organization (same id in this test) keeps its hold.
    const elsewhere = await widgetConversation()
    const aliceElsewhere: Person = { ...alice, orgId: elsewhere.orgId }
    await as(alice, "POST", `/api/conversations/${id}/takeover`)
    await as(bob, "POST", `/api/conversations/${otherId}/takeover`)
    await as(aliceElsewhere, "POST", `/api/conversations/${elsewhere.id}/takeover`)
    expect((await as(bob, "POST", `/api/conversations/${id}/messages`, { text: "let me" })).statusCode).toBe(409)

    await removed(alice)
    await eventually(async () =>
      expect((await as(bob, "GET", `/api/conversations/${id}`)).json()).toMatchObject({
        state: "assistant",
        assignee: null,
      }),
    )
    expect((await chat(orgId, "what are your opening hours?", sessionId)).reply?.text).toBeTruthy()
    expect((await chat(orgId, "still there?", other.sessionId)).reply).toBeNull()
    expect((await as(bob, "GET", `/api/conversations/${otherId}`)).json()).toMatchObject({
      state: "human",
      assignee: { id: bob.id },
    })
    expect((await as(aliceElsewhere, "GET", `/api/conversations/${elsewhere.id}`)).json()).toMatchObject({
      state: "human",
    })
    expect((await as(bob, "POST", `/api/conversations/${id}/takeover`)).statusCode).toBe(200)

    // Redelivered, the removal changes nothing: bob's new hold stands. The second removal has the same
    // key, so once it has been applied the redelivery before it has been too.
    const version = await versionOf(id)
    await removed(alice)
    await removed(aliceElsewhere)
    await eventually(async () =>
      expect((await as(aliceElsewhere, "GET", `/api/conversations/${elsewhere.id}`)).json()).toMatchObject({
        state: "assistant",
      }),
    )
    expect(await versionOf(id)).toBe(version)
    expect((await as(bob, "GET", `/api/conversations/${id}`)).json()).toMatchObject({ assignee: { id: bob.id } })
  })
})

describe("a customer waiting for a person", () => {
  it.each([
    ["en", "Can I talk to a human please?"],
    ["es", "Quiero hablar con una persona"],
    ["de", "Ich möchte mit einem Mitarbeiter sprechen"],
    ["fr", "Je voudrais parler à un conseiller"],
    ["pt", "Quero falar com um atendente"],
  ])("is marked waiting when they ask for a person (%s), until a person answers", async (_language, text) => {
    const orgId = newOrg()
    const alice = person(orgId)
    const answer = await chat(orgId, text)
    expect(answer.reply?.text).toBeTruthy()
    const [listed] = (await list(alice)).data
    expect(listed).toMatchObject({ waiting: true, state: "assistant" })
    await as(alice, "POST", `/api/conversations/${listed?.id}/messages`, { text: "Hi, I'm here." })
    expect((await list(alice)).data[0]).toMatchObject({ waiting: false, state: "human" })
  })

  it("is marked waiting when the assistant cannot answer and offers a callback", async () => {
    const orgId = newOrg()
    const alice = person(orgId)
    await chat(orgId, "Do you repair vintage typewriters?")
    expect((await list(alice)).data[0]).toMatchObject({ waiting: true })
  })
})

describe("the console's preview", () => {
  it("is kept out of the inbox (list, reading, waiting) and the widget's routes, and still records its lead", async () => {
    const orgId = newOrg()
    const alice = person(orgId)
    const preview = async (message: string, sessionId?: string) => {
      const res = await as(alice, "POST", "/api/assistant/preview", { message, ...(sessionId ? { sessionId } : {}) })
      expect(res.statusCode).toBe(200)
      return res.json() as { sessionId: string; reply: { text: string }; lead: { id: string } | null }
    }
    const first = await preview("Do you repair vintage typewriters?")
    const second = await preview("Can I talk to a human please? 415 555 0166", first.sessionId)
    expect(second.sessionId).toBe(first.sessionId)
    expect((await list(alice)).data).toEqual([])
    // The preview's own assistant records the number it was given (docs/contract.md §14: the live assistant).
    expect(second.lead).not.toBeNull()
    // A visitor's session is listed and waiting as before; the preview's session id is not the widget's.
    await chat(orgId, "Can I talk to a human please?")
    expect((await list(alice)).data).toMatchObject([{ waiting: true, channel: "widget" }])
    expect((await widget(app, orgId, "GET", `/api/public/chat/${first.sessionId}`)).statusCode).toBe(404)
    const continued = await chat(orgId, "hello again", first.sessionId)
    expect(continued.sessionId).not.toBe(first.sessionId)
  })
})

describe("a person answers on a channel", () => {
  it("sends the reply as a channel.outbound record, and the assistant stays quiet on the customer's next message", async () => {
    const orgId = newOrg()
    const alice = person(orgId)
    await publish(inbound(orgId, "4915112349999", "Hello"))
    await eventually(async () => expect(await outboundOf(orgId)).toHaveLength(1), { timeoutMs: 10_000 })
    const [listed] = (await list(alice)).data
    expect(listed).toMatchObject({ channel: "cloud", customer: { phone: "4915112349999", name: "Kim Lee" } })
    const sent = await as(alice, "POST", `/api/conversations/${listed?.id}/messages`, { text: "Hi Kim, Alice here." })
    expect(sent.statusCode).toBe(202)
    const records = await outboundOf(orgId)
    expect(records.at(-1)).toEqual({ orgId, channel: "cloud", to: "4915112349999", text: "Hi Kim, Alice here." })
    await publish(inbound(orgId, "4915112349999", "Thanks Alice, I'm Kim, call me tomorrow"))
    await eventually(async () => expect((await list(alice)).data[0]?.lastMessage).toMatchObject({ role: "customer" }), {
      timeoutMs: 10_000,
    })
    expect(await outboundOf(orgId)).toHaveLength(2)
    expect((await list(alice)).data[0]?.lead).toMatchObject({ type: "CALLBACK_REQUESTED" })
  })

  it("sends a reply without the whitespace around it, and refuses one that is only whitespace", async () => {
    const orgId = newOrg()
    const alice = person(orgId)
    await publish(inbound(orgId, "4915112348888", "Hello"))
    await eventually(async () => expect(await outboundOf(orgId)).toHaveLength(1), { timeoutMs: 10_000 })
    const [listed] = (await list(alice)).data
    const reply = (text: string) => as(alice, "POST", `/api/conversations/${listed?.id}/messages`, { text })
    expect((await reply("  Hello from a human\n")).statusCode).toBe(202)
    expect((await outboundOf(orgId)).at(-1)).toMatchObject({ text: "Hello from a human" })
    const detail = (await as(alice, "GET", `/api/conversations/${listed?.id}`)).json()
    expect(detail.messages.at(-1)).toMatchObject({ role: "staff", text: "Hello from a human" })
    expect(detail.lastMessage).toMatchObject({ text: "Hello from a human" })

    const blank = await reply(" \n\t ")
    expect(blank.statusCode).toBe(400)
    expect(blank.json()).toMatchObject({ code: "invalid_request" })
    expect(await outboundOf(orgId)).toHaveLength(2)

    const { alice: bob, id, orgId: widgetOrg, sessionId } = await widgetConversation()
    await as(bob, "POST", `/api/conversations/${id}/messages`, { text: "\nSee you soon.\n\n" })
    const transcript = (await widget(app, widgetOrg, "GET", `/api/public/chat/${sessionId}`)).json()
    expect(transcript.messages.at(-1)).toMatchObject({ role: "staff", text: "See you soon." })
  })

  it("refuses free-form text on the cloud channel 24 hours after the customer's last message, not on the bridge", async () => {
    const orgId = newOrg()
    const alice = person(orgId)
    await publish(inbound(orgId, "4915112340001", "Hello", "cloud"))
    await publish(inbound(orgId, "4915112340002", "Hello", "bridge"))
    await eventually(async () => expect((await list(alice)).data).toHaveLength(2), { timeoutMs: 10_000 })
    await infra.db
      .sql`update assistant.conversations set last_customer_at = now() - interval '24 hours 1 minute' where org_id = ${orgId}`
    const cloud = (await list(alice, "?channel=cloud")).data[0]
    const bridge = (await list(alice, "?channel=bridge")).data[0]
    const late = await as(alice, "POST", `/api/conversations/${cloud?.id}/messages`, { text: "Still there?" })
    expect(late.statusCode).toBe(409)
    expect(late.json()).toEqual({
      error: "Outside the 24-hour customer service window: send an approved template",
      code: "outside_service_window",
    })
    expect((await list(alice, "?channel=cloud")).data[0]).toMatchObject({ state: "assistant" })
    expect(
      (await as(alice, "POST", `/api/conversations/${bridge?.id}/messages`, { text: "Still there?" })).statusCode,
    ).toBe(202)
  })
})

describe("tenant isolation", () => {
  it("answers every conversation route 404 for another organization's conversation, and lists none of it", async () => {
    const { alice, id } = await widgetConversation()
    const mallory = person(newOrg(), "admin")
    expect((await list(mallory)).data).toEqual([])
    expect((await as(mallory, "GET", `/api/conversations/${id}`)).statusCode).toBe(404)
    expect((await as(mallory, "POST", `/api/conversations/${id}/takeover`)).statusCode).toBe(404)
    expect((await as(mallory, "POST", `/api/conversations/${id}/messages`, { text: "hi" })).statusCode).toBe(404)
    expect((await as(mallory, "POST", `/api/conversations/${id}/release`)).statusCode).toBe(404)
    expect((await list(alice)).data[0]).toMatchObject({ state: "assistant", lastMessage: { role: "assistant" } })
  })

  it("refuses a request without the gateway's principal", async () => {
    const { id } = await widgetConversation()
    expect((await app.app.inject({ method: "GET", url: "/api/conversations" })).statusCode).toBe(401)
    expect((await app.app.inject({ method: "GET", url: "/api/conversations/events" })).statusCode).toBe(401)
    expect((await app.app.inject({ method: "POST", url: `/api/conversations/${id}/takeover` })).statusCode).toBe(401)
  })

  it("streams an organization's changes to its own members only", async () => {
    await app.app.listen({ port: 0, host: "127.0.0.1" })
    const { port } = app.app.server.address() as AddressInfo
    const orgId = newOrg()
    const other = newOrg()
    const open = (who: Person) => {
      const received: Array<string> = []
      const req = httpRequest({
        host: "127.0.0.1",
        port,
        path: "/api/conversations/events",
        headers: { "x-parley-principal": principalOf(who), accept: "text/event-stream" },
      })
      const ready = new Promise<string>((resolve) =>
        req.on("response", (res) => {
          res.setEncoding("utf8")
          res.on("data", (chunk: string) => received.push(chunk))
          resolve(String(res.headers["content-type"]))
        }),
      )
      req.end()
      return { received, ready, close: () => req.destroy() }
    }
    const mine = open(person(orgId))
    const theirs = open(person(other))
    expect(await mine.ready).toContain("text/event-stream")
    await theirs.ready
    await eventually(() => expect(mine.received.join("")).toContain("retry: 3000"))
    await chat(orgId, "hello, live inbox")
    const [listed] = (await list(person(orgId))).data
    await eventually(() =>
      expect(mine.received.join("")).toContain(`event: conversation\ndata: {"id":"${listed?.id}"}`),
    )
    expect(theirs.received.join("")).not.toContain("event: conversation")
    mine.close()
    theirs.close()
  })
})

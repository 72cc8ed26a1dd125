import { Bus } from "@parley/bus"
import { ChannelInbound, encodeBusValue, type OrgId, Topics } from "@parley/contracts"
import { Database, withTransaction } from "@parley/db"
import { newId } from "@parley/platform"
import { eventually } from "@parley/platform/testing"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type TurnWrites, writeTurns } from "../src/bus/inbound.ts"
import { claimInbound, claimStatement, handledColumn } from "../src/bus/inbound-handled.ts"
import { findChannelTurns, storeTurn } from "../src/chat/conversation-store.ts"
import { emptyConversation } from "../src/engine/state.ts"
import { leadStatement, leadWrite } from "../src/leads/record-lead.ts"
import {
  admin,
  futureWeekday,
  leadEventsOf,
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

const inbound = (orgId: OrgId, from: string, text: string, overrides: Partial<ChannelInbound> = {}): ChannelInbound =>
  ({
    orgId,
    channel: "cloud",
    from,
    name: "",
    type: "text",
    text,
    messageId: `wamid.${newId("msg")}`,
    receivedAt: new Date().toISOString(),
    ...overrides,
  }) as ChannelInbound

const publish = (...records: Array<ChannelInbound>) =>
  infra.runtime.runPromise(
    Effect.gen(function* () {
      const bus = yield* Bus
      yield* bus.publish(
        records.map((r) => ({ topic: Topics.channelInbound, key: r.orgId, value: encodeBusValue(ChannelInbound, r) })),
      )
    }),
  )

const repliesTo = (orgId: OrgId) => recordsOn(infra, Topics.channelOutbound, orgId)

const waitForReplies = (orgId: OrgId, count: number) =>
  eventually(
    async () => {
      const replies = await repliesTo(orgId)
      expect(replies).toHaveLength(count)
      return replies
    },
    { timeoutMs: 10_000 },
  )

describe("channel conversations", () => {
  it("answers a customer message through the same channel, in reply to it", async () => {
    const orgId = newOrg()
    const message = inbound(orgId, "4915112345678", "Hello!")
    await publish(message)
    const [reply] = await waitForReplies(orgId, 1)
    expect(reply).toMatchObject({ orgId, channel: "cloud", to: "4915112345678", inReplyTo: message.messageId })
    expect(String(reply?.text).length).toBeGreaterThan(0)
  })

  it("does not make a customer a lead for a bare message, only once there is something to record", async () => {
    const orgId = newOrg()
    await publish(inbound(orgId, "4915100000001", "hi, what are your opening hours?", { channel: "bridge" }))
    await waitForReplies(orgId, 1)
    expect(await leadEventsOf(infra, orgId)).toEqual([])

    await publish(inbound(orgId, "4915100000001", "I'm Dana, please call me back", { channel: "bridge" }))
    await waitForReplies(orgId, 2)
    expect(await leadEventsOf(infra, orgId)).toMatchObject([
      {
        event: "lead.created",
        data: { phone: "4915100000001", name: "Dana", type: "CALLBACK_REQUESTED", booking: null },
      },
    ])
  })

  it("answers a redelivered message once", async () => {
    const orgId = newOrg()
    const message = inbound(orgId, "4915100000002", "I'd like a demo")
    await publish(message, message)
    await publish(message)
    await waitForReplies(orgId, 1)
    // A later message is answered, so the consumer went past the duplicates.
    await publish(inbound(orgId, "4915100000002", "thanks"))
    await waitForReplies(orgId, 2)
    expect((await leadEventsOf(infra, orgId)).map((e) => e.event)).toEqual(["lead.created"])
  })

  it("stores no turn for a delivery whose message another delivery claimed while the turn ran", async () => {
    const orgId = newOrg()
    // The turn was read and computed before the other delivery committed its claim: storing it finds the claim.
    const store = (message: ChannelInbound, claimedElsewhere: boolean) =>
      infra.runtime.runPromise(
        withTransaction((tx) =>
          Effect.gen(function* () {
            if (claimedElsewhere) yield* claimInbound(tx, message)
            // The turn's new lead goes in the same statement, and only with the turn.
            const lead = yield* leadWrite(orgId, {
              phone: message.from,
              name: "Ada",
              type: "CALLBACK_REQUESTED",
              booking: null,
              source: "cloud",
            })
            return yield* storeTurn(tx, {
              id: newId("ses"),
              readVersion: undefined,
              orgId,
              channel: message.channel,
              customer: message.from,
              state: emptyConversation,
              visitorText: message.text,
              replyText: "Hi!",
              at: new Date(),
              note: { waiting: false },
              claim: claimStatement(tx, message),
              also: leadStatement(tx, lead, tx`exists (select from stored)`, "also"),
            })
          }),
        ),
      )
    const leads = () => infra.db.sql`select phone from assistant.leads where org_id = ${orgId}`
    const message = inbound(orgId, "4915100000009", "hello")
    expect(await store(message, true)).toBe(false)
    expect(await infra.db.sql`select 1 from assistant.conversations where org_id = ${orgId}`).toHaveLength(0)
    expect(await leads()).toHaveLength(0)
    // The next message of the customer, claimed by none, is stored, and creates the lead in the same statement…
    expect(await store(inbound(orgId, message.from, "hello again"), false)).toEqual({
      also: [expect.objectContaining({ name: "Ada", created: true })],
    })
    expect(await leads()).toEqual([{ phone: message.from }])
    expect(
      await infra.db.sql`select 1 from assistant.conversation_messages m join assistant.conversations c
      on c.id = m.conversation_id where c.org_id = ${orgId}`,
    ).toHaveLength(2)
    // …and the number's first message on another channel finds it known.
    expect(await store(inbound(orgId, message.from, "hello", { channel: "bridge" }), false)).toEqual({
      also: [expect.objectContaining({ name: "Ada", created: false })],
    })
  })

  it("writes a batch's turns concurrently on its connection, but one number's turns one after another", async () => {
    const steps: Array<string> = []
    const turn = (customer: string, name: string): TurnWrites => ({
      customer,
      writes: (tx) =>
        Effect.gen(function* () {
          for (const step of [1, 2]) {
            steps.push(`${name}${step}`)
            yield* Effect.promise(() => tx`select pg_sleep(0.05)`)
          }
        }),
    })
    const results = await infra.runtime.runPromise(
      withTransaction((tx) => writeTurns(tx, [turn("org:+1", "a"), turn("org:+2", "b"), turn("org:+1", "c")])),
    )
    expect(results).toHaveLength(3)
    expect(steps).toHaveLength(6)
    // Another number's turn sends before the first turn's first statement has answered (pipelined)…
    expect(steps.indexOf("b1")).toBeLessThan(steps.indexOf("a2"))
    // …while the same number's second turn starts only once its first turn wrote everything.
    expect(steps.indexOf("c1")).toBeGreaterThan(steps.indexOf("a2"))
  })

  it("reads the turns of several messages in one statement: each its conversation and whether it was handled", async () => {
    const orgId = newOrg()
    const first = inbound(orgId, "4915100000031", "I'd like a demo")
    await publish(first)
    await waitForReplies(orgId, 1)
    const keys = [
      { orgId, channel: "cloud", customer: first.from, messageId: first.messageId },
      { orgId: newOrg(), channel: "cloud", customer: first.from, messageId: `wamid.${newId("msg")}` },
      { orgId, channel: "bridge", customer: first.from, messageId: `wamid.${newId("msg")}` },
      { orgId, channel: "cloud", customer: first.from, messageId: `wamid.${newId("msg")}` },
    ]
    const starts = await infra.runtime.runPromise(
      Effect.flatMap(Database, ({ sql }) =>
        Effect.promise(() => findChannelTurns<{ handled: boolean }>(sql, keys, handledColumn(sql))),
      ),
    )
    // Handled with its conversation; another organization's number; another channel's; the next message.
    expect(starts.map((start) => [start.also.handled, start.found !== undefined])).toEqual([
      [true, true],
      [false, false],
      [false, false],
      [false, true],
    ])
    expect(starts[3]?.found?.id).toBe(starts[0]?.found?.id)
  })

  it("keeps one conversation per customer and channel, and books in it", async () => {
    const orgId = newOrg()
    const date = futureWeekday(2)
    await publish(inbound(orgId, "4915100000003", `can I book an appointment on ${date}?`))
    const [offer] = await waitForReplies(orgId, 1)
    expect(String(offer?.text)).toContain("9:00 AM")
    await publish(inbound(orgId, "4915100000003", "11:30 please"))
    const replies = await waitForReplies(orgId, 2)
    const day = new Intl.DateTimeFormat("en-US", {
      weekday: "long",
      month: "long",
      day: "numeric",
      timeZone: "UTC",
    }).format(new Date(`${date}T12:00:00Z`))
    expect(String(replies[1]?.text)).toContain(`${day} at 11:30 AM`)
    const events = await leadEventsOf(infra, orgId)
    expect(events.at(-1)).toMatchObject({
      data: { phone: "4915100000003", type: "BOOKING", booking: { date, time: "11:30", service: "consultation" } },
    })
  })

  it("thanks a bare name sent after the booking by name, and records it on the lead instead of showing the menu", async () => {
    const orgId = newOrg()
    const date = futureWeekday(3)
    await publish(inbound(orgId, "4915100000009", `can I book a consultation on ${date} at 10:00?`))
    const [booked] = await waitForReplies(orgId, 1)
    expect(String(booked?.text)).toMatch(/booked/i)
    await publish(inbound(orgId, "4915100000009", "Ana Lima"))
    const replies = await waitForReplies(orgId, 2)
    expect(String(replies[1]?.text)).toMatch(/^Thank you, Ana Lima! .*10:00 AM\.$/)
    expect(String(replies[1]?.text)).not.toMatch(/what would you like to do/i)
    await eventually(async () => {
      const events = await leadEventsOf(infra, orgId)
      expect(events.at(-1)?.data).toMatchObject({
        phone: "4915100000009",
        name: "Ana Lima",
        type: "BOOKING",
        booking: { date, time: "10:00" },
      })
    })
  })

  it("tells a customer who asks for no more messages in a sentence the stop word of their language, not the menu", async () => {
    const orgId = newOrg()
    const profile = { businessName: "Acme", languages: ["en", "de"], faqs: [] }
    expect((await admin(app, orgId, "PUT", "/api/assistant/profile", profile)).statusCode).toBe(200)
    await publish(inbound(orgId, "4915100000021", "please stop messaging me", { channel: "bridge" }))
    const [english] = await waitForReplies(orgId, 1)
    expect(english).toMatchObject({ channel: "bridge", to: "4915100000021" })
    expect(String(english?.text)).toMatch(/\bSTOP\b/)
    expect(String(english?.text)).not.toMatch(/what would you like to do/i)
    await publish(inbound(orgId, "4915100000022", "Bitte keine Nachrichten mehr"))
    const replies = await waitForReplies(orgId, 2)
    expect(String(replies[1]?.text)).toMatch(/\bABMELDEN\b.*\bSTOP\b/)
    expect(await leadEventsOf(infra, orgId)).toEqual([])
  })

  it("uses the provider's profile name when the customer gives none", async () => {
    const orgId = newOrg()
    await publish(inbound(orgId, "4915100000004", "call me back please", { name: "Kim Lee" }))
    await waitForReplies(orgId, 1)
    expect((await leadEventsOf(infra, orgId))[0]?.data).toMatchObject({ name: "Kim Lee", type: "CALLBACK_REQUESTED" })
  })

  it("books under the provider's profile name when the customer gives none, announcing the lead once", async () => {
    const orgId = newOrg()
    const date = futureWeekday(4)
    await publish(inbound(orgId, "4915100000006", `can I book a consultation on ${date} at 10:00?`, { name: "Priya" }))
    const [reply] = await waitForReplies(orgId, 1)
    expect(String(reply?.text)).toMatch(/booked/i)
    const bookings = (
      (await admin(app, orgId, "GET", `/api/bookings?date=${date}`)).json() as {
        data: Array<{ name: string; phone: string; time: string }>
      }
    ).data
    expect(bookings).toMatchObject([{ name: "Priya", phone: "4915100000006", time: "10:00" }])
    // The booking's lead already has the name, so the turn's own record of it changes nothing.
    const events = await leadEventsOf(infra, orgId)
    expect(events.map((event) => [event.event, event.data.name, event.data.type])).toEqual([
      ["lead.created", "Priya", "BOOKING"],
    ])
  })

  it("cancels the customer's booking by their number, from another conversation, firing lead.updated", async () => {
    const orgId = newOrg()
    const date = futureWeekday(3)
    const booked = await widget(app, orgId, "POST", "/api/public/bookings", {
      name: "Lena",
      phone: "+49 151 00000005",
      date,
      time: "10:00",
      service: "consultation",
    })
    expect(booked.statusCode, booked.body).toBe(201)
    await publish(inbound(orgId, "4915100000005", "please cancel my appointment"))
    const [reply] = await waitForReplies(orgId, 1)
    expect(String(reply?.text)).toContain("cancelled")
    const events = await eventually(async () => {
      const all = await leadEventsOf(infra, orgId)
      expect(all).toHaveLength(2)
      return all
    })
    expect(events.map((e) => [e.event, e.data.booking])).toEqual([
      ["lead.created", { date, time: "10:00", service: "consultation" }],
      ["lead.updated", null],
    ])
  })

  it("keeps a customer's lead made on the channel out of a stranger's reach in the widget", async () => {
    const orgId = newOrg()
    await publish(inbound(orgId, "14155550111", "I'm Bob, please call me back"))
    await waitForReplies(orgId, 1)
    await eventually(async () => expect(await leadEventsOf(infra, orgId)).toHaveLength(1))
    // Eve, in a fresh widget session, claims Bob's number and asks for a demo.
    const eve = await widget(app, orgId, "POST", "/api/public/chat", {
      message: "I would like a demo",
      visitor: { name: "Eve", phone: "+1 415 555 0111" },
    })
    expect(eve.statusCode).toBe(200)
    expect((eve.json() as { lead: unknown }).lead).toBeNull()
    const leads = (await admin(app, orgId, "GET", "/api/leads")).json() as { data: Array<Record<string, unknown>> }
    expect(leads.data).toMatchObject([
      { phone: "14155550111", name: "Bob", type: "CALLBACK_REQUESTED", source: "cloud" },
    ])
    expect((await leadEventsOf(infra, orgId)).map((e) => e.event)).toEqual(["lead.created"])
    // Bob himself, on the channel, still changes his own lead.
    await publish(inbound(orgId, "14155550111", "actually, could I get a demo?"))
    await waitForReplies(orgId, 2)
    await eventually(async () =>
      expect((await leadEventsOf(infra, orgId)).map((e) => [e.event, e.data.type])).toEqual([
        ["lead.created", "CALLBACK_REQUESTED"],
        ["lead.updated", "DEMO_REQUESTED"],
      ]),
    )
  })

  it("takes a number's lead out of the widget session that typed it first once its owner writes from it", async () => {
    const orgId = newOrg()
    // Mallory types Rita's number into the widget first: the lead is her session's.
    const mallory = await widget(app, orgId, "POST", "/api/public/chat", {
      message: "Hi, I am Mallory, call me back at +1 415 555 0701",
    })
    const session = (mallory.json() as { sessionId: string }).sessionId
    expect((mallory.json() as { lead: unknown }).lead).not.toBeNull()
    // Rita writes from her number on the channel: her lead now.
    await publish(inbound(orgId, "14155550701", "Hi, I am Rita, please call me back"))
    await waitForReplies(orgId, 1)
    await eventually(async () =>
      expect((await leadEventsOf(infra, orgId)).map((e) => [e.event, e.data.name])).toEqual([
        ["lead.created", "Mallory"],
        ["lead.updated", "Rita"],
      ]),
    )
    // Mallory's session can no longer rename or retype it, nor learn it.
    const again = await widget(app, orgId, "POST", "/api/public/chat", {
      sessionId: session,
      message: "Actually my name is Zed, I want a demo, number +1 415 555 0701",
    })
    expect(again.statusCode).toBe(200)
    expect((again.json() as { lead: unknown }).lead).toBeNull()
    const leads = (await admin(app, orgId, "GET", "/api/leads")).json() as { data: Array<Record<string, unknown>> }
    expect(leads.data).toMatchObject([{ phone: "14155550701", name: "Rita", type: "CALLBACK_REQUESTED" }])
    expect((await leadEventsOf(infra, orgId)).map((e) => e.event)).toEqual(["lead.created", "lead.updated"])
  })

  it("announces no callback the BOOKING lead does not say, and puts it before a person in the Inbox", async () => {
    const orgId = newOrg()
    const date = futureWeekday(3)
    const booked = await widget(app, orgId, "POST", "/api/public/bookings", {
      name: "Lena",
      phone: "+49 151 00000006",
      date,
      time: "10:00",
      service: "consultation",
    })
    expect(booked.statusCode, booked.body).toBe(201)
    await publish(inbound(orgId, "4915100000006", "Hi, this is Lena, please call me back"))
    await waitForReplies(orgId, 1)
    const inbox = async () =>
      (
        (await admin(app, orgId, "GET", "/api/conversations?channel=cloud")).json() as {
          data: Array<{ waiting: boolean; lead: { type: string } | null }>
        }
      ).data
    await eventually(async () => expect(await inbox()).toMatchObject([{ waiting: true, lead: { type: "BOOKING" } }]))
    // lead.updated would say what GET /api/leads says: nothing of it changed, so nothing is announced.
    expect((await leadEventsOf(infra, orgId)).map((e) => [e.event, e.data.type])).toEqual([["lead.created", "BOOKING"]])
  })
})

import { eventually } from "@parley/platform/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Answer, type Client, type MintedKey, type System, startSystem, type Tenant } from "./support/system.ts"

// docs/contract.md §1 isolation, for the widget surface (§8) and the messaging API (§9): every route
// that takes an id or lists data is a row; A first uses it on its own data (an unfinished route
// fails here, loudly), then B — by admin session, by legacy key, and on /api/public by its widget
// key — gets 404 or sees nothing of A's, and A's data is unchanged afterwards.
let system: System
let a: Tenant
let b: Tenant
let keyA: MintedKey
let widgetA: MintedKey
let sessionA: string
let transcriptA: unknown
let templateA: Record<string, unknown>
let campaignA: string
let messageA: { id: string; messageId: string }
let day: string
let contactA: string
let attackers: Record<string, { private: Client; public: Client }>

const expectNotFound = (answer: Answer, what: string) =>
  expect({ status: answer.status, body: answer.body }, what).toEqual({
    status: 404,
    body: { error: "Not found", code: "not_found" },
  })
const ok = (answer: Answer, status: number, what: string) =>
  expect(answer.status, `${what}: ${answer.text}`).toBe(status)

const PHONE_A = "14155550123"
/** A customer of A who wrote STOP: on A's opt-out list. */
const OPTED_OUT_A = "14155550125"
const CLOUD_A = { phoneNumberId: "100000000001", businessAccountId: "200000000001", accessToken: "token-of-a" }
const CLOUD_B = { phoneNumberId: "100000000002", businessAccountId: "200000000002", accessToken: "token-of-b" }

/** The next Wednesday at least a week out: inside default opening hours, never in the past. */
const nextWednesday = (): string => {
  const date = new Date(Date.now() + 7 * 86_400_000)
  while (date.getUTCDay() !== 3) date.setUTCDate(date.getUTCDate() + 1)
  return date.toISOString().slice(0, 10)
}

let bookingA: string
const PROFILE_A = {
  businessName: "Ada's Atelier",
  languages: ["en", "de"],
  faqs: [{ question: "Where is your atelier?", answer: "A's secret address, 1 Private Lane" }],
  handoffMessage: "A's own hand-off",
}

beforeAll(async () => {
  system = await startSystem()
  ;[a, b] = await Promise.all([system.createTenant(), system.createTenant()])
  ;[keyA, widgetA] = await Promise.all([
    a.mintKey(),
    a.mintKey(["chat:write", "chat:read", "bookings:read", "bookings:write"]),
  ])
  day = nextWednesday()
  const chat = await widgetA.client.post("/api/public/chat", { message: `I'm Ada, call me on +${PHONE_A}` })
  ok(chat, 200, "A's widget chat")
  sessionA = chat.body.sessionId
  transcriptA = (await widgetA.client.get(`/api/public/chat/${sessionA}`)).body
  const booking = await widgetA.client.post("/api/public/bookings", {
    name: "Ada",
    phone: PHONE_A,
    date: day,
    time: "10:00",
    service: "consultation",
  })
  ok(booking, 201, "A's widget booking")
  bookingA = booking.body.id
  ok(await keyA.client.put("/api/assistant/profile", PROFILE_A), 200, "A's assistant profile")
  ok(await keyA.client.put("/api/channels/cloud", CLOUD_A), 200, "A's cloud channel")
  // A's customers write: PHONE_A opens the 24-hour window for free-form text, another opts out.
  const customersWrite = await system.providerCallback({
    object: "whatsapp_business_account",
    entry: [
      {
        id: CLOUD_A.businessAccountId,
        changes: [
          {
            field: "messages",
            value: {
              messaging_product: "whatsapp",
              metadata: { display_phone_number: "15550000001", phone_number_id: CLOUD_A.phoneNumberId },
              messages: [
                { from: PHONE_A, id: "wamid.iso.a1", timestamp: "1700000000", type: "text", text: { body: "Hi" } },
                {
                  from: OPTED_OUT_A,
                  id: "wamid.iso.a2",
                  timestamp: "1700000000",
                  type: "text",
                  text: { body: "STOP" },
                },
              ],
            },
          },
        ],
      },
    ],
  })
  ok(customersWrite, 200, "A's customers write")
  const sent = await keyA.client.post("/api/messages", { to: PHONE_A, text: "Hello from A" })
  ok(sent, 202, "A's message")
  messageA = sent.body
  const template = await keyA.client.post("/api/templates", {
    name: "iso_welcome",
    language: "en_US",
    category: "UTILITY",
    components: [{ type: "BODY", text: "Welcome" }],
  })
  ok(template, 201, "A's template")
  templateA = template.body
  // Campaigns need an approved template: the provider approves it through its signed callback (§10.1).
  const approved = await system.providerCallback({
    object: "whatsapp_business_account",
    entry: [
      {
        id: CLOUD_A.businessAccountId,
        changes: [
          {
            field: "message_template_status_update",
            value: {
              event: "APPROVED",
              message_template_id: Number(templateA.metaTemplateId),
              message_template_name: "iso_welcome",
              message_template_language: "en_US",
              reason: "NONE",
            },
          },
        ],
      },
    ],
  })
  ok(approved, 200, "the provider's approval")
  await eventually(async () => {
    const list = await keyA.client.get("/api/templates")
    expect(list.body.data[0]?.status).toBe("APPROVED")
  })
  const campaign = await keyA.client.post("/api/campaigns", {
    name: "A's campaign",
    template: { name: "iso_welcome", language: "en_US" },
    recipients: ["14155550124"],
  })
  ok(campaign, 202, "A's campaign")
  campaignA = campaign.body.id
  const imported = await keyA.client.post("/api/contacts/import", undefined, {
    raw: `phone,name\n${PHONE_A},Ada\n`,
    contentType: "text/csv",
  })
  ok(imported, 200, "A's contact import")
  contactA = (await keyA.client.get("/api/contacts")).body.data[0].id
  const [keyB, widgetB] = await Promise.all([
    b.mintKey(),
    b.mintKey(["chat:write", "chat:read", "bookings:read", "bookings:write"]),
  ])
  attackers = {
    "B's admin session": { private: b.admin.client, public: widgetB.client },
    "B's legacy key": { private: keyB.client, public: keyB.client },
  }
}, 60_000)

afterAll(async () => {
  await system?.close()
})

interface Row {
  readonly route: string
  readonly control: () => Promise<void>
  readonly attack: (attacker: { private: Client; public: Client }, second: boolean) => Promise<void>
  readonly unchanged?: () => Promise<void>
}

const transcriptUnchanged = async () =>
  expect((await widgetA.client.get(`/api/public/chat/${sessionA}`)).body).toEqual(transcriptA)
const slotTakenForA = async () => {
  const slots = await widgetA.client.get(`/api/public/bookings/slots?date=${day}&service=consultation`)
  ok(slots, 200, "A's slots")
  expect(slots.body.slots).toContainEqual({ time: "10:00", available: false })
}
const aHasOne = (path: string, field: string, value: () => string) => async () => {
  const list = await keyA.client.get(path)
  ok(list, 200, path)
  expect(list.body.data.map((row: Record<string, unknown>) => row[field])).toContain(value())
}
const seesNoneOf = (path: string, secrets: () => Array<string>) => async (x: { private: Client }) => {
  const list = await x.private.get(path)
  ok(list, 200, `B lists ${path}`)
  for (const secret of secrets()) expect(list.text, `B's ${path} shows A's ${secret}`).not.toContain(secret)
}

const rows: ReadonlyArray<Row> = [
  // §8 the widget surface
  {
    route: "GET /api/public/chat/:sessionId",
    control: transcriptUnchanged,
    attack: async (x) => expectNotFound(await x.public.get(`/api/public/chat/${sessionA}`), "B reads A's chat"),
  },
  {
    route: "POST /api/public/chat",
    control: transcriptUnchanged,
    attack: async (x) => {
      const reply = await x.public.post("/api/public/chat", { sessionId: sessionA, message: "what did I say?" })
      ok(reply, 200, "B chats with A's session id")
      // An unknown session (another organization's) starts a new one; A's is not joined.
      expect(reply.body.sessionId).not.toBe(sessionA)
      expect(reply.text).not.toContain(PHONE_A)
    },
    unchanged: transcriptUnchanged,
  },
  {
    route: "POST /api/public/chat/reset",
    control: transcriptUnchanged,
    attack: async (x) =>
      expectNotFound(await x.public.post("/api/public/chat/reset", { sessionId: sessionA }), "B resets A's chat"),
    unchanged: transcriptUnchanged,
  },
  {
    route: "GET /api/public/bookings/slots",
    control: slotTakenForA,
    attack: async (x) => {
      const slots = await x.public.get(`/api/public/bookings/slots?date=${day}&service=consultation`)
      ok(slots, 200, "B's slots")
      expect(slots.body.slots).toContainEqual({ time: "10:00", available: true })
    },
  },
  {
    route: "POST /api/public/bookings",
    control: slotTakenForA,
    attack: async (x, second) => {
      // A's booking fills A's slot, not B's (capacity 1 each); the second attacker takes another time.
      const time = second ? "11:00" : "10:00"
      const booked = await x.public.post("/api/public/bookings", {
        name: "Bo",
        phone: "14155550999",
        date: day,
        time,
        service: "consultation",
      })
      ok(booked, 201, `B books ${time}`)
    },
    unchanged: async () => {
      await slotTakenForA()
      const bookings = await keyA.client.get(`/api/bookings?date=${day}`)
      expect(bookings.body.data.map((row: { phone: string }) => row.phone)).toEqual([PHONE_A])
    },
  },
  // §9 messaging
  {
    route: "PUT /api/channels/cloud",
    control: aHasOne("/api/channels", "phoneNumberId", () => CLOUD_A.phoneNumberId),
    attack: async (x) => {
      // A's business account is A's: the provider routes its template updates by it (§10.1).
      const taken = await x.private.put("/api/channels/cloud", {
        ...CLOUD_B,
        businessAccountId: CLOUD_A.businessAccountId,
      })
      expect({ status: taken.status, code: taken.body.code }, "B connects A's business account").toEqual({
        status: 409,
        code: "conflict",
      })
      ok(await x.private.put("/api/channels/cloud", CLOUD_B), 200, "B's own cloud channel")
    },
    unchanged: aHasOne("/api/channels", "phoneNumberId", () => CLOUD_A.phoneNumberId),
  },
  {
    route: "GET /api/channels",
    control: aHasOne("/api/channels", "phoneNumberId", () => CLOUD_A.phoneNumberId),
    attack: seesNoneOf("/api/channels", () => [CLOUD_A.phoneNumberId, CLOUD_A.businessAccountId]),
  },
  {
    route: "POST /api/messages",
    control: aHasOne("/api/messages", "id", () => messageA.id),
    attack: async (x) => {
      const before = system.provider.requests.length
      await x.private.post("/api/messages", { to: PHONE_A, text: "from B" })
      const calls = system.provider.requests.slice(before)
      expect(calls.map((call) => call.headers.authorization)).not.toContain(`Bearer ${CLOUD_A.accessToken}`)
      expect(calls.map((call) => call.path).join()).not.toContain(CLOUD_A.phoneNumberId)
    },
  },
  {
    route: "GET /api/messages",
    control: aHasOne("/api/messages", "id", () => messageA.id),
    attack: async (x) => {
      await seesNoneOf("/api/messages", () => [messageA.id, messageA.messageId])(x)
      await seesNoneOf(`/api/messages?phone=${PHONE_A}`, () => [messageA.id, messageA.messageId])(x)
    },
  },
  {
    route: "GET /api/templates",
    control: aHasOne("/api/templates", "id", () => templateA.id as string),
    attack: seesNoneOf("/api/templates", () => [templateA.id as string]),
  },
  {
    route: "POST /api/templates",
    control: aHasOne("/api/templates", "id", () => templateA.id as string),
    // A's name+language is A's: B may use the same one (no 409 across organizations).
    attack: async (x, second) => {
      const created = await x.private.post("/api/templates", {
        name: "iso_welcome",
        language: second ? "en_GB" : "en_US",
        category: "UTILITY",
        components: [{ type: "BODY", text: "Welcome from B" }],
      })
      ok(created, 201, "B's template of A's name")
    },
    unchanged: async () => {
      const list = await keyA.client.get("/api/templates")
      expect(list.body.data).toEqual([
        expect.objectContaining({ id: templateA.id, name: "iso_welcome", language: "en_US" }),
      ])
    },
  },
  {
    route: "GET /api/campaigns/:id",
    control: async () => ok(await keyA.client.get(`/api/campaigns/${campaignA}`), 200, "A's campaign"),
    attack: async (x) => expectNotFound(await x.private.get(`/api/campaigns/${campaignA}`), "B reads A's campaign"),
  },
  {
    route: "GET /api/campaigns",
    control: aHasOne("/api/campaigns", "id", () => campaignA),
    attack: seesNoneOf("/api/campaigns", () => [campaignA, "A's campaign"]),
  },
  {
    route: "GET /api/campaigns/:id/recipients",
    control: () => aHasOne(`/api/campaigns/${campaignA}/recipients`, "phone", () => "14155550124")(),
    attack: async (x) =>
      expectNotFound(await x.private.get(`/api/campaigns/${campaignA}/recipients`), "B reads A's recipients"),
  },
  {
    route: "GET /api/contacts/opt-outs",
    control: aHasOne("/api/contacts/opt-outs", "phone", () => OPTED_OUT_A),
    attack: seesNoneOf("/api/contacts/opt-outs", () => [OPTED_OUT_A]),
  },
  {
    route: "DELETE /api/contacts/opt-outs/:phone",
    control: aHasOne("/api/contacts/opt-outs", "phone", () => OPTED_OUT_A),
    attack: async (x) => {
      const removed = await x.private.delete(`/api/contacts/opt-outs/${OPTED_OUT_A}`)
      expect(removed.status, "B removes a number from its own list").toBe(204)
    },
    unchanged: aHasOne("/api/contacts/opt-outs", "phone", () => OPTED_OUT_A),
  },
  {
    route: "GET /api/leads",
    control: aHasOne("/api/leads", "phone", () => PHONE_A),
    attack: seesNoneOf("/api/leads", () => [PHONE_A]),
  },
  {
    route: "GET /api/leads/export",
    control: async () => expect((await keyA.client.get("/api/leads/export")).text).toContain(PHONE_A),
    attack: async (x) => {
      const csv = await x.private.get("/api/leads/export")
      ok(csv, 200, "B's export")
      expect(csv.text).not.toContain(PHONE_A)
    },
  },
  {
    route: "GET /api/contacts",
    control: aHasOne("/api/contacts", "phone", () => PHONE_A),
    attack: seesNoneOf("/api/contacts", () => [contactA]),
  },
  {
    route: "POST /api/contacts/import",
    control: aHasOne("/api/contacts", "phone", () => PHONE_A),
    attack: async (x, keyed) =>
      ok(
        await x.private.post("/api/contacts/import", undefined, {
          raw: `phone,name\n${PHONE_A},Mallory\n`,
          contentType: "text/csv",
        }),
        // With a session a body must be application/json (docs/contract.md §2.4): imports take a key.
        keyed ? 200 : 415,
        "B's import",
      ),
    unchanged: async () => {
      const list = await keyA.client.get("/api/contacts")
      expect(list.body.data).toEqual([expect.objectContaining({ phone: PHONE_A, name: "Ada" })])
    },
  },
  {
    route: "GET /api/bookings",
    control: async () => aHasOne(`/api/bookings?date=${day}`, "phone", () => PHONE_A)(),
    attack: async (x) => {
      await seesNoneOf("/api/bookings", () => [PHONE_A])(x)
      await seesNoneOf(`/api/bookings?date=${day}`, () => [PHONE_A])(x)
    },
  },
  {
    route: "PUT /api/bookings/settings",
    control: slotTakenForA,
    attack: async (x) => {
      // B's own settings differ from A's in every field that would change A's slots, yet still offer
      // the service at the times the other rows of the second attacker book.
      const open = [["09:00", "17:00"]]
      const hours = { mon: open, tue: open, wed: open, thu: open, fri: open, sat: [], sun: [] }
      const settings = { timezone: "UTC", services: ["consultation", "massage"], slotMinutes: 60, capacity: 3, hours }
      ok(await x.private.put("/api/bookings/settings", settings), 200, "B's settings")
    },
    unchanged: slotTakenForA,
  },
  {
    route: "DELETE /api/bookings/:id",
    control: slotTakenForA,
    attack: async (x) => {
      const answer = await x.private.delete(`/api/bookings/${bookingA}`)
      expect({ status: answer.status, body: answer.body }).toEqual({
        status: 404,
        body: { error: "Not found", code: "not_found" },
      })
    },
    unchanged: async () => {
      await slotTakenForA()
      const list = await keyA.client.get(`/api/bookings?date=${day}`)
      expect(list.body.data).toEqual([expect.objectContaining({ id: bookingA, status: "confirmed" })])
    },
  },
  // §8 the assistant's profile
  {
    route: "GET /api/assistant/profile",
    control: async () => expect((await keyA.client.get("/api/assistant/profile")).body).toMatchObject(PROFILE_A),
    attack: async (x, second) => {
      const own = await x.private.get("/api/assistant/profile")
      ok(own, 200, "B's profile")
      // Before B saves one, its profile is the default, named after B (docs/contract.md §8).
      if (!second) expect(own.body).toEqual({ businessName: b.name, languages: ["en"], faqs: [] })
      expect(own.text).not.toContain("Ada's Atelier")
      expect(own.text).not.toContain("1 Private Lane")
    },
  },
  {
    route: "PUT /api/assistant/profile",
    control: async () => expect((await keyA.client.get("/api/assistant/profile")).body).toMatchObject(PROFILE_A),
    attack: async (x) => {
      const profile = {
        businessName: "B's shop",
        languages: ["fr"],
        faqs: [{ question: "Where?", answer: "B's place" }],
      }
      ok(await x.private.put("/api/assistant/profile", profile), 200, "B's profile")
      // A's visitors still get A's answers.
      const answer = await widgetA.client.post("/api/public/chat", { message: "where is the atelier?" })
      ok(answer, 200, "A's widget chat")
      expect(answer.body.reply.text).toBe("A's secret address, 1 Private Lane")
    },
    unchanged: async () => expect((await keyA.client.get("/api/assistant/profile")).body).toEqual(PROFILE_A),
  },
  // POST /api/media and POST /api/campaigns create B's own, with nothing of A's to name or list.
]

describe.each(["B's admin session", "B's legacy key"])("as %s, on organization A's data", (who) => {
  it.each(rows.map((row) => [row.route, row] as const))("%s shows and changes nothing of A's", async (_, row) => {
    await row.control()
    await row.attack(attackers[who] as { private: Client; public: Client }, who === "B's legacy key")
    await row.unchanged?.()
  })
})

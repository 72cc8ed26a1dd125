import { createHmac } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Answer, type CallOptions, type System, startSystem } from "./support/system.ts"

// docs/contract.md §1: "500 … anything unexpected" — a tenant's bad body is never unexpected. Every
// POST/PUT/PATCH route of the contract gets, table-driven, malformed JSON, bodies of the wrong
// shape, and each top-level field replaced by wrong types, huge numbers, NUL bytes, lone
// surrogates and the like. Any 5xx fails the test naming the route and the body; every 4xx must be
// a contract error body.
let system: System
let routes: ReadonlyArray<FuzzRoute>
let key: string

interface FuzzRoute {
  readonly route: string
  /** A body the route would accept (or nearly): its fields are what gets mutated. */
  readonly base: Record<string, unknown>
  /** Routes that hash a password (scrypt, ~100 ms of CPU each) get the type mutations only. */
  readonly hashes?: boolean
  send(raw: string | Uint8Array): Promise<Answer>
}

const WRONG_VALUES: ReadonlyArray<string> = [
  "123",
  "-1",
  "0.5",
  "1e999",
  "-1e999",
  "9007199254740993",
  "123456789012345678901234567890",
  "true",
  "null",
  "[]",
  "{}",
  '[1,"a",null]',
  '{"$gt":""}',
  '""',
  '"\\u0000"',
  '"a\\u0000b"',
  '"\\ud800"',
  '"\\udfff\\ud800"',
  '"𝄞 é 漢字 🙂 \\u202e"',
  `"${"x".repeat(100_000)}"`,
  '"\' OR 1=1 --"',
  '"2026-13-45T25:61:00Z"',
  '"../../etc/passwd"',
  '"http://[::1"',
]

const TYPE_VALUES: ReadonlyArray<string> = ["123", "1e999", "null", "[]", "{}", '"a\\u0000b"', '"\\ud800"', '""']

const WHOLE_BODIES: ReadonlyArray<string | Uint8Array> = [
  "{",
  '{"a":',
  "",
  " ",
  "[]",
  "[{}]",
  "null",
  '"a string"',
  "42",
  "true",
  "{}",
  '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}',
  `${"[".repeat(10_000)}${"]".repeat(10_000)}`,
  `${'{"a":'.repeat(5_000)}1${"}".repeat(5_000)}`,
  '{"a":"\u0000"}',
  "\ufeff{}",
  new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
  '{"a":1,"a":2}',
  "{'single':'quotes'}",
  "NaN",
]

/** The body with one top-level field's value replaced by a raw JSON fragment. */
const withField = (base: Record<string, unknown>, field: string, fragment: string): string => {
  const marker = `__fuzz_${field}__`
  return JSON.stringify({ ...base, [field]: marker }).replace(`"${marker}"`, fragment)
}

const casesOf = (route: FuzzRoute): Array<string | Uint8Array> => [
  ...WHOLE_BODIES,
  ...Object.keys(route.base).flatMap((field) => [
    ...(route.hashes === true ? TYPE_VALUES : WRONG_VALUES).map((fragment) => withField(route.base, field, fragment)),
    JSON.stringify(Object.fromEntries(Object.entries(route.base).filter(([name]) => name !== field))),
  ]),
  // One level down: each field of a nested object (visitor, template, admin, hours) gets the type mutations.
  ...Object.entries(route.base).flatMap(([field, value]) =>
    isPlainObject(value)
      ? Object.keys(value).flatMap((inner) =>
          TYPE_VALUES.map((fragment) =>
            JSON.stringify({ ...route.base, [field]: JSON.parse(withField(value, inner, fragment)) }),
          ),
        )
      : [],
  ),
  JSON.stringify(route.base),
]

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value)

const preview = (body: string | Uint8Array): string => {
  const text = typeof body === "string" ? JSON.stringify(body) : `bytes(${Buffer.from(body).toString("hex")})`
  return text.length > 120 ? `${text.slice(0, 120)}… (${text.length} chars)` : text
}

beforeAll(async () => {
  system = await startSystem()
  const tenant = await system.createTenant()
  key = (await tenant.mintKey()).key
  const widget = (await tenant.mintKey(["chat:write", "chat:read", "bookings:read", "bookings:write"])).key
  const hook = await tenant.admin.client.post("/api/org/webhooks", { url: `${system.provider.url}/hook` })
  expect(hook.status, hook.text).toBe(201)
  const bridge = await tenant.admin.client.put("/api/channels/bridge", { outboundUrl: `${system.provider.url}/bridge` })
  expect(bridge.status, bridge.text).toBe(200)
  const member = await tenant.addMember()
  // The cloud channel's fuzz stores odd access tokens: in an organization of its own, so that the
  // send and template routes above are not answered for a channel the fuzz broke.
  const channelKey = (await (await system.createTenant()).mintKey()).key
  const appSecret = system.running.env.PARLEY_CLOUD_APP_SECRET as string
  // The sandbox's routes (docs/contract.md §16), in an organization whose cloud channel is a sandbox.
  const sandboxKey = (await (await system.createTenant()).mintKey()).key
  const sandboxed = await system.call("PUT", "/api/channels/cloud", { key: sandboxKey, json: { sandbox: true } })
  expect(sandboxed.status, sandboxed.text).toBe(200)
  const sandboxTemplate = await system.call("POST", "/api/templates", {
    key: sandboxKey,
    json: { name: "fuzz_t", language: "en_US", category: "UTILITY", components: [{ type: "BODY", text: "x" }] },
  })
  expect(sandboxTemplate.status, sandboxTemplate.text).toBe(201)

  const json =
    (method: string, path: string, extra: CallOptions = {}) =>
    (raw: string | Uint8Array) =>
      system.call(method, path, { ...extra, raw, contentType: "application/json" })
  const asKey = (method: string, path: string) => json(method, path, { key })
  const asWidget = (method: string, path: string) => json(method, path, { key: widget })
  const operator = { headers: { authorization: `Bearer ${system.operatorToken}` } }
  const inbound = { headers: { authorization: `Bearer ${bridge.body.inboundToken}` } }
  const wh = hook.body.id as string
  const day = "2030-01-02"
  const admin = { email: "fuzz-admin@example.com", password: "long-enough-password" }

  routes = [
    {
      route: "POST /api/auth/login",
      base: { email: member.email, password: "wrong-but-long" },
      hashes: true,
      send: json("POST", "/api/auth/login"),
    },
    { route: "POST /api/auth/logout", base: {}, send: json("POST", "/api/auth/logout", { cookie: member.cookie }) },
    {
      route: "POST /api/operator/organizations",
      base: { name: "Fuzz", features: ["api_access"], admin },
      hashes: true,
      send: json("POST", "/api/operator/organizations", operator),
    },
    {
      route: "PATCH /api/operator/organizations/:id",
      base: { name: "Renamed", features: [] },
      send: json("PATCH", `/api/operator/organizations/${tenant.orgId}`, operator),
    },
    {
      route: "POST /api/org/members",
      base: { email: "m@example.com", password: "long-enough-pw", role: "member" },
      hashes: true,
      send: asKey("POST", "/api/org/members"),
    },
    {
      route: "POST /api/org/api-keys",
      base: { name: "k", scopes: ["chat:write"], allowedOrigins: ["https://a.example"] },
      send: asKey("POST", "/api/org/api-keys"),
    },
    {
      route: "POST /api/org/webhooks",
      base: {
        url: `${system.provider.url}/x`,
        secret: Buffer.alloc(32, 1).toString("base64"),
        events: ["lead.created"],
      },
      send: asKey("POST", "/api/org/webhooks"),
    },
    {
      route: "PUT /api/org/webhooks/:id",
      base: {
        url: `${system.provider.url}/y`,
        events: ["lead.created"],
        enabled: true,
        secret: Buffer.alloc(32, 2).toString("base64"),
      },
      send: asKey("PUT", `/api/org/webhooks/${wh}`),
    },
    {
      route: "POST /api/org/webhooks/:id/deliveries/:deliveryId/redeliver",
      base: {},
      send: asKey("POST", `/api/org/webhooks/${wh}/deliveries/dlv_${"a".repeat(22)}/redeliver`),
    },
    {
      route: "POST /api/org/webhooks/:id/replay",
      base: { since: "2026-01-01T00:00:00.000Z", until: "2030-01-01T00:00:00.000Z", status: "failed" },
      send: asKey("POST", `/api/org/webhooks/${wh}/replay`),
    },
    {
      route: "POST /api/public/chat",
      base: { sessionId: "ses_x", message: "hello", visitor: { name: "V", phone: "+1 415 555 0100" } },
      send: asWidget("POST", "/api/public/chat"),
    },
    {
      route: "POST /api/public/chat (key in the body)",
      base: { apiKey: widget, message: "hello" },
      send: json("POST", "/api/public/chat"),
    },
    {
      route: "POST /api/public/chat/reset",
      base: { sessionId: "ses_x" },
      send: asWidget("POST", "/api/public/chat/reset"),
    },
    {
      route: "POST /api/public/bookings",
      base: {
        name: "N",
        phone: "14155550100",
        date: day,
        time: "10:00",
        service: "consultation",
        sessionId: "ses_x",
        notes: "n",
      },
      send: asWidget("POST", "/api/public/bookings"),
    },
    {
      route: "PUT /api/channels/cloud",
      base: { phoneNumberId: "400000000001", businessAccountId: "400000000002", accessToken: "t" },
      send: json("PUT", "/api/channels/cloud", { key: channelKey }),
    },
    {
      route: "POST /api/sandbox/inbound",
      base: { from: "14155550100", name: "N", text: "hi" },
      send: json("POST", "/api/sandbox/inbound", { key: sandboxKey }),
    },
    {
      route: "POST /api/sandbox/templates/:id",
      base: { status: "REJECTED", reason: "r", qualityScore: "GREEN", category: "UTILITY" },
      send: json("POST", `/api/sandbox/templates/${sandboxTemplate.body.id}`, { key: sandboxKey }),
    },
    {
      route: "PUT /api/channels/bridge",
      base: { outboundUrl: `${system.provider.url}/bridge` },
      send: asKey("PUT", "/api/channels/bridge"),
    },
    // The two shapes of docs/contract.md §9 apart: a body with both is refused before any field is read.
    {
      route: "POST /api/messages (text)",
      base: { to: "14155550100", channel: "bridge", text: "hi" },
      send: asKey("POST", "/api/messages"),
    },
    {
      route: "POST /api/messages (template)",
      base: { to: "14155550100", channel: "cloud", template: { name: "t", language: "en_US", variables: ["a"] } },
      send: asKey("POST", "/api/messages"),
    },
    {
      route: "POST /api/templates",
      base: { name: "fuzz_t", language: "en_US", category: "UTILITY", components: [{ type: "BODY", text: "x" }] },
      send: asKey("POST", "/api/templates"),
    },
    {
      route: "POST /api/campaigns",
      base: { name: "c", template: { name: "fuzz_t", language: "en_US" }, recipients: ["14155550100"] },
      send: asKey("POST", "/api/campaigns"),
    },
    {
      route: "PUT /api/bookings/settings",
      base: {
        timezone: "UTC",
        services: ["consultation"],
        slotMinutes: 30,
        capacity: 1,
        hours: { mon: [["09:00", "17:00"]] },
      },
      send: asKey("PUT", "/api/bookings/settings"),
    },
    {
      route: "POST /channels/cloud/webhook",
      base: { object: "whatsapp_business_account", entry: [{ id: "1", changes: [{ field: "messages", value: {} }] }] },
      send: (raw) =>
        system.call("POST", "/channels/cloud/webhook", {
          raw,
          contentType: "application/json",
          headers: { "x-hub-signature-256": `sha256=${createHmac("sha256", appSecret).update(raw).digest("hex")}` },
        }),
    },
    {
      route: "POST /channels/bridge/inbound",
      base: { from: "14155550100", name: "N", type: "text", text: "hi", messageId: "m1" },
      send: json("POST", "/channels/bridge/inbound", inbound),
    },
    {
      route: "POST /channels/bridge/status",
      base: { messageId: "m1", status: "delivered", recipient: "14155550100" },
      send: json("POST", "/channels/bridge/status", inbound),
    },
  ]
}, 60_000)

afterAll(async () => {
  await system?.close()
})

const KNOWN_CODES = new Set([
  "invalid_request",
  "unauthorized",
  "missing_scope",
  "widget_key_forbidden",
  "origin_not_allowed",
  "admin_required",
  "plan_feature_required",
  "key_limit",
  "webhook_limit",
  "not_found",
  "conflict",
  "payload_too_large",
  "unsupported_media_type",
  "rate_limited",
])

const ROUTES = [
  "POST /api/auth/login",
  "POST /api/auth/logout",
  "POST /api/operator/organizations",
  "PATCH /api/operator/organizations/:id",
  "POST /api/org/members",
  "POST /api/org/api-keys",
  "POST /api/org/webhooks",
  "PUT /api/org/webhooks/:id",
  "POST /api/org/webhooks/:id/deliveries/:deliveryId/redeliver",
  "POST /api/org/webhooks/:id/replay",
  "POST /api/public/chat",
  "POST /api/public/chat (key in the body)",
  "POST /api/public/chat/reset",
  "POST /api/public/bookings",
  "PUT /api/channels/cloud",
  "POST /api/sandbox/inbound",
  "POST /api/sandbox/templates/:id",
  "PUT /api/channels/bridge",
  "POST /api/messages (text)",
  "POST /api/messages (template)",
  "POST /api/templates",
  "POST /api/campaigns",
  "PUT /api/bookings/settings",
  "POST /channels/cloud/webhook",
  "POST /channels/bridge/inbound",
  "POST /channels/bridge/status",
]

describe("bad bodies on every POST, PUT and PATCH route", () => {
  it("covers every route of the table", () => {
    expect(routes.map((route) => route.route)).toEqual(ROUTES)
  })

  it.each(ROUTES)("%s never answers 5xx, and every refusal is a contract error body", async (name) => {
    const route = routes.find((candidate) => candidate.route === name) as FuzzRoute
    const failures: Array<string> = []
    const cases = casesOf(route)
    for (let at = 0; at < cases.length; at += 8) {
      await Promise.all(
        cases.slice(at, at + 8).map(async (body) => {
          const answer = await route.send(body)
          const where = `${route.route} ${preview(body)} → ${answer.status} ${answer.text.slice(0, 200)}`
          if (answer.status >= 500) failures.push(where)
          else if (answer.status >= 400) {
            const { error, code, issues, ...rest } = answer.body ?? {}
            const shaped = typeof error === "string" && KNOWN_CODES.has(code) && Object.keys(rest).length === 0
            if (!shaped || (issues !== undefined && !Array.isArray(issues)))
              failures.push(`not an error body: ${where}`)
          }
        }),
      )
    }
    expect(failures, failures.join("\n")).toEqual([])
  })
})

describe("bad uploads on the non-JSON routes", () => {
  const CSV_BODIES: ReadonlyArray<string | Uint8Array> = [
    "",
    "phone\n",
    "name\nAda\n",
    "phone,name\n14155550100,a\u0000b\n",
    "phone,name\n\u0000,Ada\n",
    'phone,name\n"14155550100,Ada\n',
    `phone,name\n${"9".repeat(100_000)},Ada\n`,
    "phone,phone,name\n1,2,3\n",
    new Uint8Array([0x70, 0x68, 0x6f, 0x6e, 0x65, 0x0a, 0xff, 0xfe, 0x00, 0x0a]),
    "\ufeffphone,name\n14155550100,\ud800\n",
  ]
  const MEDIA_BODIES: ReadonlyArray<string | Uint8Array> = ["", "\u0000", new Uint8Array(1024).fill(0xff)]

  it("POST /api/contacts/import never answers 5xx", async () => {
    const answers = await Promise.all(
      CSV_BODIES.map(async (raw) => ({
        raw,
        answer: await system.call("POST", "/api/contacts/import", { key, raw, contentType: "text/csv" }),
      })),
    )
    const failures = answers
      .filter(({ answer }) => answer.status >= 500)
      .map(({ raw, answer }) => `${preview(raw)} → ${answer.status} ${answer.text}`)
    expect(failures, failures.join("\n")).toEqual([])
  })

  it("POST /api/media never answers 5xx", async () => {
    for (const contentType of ["image/png", "application/pdf", "image/", 'image/png; charset="x']) {
      for (const raw of MEDIA_BODIES) {
        const answer = await system.call("POST", "/api/media", { key, raw, contentType })
        expect(answer.status, `${contentType} ${preview(raw)} → ${answer.text}`).toBeLessThan(500)
      }
    }
  })
})

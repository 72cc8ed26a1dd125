/**
 * Every validation rule of docs/contract.md §5 through the HTTP routes: each refusal is a 400
 * `invalid_request` whose `issues` name the field, and a refused change leaves the webhook as it was.
 */
import type { Resolver } from "@parley/egress"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeRegistryHarness, newOrg, type RegistryHarness } from "./harness.ts"

// DNS under the test's control: each name answers the addresses listed here, unknown names fail.
const dns: Record<string, ReadonlyArray<string>> = {
  "public.test": ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"],
  "private.test": ["10.0.0.5"],
  "loopback6.test": ["::1"],
  "unique-local.test": ["fd00::1"],
  "mapped.test": ["::ffff:192.168.0.1"],
  "link-local.test": ["169.254.10.10"],
  "mixed.test": ["93.184.216.34", "192.168.1.20"],
  "empty.test": [],
}
const resolver: Resolver = async (host) => {
  const addresses = dns[host]
  if (addresses === undefined) throw new Error(`ENOTFOUND ${host}`)
  return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }))
}

let lax: RegistryHarness
let strict: RegistryHarness
beforeAll(async () => {
  lax = await makeRegistryHarness()
  strict = await makeRegistryHarness({ allowPrivate: false, resolver, db: lax.db })
})
afterAll(async () => {
  await strict?.close()
  await lax?.close()
})

type Org = ReturnType<typeof newOrg>
const create = (harness: RegistryHarness, org: Org, payload: unknown) =>
  harness.request({ method: "POST", url: "/api/org/webhooks", org, payload: payload as object })

const expectInvalid = (response: { statusCode: number; json(): unknown }, fields: ReadonlyArray<string>) => {
  expect(response.statusCode).toBe(400)
  const body = response.json() as { error: string; code: string; issues: Array<{ path: string; message: string }> }
  expect(body.code).toBe("invalid_request")
  expect(body.error).toMatch(/^Invalid request: /)
  expect(body.issues.map((issue) => issue.path).sort()).toEqual([...fields].sort())
  for (const issue of body.issues) expect(issue.message).toBeTypeOf("string")
}

const bytes = (n: number) => Buffer.from(Array.from({ length: n }, (_, i) => (i * 37 + 11) % 256))
const good = "https://public.test/hook"

describe("the url", () => {
  it.each([
    ["a number", 42],
    ["null", null],
    ["a relative path", "/hooks"],
    ["a host without scheme", "example.com/hook"],
    ["an ftp URL", "ftp://example.com/hook"],
    ["a javascript URL", "javascript:alert(1)"],
    ["a file URL", "file:///etc/passwd"],
    ["a user name", "https://user@example.com/hook"],
    ["a user and password", "https://user:pass@example.com/hook"],
    ["only a password", "https://:pass@example.com/hook"],
    ["2049 characters", `https://example.com/${"a".repeat(2049 - "https://example.com/".length)}`],
    // The URL parser forgives these by stripping them, but the string stored and shown would not be the URL.
    ["surrounded by spaces", " https://example.com/hook "],
    ["broken by a tab", "https://exa\tmple.com/hook"],
    ["ended by a newline", "https://example.com/hook\n"],
    ["holding a control character", "https://example.com/\u0000hook"],
  ])("is refused when it is %s", async (_name, value) => {
    expectInvalid(await create(lax, newOrg(), { url: value }), ["url"])
  })

  it("is accepted at exactly 2048 characters", async () => {
    const value = `https://example.com/${"a".repeat(2048 - "https://example.com/".length)}`
    expect(value).toHaveLength(2048)
    expect((await create(lax, newOrg(), { url: value })).statusCode).toBe(201)
  })

  it("is required on creation", async () => {
    expectInvalid(await create(lax, newOrg(), { events: ["lead.created"] }), ["url"])
  })
})

describe("the url, with private addresses not allowed", () => {
  it.each([
    "http://127.0.0.1/x",
    "http://127.8.9.10:8080/x",
    "http://2130706433/x",
    "http://0x7f.1/x",
    "http://0.0.0.0/x",
    "http://10.20.30.40/x",
    "http://172.16.0.1/x",
    "http://172.31.255.254/x",
    "http://192.168.0.1/x",
    "http://100.64.0.1/x",
    "http://169.254.169.254/latest/meta-data",
    "http://224.0.0.1/x",
    "http://[::1]/x",
    "http://[::]/x",
    "http://[fe80::1]/x",
    "http://[fc00::1]/x",
    "http://[fd12:3456::1]/x",
    "http://[::ffff:127.0.0.1]/x",
    "http://[::ffff:10.0.0.1]/x",
    "http://[::ffff:a9fe:a9fe]/x",
    "http://private.test/x",
    "http://loopback6.test/x",
    "http://unique-local.test/x",
    "http://mapped.test/x",
    "http://link-local.test/x",
    "http://mixed.test/x",
    "http://empty.test/x",
    "http://nowhere.test/x",
  ])("refuses %s", async (value) => {
    expectInvalid(await create(strict, newOrg(), { url: value }), ["url"])
  })

  it.each([
    "https://public.test/hook",
    "http://93.184.216.34/x",
    "https://[2606:4700:4700::1111]/x",
    "http://172.32.0.1/x",
  ])("accepts the public %s", async (value) => {
    expect((await create(strict, newOrg(), { url: value })).statusCode).toBe(201)
  })

  it("refuses a private URL on update too, and keeps the old one", async () => {
    const org = newOrg()
    const { id } = (await create(strict, org, { url: good })).json()
    const response = await strict.request({
      method: "PUT",
      url: `/api/org/webhooks/${id}`,
      org,
      payload: { url: "http://private.test/x" },
    })
    expectInvalid(response, ["url"])
    expect((await strict.request({ method: "GET", url: `/api/org/webhooks/${id}`, org })).json().url).toBe(good)
  })
})

describe("the secret", () => {
  it.each([
    ["31 bytes, standard", bytes(31).toString("base64")],
    ["33 bytes, standard", bytes(33).toString("base64")],
    ["31 bytes, URL-safe", bytes(31).toString("base64url")],
    ["33 bytes, URL-safe", bytes(33).toString("base64url")],
    ["32 bytes in hex", bytes(32).toString("hex")],
    ["not base64", "not base64 at all, clearly: ###########"],
    [
      "base64 with a space inside",
      `${bytes(32).toString("base64").slice(0, 20)} ${bytes(32).toString("base64").slice(20)}`,
    ],
    ["too much padding", `${bytes(32).toString("base64")}==`],
    ["empty", ""],
    ["a number", 12345],
    ["null", null],
  ])("is refused when it is %s", async (_name, secret) => {
    expectInvalid(await create(lax, newOrg(), { url: good, secret }), ["secret"])
  })
})

describe("the events", () => {
  it.each([
    ["empty", [], "events"],
    ["a single name, not an array", "lead.created", "events"],
    ["an unknown name", ["lead.deleted"], "events[0]"],
    ["a name in the wrong case", ["lead.created", "Lead.Created"], "events[1]"],
    ["not a string", ["lead.created", 7], "events[1]"],
    ["null", null, "events"],
  ])("are refused when %s", async (_name, events, field) => {
    expectInvalid(await create(lax, newOrg(), { url: good, events }), [field])
  })
})

describe("the body", () => {
  it("names every bad field at once", async () => {
    expectInvalid(await create(lax, newOrg(), { url: "ftp://x", secret: "short", events: [] }), [
      "url",
      "secret",
      "events",
    ])
  })

  it("answers 400 to an array body and creates nothing", async () => {
    const org = newOrg()
    const response = await create(lax, org, [{ url: good }])
    expect(response.statusCode).toBe(400)
    expect(response.json().code).toBe("invalid_request")
    expect((await lax.request({ method: "GET", url: "/api/org/webhooks", org })).json()).toEqual({ data: [] })
  })

  it("answers 415 to a body that is not JSON", async () => {
    const response = await lax.request({
      method: "POST",
      url: "/api/org/webhooks",
      org: newOrg(),
      headers: { "content-type": "text/plain" },
      payload: JSON.stringify({ url: good }),
    })
    expect(response.statusCode).toBe(415)
    expect(response.json()).toEqual({ error: "Unsupported media type", code: "unsupported_media_type" })
  })

  it("creates nothing when refused", async () => {
    const org = newOrg()
    await create(lax, org, { url: good, secret: bytes(31).toString("base64") })
    const rows = await lax.db.sql`select count(*)::int as n from webhook_registry.webhooks where org_id = ${org}`
    expect(rows[0]?.n).toBe(0)
  })
})

describe("a refused update", () => {
  it.each([
    [{ url: "https://a:b@example.com/x" }, ["url"]],
    [{ secret: bytes(33).toString("base64") }, ["secret"]],
    [{ events: [] }, ["events"]],
    [{ events: ["nope"] }, ["events[0]"]],
    [{ enabled: "true" }, ["enabled"]],
    [{ url: "nope", enabled: 1 }, ["url", "enabled"]],
  ])("to %j changes nothing at all", async (payload, fields) => {
    const org = newOrg()
    const { id } = (await create(lax, org, { url: good })).json()
    const [before] = await lax.db.sql`select * from webhook_registry.webhooks where id = ${id}`
    expectInvalid(await lax.request({ method: "PUT", url: `/api/org/webhooks/${id}`, org, payload }), fields)
    const [after] = await lax.db.sql`select * from webhook_registry.webhooks where id = ${id}`
    expect(after).toEqual(before)
    const published = await lax.db.sql`select 1 from parley_bus.records where key = ${id}`
    expect(published).toHaveLength(1)
  })
})

describe("an unknown webhook", () => {
  it.each([
    ["GET", undefined],
    ["PUT", { enabled: false }],
    ["DELETE", undefined],
  ] as const)("answers 404 not_found to %s", async (method, payload) => {
    const response = await lax.request({
      method,
      url: "/api/org/webhooks/wh_0000000000000000000000",
      org: newOrg(),
      ...(payload === undefined ? {} : { payload }),
    })
    expect(response.statusCode).toBe(404)
    expect(response.json()).toEqual({ error: "Not found", code: "not_found" })
  })
})

describe("the limit of five, across two instances of the registry", () => {
  it("lets exactly one of two creations at four succeed when each instance takes one", async () => {
    for (let round = 0; round < 5; round++) {
      const org = newOrg()
      for (let i = 0; i < 4; i++) expect((await create(lax, org, { url: good })).statusCode).toBe(201)
      const answers = await Promise.all([create(lax, org, { url: good }), create(strict, org, { url: good })])
      expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 403])
      const refused = answers.find((a) => a.statusCode === 403)
      expect(refused?.json()).toEqual({ error: "Maximum 5 webhooks per organization", code: "webhook_limit" })
      const rows = await lax.db.sql`select count(*)::int as n from webhook_registry.webhooks where org_id = ${org}`
      expect(rows[0]?.n).toBe(5)
    }
  })
})

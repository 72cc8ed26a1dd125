import { EventCatalogue } from "@parley/contracts"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { box, makeRegistryHarness, newOrg, type RegistryHarness } from "./harness.ts"

let harness: RegistryHarness
beforeAll(async () => {
  harness = await makeRegistryHarness()
})
afterAll(() => harness?.close())

const url = "http://127.0.0.1:9/hook"
const webhookKeys = [
  "createdAt",
  "enabled",
  "events",
  "failureCount",
  "id",
  "lastDeliveryAt",
  "lastDeliveryStatus",
  "lastResponseStatus",
  "updatedAt",
  "url",
]

const create = (org: ReturnType<typeof newOrg>, payload: unknown = { url }) =>
  harness.request({ method: "POST", url: "/api/org/webhooks", org, payload: payload as object })

describe("creating a webhook", () => {
  it("answers 201 with exactly the Webhook fields plus the generated secret, subscribed to the whole catalogue", async () => {
    const org = newOrg()
    const response = await create(org)
    expect(response.statusCode).toBe(201)
    const body = response.json()
    expect(Object.keys(body).sort()).toEqual([...webhookKeys, "secret", "signingSecret"].sort())
    expect(body).toMatchObject({
      url,
      enabled: true,
      events: EventCatalogue.map((e) => e.name),
      lastDeliveryStatus: null,
      lastDeliveryAt: null,
      lastResponseStatus: null,
      failureCount: 0,
    })
    expect(body.id).toMatch(/^wh_[0-9A-Za-z]{22}$/)
    expect(Buffer.from(body.secret, "base64")).toHaveLength(32)
    expect(body.signingSecret).toBe(`whsec_${body.secret}`)
    expect(body.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
  })

  it("keeps a given secret and events, duplicates removed", async () => {
    const secret = Buffer.alloc(32, 4).toString("base64url")
    const response = await create(newOrg(), {
      url,
      secret,
      events: ["lead.created", "lead.created", "message.inbound"],
    })
    expect(response.statusCode).toBe(201)
    expect(response.json()).toMatchObject({ secret, events: ["lead.created", "message.inbound"] })
  })

  it("answers signingSecret as whsec_ and the standard base64 of the same bytes, also for a URL-safe secret", async () => {
    const bytes = Buffer.from(Array.from({ length: 32 }, (_, i) => 250 - i))
    expect(bytes.toString("base64url")).toMatch(/[-_]/)
    for (const secret of [bytes.toString("base64url"), `${bytes.toString("base64url")}=`]) {
      const body = (await create(newOrg(), { url, secret })).json()
      expect(body.secret).toBe(secret)
      expect(body.signingSecret).toBe(`whsec_${bytes.toString("base64")}`)
      expect(body.signingSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    }
  })

  it("stores the secret sealed, never in plain text, and publishes only the sealed form", async () => {
    const secret = Buffer.alloc(32, 6).toString("base64")
    const { id } = (await create(newOrg(), { url, secret })).json()
    const [row] = await harness.db.sql`select sealed_secret from webhook_registry.webhooks where id = ${id}`
    expect(row?.sealed_secret).toMatch(/^v1\./)
    expect(row?.sealed_secret).not.toContain(secret)
    expect(box.open(row?.sealed_secret)).toBe(secret)
    const published = await harness.db.sql`select value from parley_bus.records where key = ${id}`
    expect(published).toHaveLength(1)
    expect(published[0]?.value).not.toContain(secret)
    expect(JSON.parse(published[0]?.value)).toMatchObject({ webhookId: id, deleted: false, version: 1 })
  })

  it.each([
    [{}, "url"],
    [{ url: "/relative" }, "url"],
    [{ url: "ftp://example.com/x" }, "url"],
    [{ url: "https://user:pass@example.com/x" }, "url"],
    [{ url: `https://example.com/${"a".repeat(2050)}` }, "url"],
    [{ url, secret: "short" }, "secret"],
    [{ url, secret: Buffer.alloc(31).toString("base64") }, "secret"],
    [{ url, events: [] }, "events"],
    [{ url, events: ["lead.created", "nope"] }, "events[1]"],
  ])("answers 400 naming the field for %j", async (payload, field) => {
    const response = await create(newOrg(), payload)
    expect(response.statusCode).toBe(400)
    const body = response.json()
    expect(body.code).toBe("invalid_request")
    expect(body.error).toMatch(/^Invalid request: /)
    expect(body.issues.map((issue: { path: string }) => issue.path)).toContain(field)
  })

  it("allows at most five webhooks per organization", async () => {
    const org = newOrg()
    for (let i = 0; i < 5; i++) expect((await create(org)).statusCode).toBe(201)
    const sixth = await create(org)
    expect(sixth.statusCode).toBe(403)
    expect(sixth.json()).toEqual({ error: "Maximum 5 webhooks per organization", code: "webhook_limit" })
  })

  it("lets exactly one of two concurrent creations at four succeed", async () => {
    for (let round = 0; round < 5; round++) {
      const org = newOrg()
      for (let i = 0; i < 4; i++) await create(org)
      const results = await Promise.all([create(org), create(org)])
      expect(results.map((r) => r.statusCode).sort()).toEqual([201, 403])
      const rows = await harness.db.sql`select count(*)::int as n from webhook_registry.webhooks where org_id = ${org}`
      expect(rows[0]?.n).toBe(5)
    }
  })

  it("lets exactly five of ten concurrent creations succeed", async () => {
    const org = newOrg()
    const results = await Promise.all(Array.from({ length: 10 }, () => create(org)))
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(5)
    expect(results.filter((r) => r.statusCode === 403)).toHaveLength(5)
  })
})

describe("reading, changing and deleting", () => {
  it("lists newest first and reads one, never showing the secret", async () => {
    const org = newOrg()
    const first = (await create(org)).json()
    const second = (await create(org)).json()
    const list = await harness.request({ method: "GET", url: "/api/org/webhooks", org, role: "member" })
    expect(list.statusCode).toBe(200)
    expect(list.json().data.map((w: { id: string }) => w.id)).toEqual([second.id, first.id])
    for (const webhook of list.json().data) expect(Object.keys(webhook).sort()).toEqual(webhookKeys)
    const one = await harness.request({ method: "GET", url: `/api/org/webhooks/${first.id}`, org, role: "member" })
    expect(one.statusCode).toBe(200)
    expect(Object.keys(one.json()).sort()).toEqual(webhookKeys)
  })

  it("updates url, events, enabled and rotates the secret, publishing each change with a higher version", async () => {
    const org = newOrg()
    const { id } = (await create(org)).json()
    const secret = Buffer.alloc(32, 8).toString("base64")
    const response = await harness.request({
      method: "PUT",
      url: `/api/org/webhooks/${id}`,
      org,
      payload: { url: "http://127.0.0.1:10/new", events: ["message.status"], enabled: false, secret },
    })
    expect(response.statusCode).toBe(200)
    const body = response.json()
    expect(Object.keys(body).sort()).toEqual(webhookKeys)
    expect(body).toMatchObject({ url: "http://127.0.0.1:10/new", events: ["message.status"], enabled: false })
    const [row] = await harness.db.sql`select sealed_secret, version from webhook_registry.webhooks where id = ${id}`
    expect(box.open(row?.sealed_secret)).toBe(secret)
    const versions = await harness.db.sql`select value from parley_bus.records where key = ${id} order by "offset"`
    expect(versions.map((r) => JSON.parse(r.value).version)).toEqual([1, 2])
  })

  it("answers 400 naming the field on a bad update and changes nothing", async () => {
    const org = newOrg()
    const { id } = (await create(org)).json()
    const response = await harness.request({
      method: "PUT",
      url: `/api/org/webhooks/${id}`,
      org,
      payload: { enabled: "no" },
    })
    expect(response.statusCode).toBe(400)
    expect(response.json().issues[0].path).toBe("enabled")
    const [row] = await harness.db.sql`select version from webhook_registry.webhooks where id = ${id}`
    expect(row?.version).toBe(1)
  })

  it("deletes with 204, then answers 404, and publishes the deletion", async () => {
    const org = newOrg()
    const { id } = (await create(org)).json()
    expect((await harness.request({ method: "DELETE", url: `/api/org/webhooks/${id}`, org })).statusCode).toBe(204)
    expect((await harness.request({ method: "GET", url: `/api/org/webhooks/${id}`, org })).statusCode).toBe(404)
    const records = await harness.db.sql`select value from parley_bus.records where key = ${id} order by "offset"`
    expect(JSON.parse(records.at(-1)?.value)).toMatchObject({ deleted: true, version: 2 })
  })
})

describe("who may do what", () => {
  it("refuses members on administrator routes with 403 admin_required", async () => {
    const org = newOrg()
    const { id } = (await create(org)).json()
    const calls = [
      { method: "POST" as const, url: "/api/org/webhooks", payload: { url } },
      { method: "PUT" as const, url: `/api/org/webhooks/${id}`, payload: { enabled: false } },
      { method: "DELETE" as const, url: `/api/org/webhooks/${id}` },
      { method: "POST" as const, url: `/api/org/webhooks/${id}/deliveries/dlv_0000000000000000000000/redeliver` },
      {
        method: "POST" as const,
        url: `/api/org/webhooks/${id}/replay`,
        payload: { since: "2026-01-01T00:00:00.000Z" },
      },
    ]
    for (const call of calls) {
      const response = await harness.request({ ...call, org, role: "member" })
      expect(response.statusCode, `${call.method} ${call.url}`).toBe(403)
      expect(response.json()).toEqual({ error: "Organization administrator required", code: "admin_required" })
    }
  })

  it("refuses calls without a valid principal", async () => {
    const response = await harness.app.inject({ method: "GET", url: "/api/org/webhooks" })
    expect(response.statusCode).toBe(401)
    const forged = await harness.app.inject({
      method: "GET",
      url: "/api/org/webhooks",
      headers: { "x-parley-principal": "e30.AAAA" },
    })
    expect(forged.statusCode).toBe(401)
  })

  it("answers another organization's webhook as missing on every route", async () => {
    const owner = newOrg()
    const stranger = newOrg()
    const { id } = (await create(owner)).json()
    const calls = [
      { method: "GET" as const, url: `/api/org/webhooks/${id}` },
      { method: "PUT" as const, url: `/api/org/webhooks/${id}`, payload: { enabled: false } },
      { method: "DELETE" as const, url: `/api/org/webhooks/${id}` },
      { method: "GET" as const, url: `/api/org/webhooks/${id}/deliveries` },
      { method: "POST" as const, url: `/api/org/webhooks/${id}/deliveries/dlv_0000000000000000000000/redeliver` },
      {
        method: "POST" as const,
        url: `/api/org/webhooks/${id}/replay`,
        payload: { since: "2026-01-01T00:00:00.000Z" },
      },
    ]
    for (const call of calls) {
      const response = await harness.request({ ...call, org: stranger })
      expect(response.statusCode, `${call.method} ${call.url}`).toBe(404)
      expect(response.json()).toEqual({ error: "Not found", code: "not_found" })
    }
    const list = await harness.request({ method: "GET", url: "/api/org/webhooks", org: stranger })
    expect(list.json()).toEqual({ data: [] })
    const [row] = await harness.db.sql`select enabled from webhook_registry.webhooks where id = ${id}`
    expect(row?.enabled).toBe(true)
  })

  it("serves the event catalogue to any member", async () => {
    const response = await harness.request({
      method: "GET",
      url: "/api/org/webhook-events",
      org: newOrg(),
      role: "member",
    })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({
      data: EventCatalogue.map((e) => ({
        name: e.name,
        description: e.description,
        channels: e.channels,
        sample: e.sample,
      })),
    })
  })
})

describe("with private addresses not allowed", () => {
  it("refuses URLs that are, or resolve to, non-public addresses", async () => {
    const strict = await makeRegistryHarness({
      allowPrivate: false,
      resolver: async (host) => [{ address: host === "inside.test" ? "10.0.0.5" : "93.184.216.34", family: 4 }],
    })
    try {
      const org = newOrg()
      for (const bad of [
        "http://127.0.0.1/x",
        "http://[::1]/x",
        "http://inside.test/x",
        "http://169.254.169.254/latest",
      ]) {
        const response = await strict.request({ method: "POST", url: "/api/org/webhooks", org, payload: { url: bad } })
        expect(response.statusCode, bad).toBe(400)
        expect(response.json().issues[0].path).toBe("url")
      }
      const ok = await strict.request({
        method: "POST",
        url: "/api/org/webhooks",
        org,
        payload: { url: "https://hooks.example.com/x" },
      })
      expect(ok.statusCode).toBe(201)
    } finally {
      await strict.close()
    }
  })
})

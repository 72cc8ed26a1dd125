/**
 * The ordinary life of a webhook through the HTTP routes: what each answer holds, what is stored,
 * and what an update leaves alone. Complements webhooks.test.ts, which covers the basic shape.
 */
import { EventCatalogue } from "@parley/contracts"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { box, makeRegistryHarness, newOrg, type RegistryHarness } from "./harness.ts"

let harness: RegistryHarness
beforeAll(async () => {
  harness = await makeRegistryHarness()
})
afterAll(() => harness?.close())

const url = "http://127.0.0.1:9/hook"
type Org = ReturnType<typeof newOrg>
const create = (org: Org, payload: object = { url }) =>
  harness.request({ method: "POST", url: "/api/org/webhooks", org, payload })
const get = (org: Org, id: string) =>
  harness.request({ method: "GET", url: `/api/org/webhooks/${id}`, org, role: "member" })
const put = (org: Org, id: string, payload: object) =>
  harness.request({ method: "PUT", url: `/api/org/webhooks/${id}`, org, payload })
const rowOf = async (id: string) =>
  (await harness.db.sql`select * from webhook_registry.webhooks where id = ${id}`)[0] as Record<string, unknown>

const bytes32 = Buffer.from(Array.from({ length: 32 }, (_, i) => 255 - i * 3))

describe("creating", () => {
  it("generates a different 32-byte standard-base64 secret for each webhook and seals exactly that one", async () => {
    const org = newOrg()
    const first = (await create(org)).json()
    const second = (await create(org)).json()
    for (const created of [first, second]) {
      expect(created.secret).toMatch(/^[A-Za-z0-9+/]{43}=$/)
      expect(Buffer.from(created.secret, "base64")).toHaveLength(32)
      expect(box.open((await rowOf(created.id)).sealed_secret as string)).toBe(created.secret)
    }
    expect(first.secret).not.toBe(second.secret)
  })

  it.each([
    ["standard base64 with padding", bytes32.toString("base64")],
    ["standard base64 without padding", bytes32.toString("base64").replace(/=+$/, "")],
    ["URL-safe base64 without padding", bytes32.toString("base64url")],
    ["URL-safe base64 with padding", `${bytes32.toString("base64url")}=`],
  ])("accepts a 32-byte secret in %s and keeps it exactly as given", async (_form, secret) => {
    const response = await create(newOrg(), { url, secret })
    expect(response.statusCode).toBe(201)
    expect(response.json().secret).toBe(secret)
    expect(box.open((await rowOf(response.json().id)).sealed_secret as string)).toBe(secret)
  })

  it("stores the whole catalogue as the subscription when events are omitted", async () => {
    const { id } = (await create(newOrg())).json()
    expect((await rowOf(id)).events).toEqual(EventCatalogue.map((e) => e.name))
  })

  it("keeps the events in the order given, first occurrence of a duplicate winning", async () => {
    const org = newOrg()
    const response = await create(org, {
      url,
      events: ["template.status", "message.inbound", "template.status", "lead.updated", "message.inbound"],
    })
    expect(response.json().events).toEqual(["template.status", "message.inbound", "lead.updated"])
    expect((await get(org, response.json().id)).json().events).toEqual([
      "template.status",
      "message.inbound",
      "lead.updated",
    ])
  })

  it("reads back exactly what the creation answered, minus the secret", async () => {
    const org = newOrg()
    const { secret, signingSecret, ...created } = (await create(org)).json()
    expect(secret).toBeTypeOf("string")
    expect(signingSecret).toBe(`whsec_${secret}`)
    const read = await get(org, created.id)
    expect(read.statusCode).toBe(200)
    expect(read.json()).toEqual(created)
    expect(created.updatedAt).toBe(created.createdAt)
    expect(
      JSON.stringify((await harness.request({ method: "GET", url: "/api/org/webhooks", org })).json()),
    ).not.toContain(secret)
  })

  it("accepts loopback and private URLs when private addresses are allowed", async () => {
    const org = newOrg()
    for (const target of [
      "http://127.0.0.1:8080/x",
      "http://10.1.2.3/x",
      "http://[::1]:9000/x",
      "http://localhost/x",
    ]) {
      const response = await create(org, { url: target })
      expect(response.statusCode, target).toBe(201)
      expect(response.json().url).toBe(target)
    }
  })

  it("frees a place under the limit when a webhook is deleted", async () => {
    const org = newOrg()
    const ids: Array<string> = []
    for (let i = 0; i < 5; i++) ids.push((await create(org)).json().id)
    expect((await create(org)).statusCode).toBe(403)
    await harness.request({ method: "DELETE", url: `/api/org/webhooks/${ids[0]}`, org })
    expect((await create(org)).statusCode).toBe(201)
  })

  it("counts the limit per organization: a full organization does not hold back another", async () => {
    const full = newOrg()
    for (let i = 0; i < 5; i++) await create(full)
    expect((await create(full)).statusCode).toBe(403)
    expect((await create(newOrg())).statusCode).toBe(201)
  })
})

describe("updating", () => {
  it("changes only the fields given, keeping the secret, createdAt and the rest", async () => {
    const org = newOrg()
    const {
      secret,
      signingSecret: _signingSecret,
      ...created
    } = (await create(org, { url, events: ["lead.created"] })).json()
    const sealedBefore = (await rowOf(created.id)).sealed_secret
    const response = await put(org, created.id, { enabled: false })
    expect(response.statusCode).toBe(200)
    const updated = response.json()
    expect(updated).not.toHaveProperty("secret")
    expect(updated).toMatchObject({ ...created, enabled: false, updatedAt: expect.any(String) })
    expect(Date.parse(updated.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.updatedAt))
    expect((await rowOf(created.id)).sealed_secret).toBe(sealedBefore)
    expect(box.open(sealedBefore as string)).toBe(secret)
    expect((await get(org, created.id)).json()).toEqual(updated)
  })

  it("rotates the secret: the sealed value changes and opens to the new secret", async () => {
    const org = newOrg()
    const { id, secret } = (await create(org)).json()
    const sealedBefore = (await rowOf(id)).sealed_secret as string
    const rotated = bytes32.toString("base64url")
    const response = await put(org, id, { secret: rotated })
    expect(response.statusCode).toBe(200)
    expect(response.json()).not.toHaveProperty("secret")
    const sealedAfter = (await rowOf(id)).sealed_secret as string
    expect(sealedAfter).not.toBe(sealedBefore)
    expect(box.open(sealedAfter)).toBe(rotated)
    expect(box.open(sealedAfter)).not.toBe(secret)
  })

  it("re-enables a disabled webhook and replaces its events, duplicates removed", async () => {
    const org = newOrg()
    const { id } = (await create(org)).json()
    await put(org, id, { enabled: false })
    const response = await put(org, id, { enabled: true, events: ["lead.updated", "lead.updated"] })
    expect(response.json()).toMatchObject({ enabled: true, events: ["lead.updated"] })
  })

  it("accepts an empty update and answers the webhook unchanged but for updatedAt", async () => {
    const org = newOrg()
    const { secret: _secret, signingSecret: _signingSecret, ...created } = (await create(org)).json()
    const response = await put(org, created.id, {})
    expect(response.statusCode).toBe(200)
    const { updatedAt, ...rest } = response.json()
    const { updatedAt: _before, ...createdRest } = created
    expect(rest).toEqual(createdRest)
  })
})

describe("deleting", () => {
  it("removes the webhook from the list and answers 404 to a second delete", async () => {
    const org = newOrg()
    const kept = (await create(org)).json()
    const gone = (await create(org)).json()
    const response = await harness.request({ method: "DELETE", url: `/api/org/webhooks/${gone.id}`, org })
    expect(response.statusCode).toBe(204)
    expect(response.body).toBe("")
    const list = await harness.request({ method: "GET", url: "/api/org/webhooks", org, role: "member" })
    expect(list.json().data.map((w: { id: string }) => w.id)).toEqual([kept.id])
    const again = await harness.request({ method: "DELETE", url: `/api/org/webhooks/${gone.id}`, org })
    expect(again.statusCode).toBe(404)
    expect(again.json()).toEqual({ error: "Not found", code: "not_found" })
  })
})

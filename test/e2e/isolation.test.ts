import { eventually, type StubServer, startHttpServer } from "@parley/platform/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type Answer,
  type Client,
  type Member,
  type MintedKey,
  type System,
  startSystem,
  type Tenant,
} from "./support/system.ts"

// docs/contract.md §1: another organization's resource is answered exactly as a missing one (404), and
// lists show only the caller's own. Every id-taking, listing or creating route of §2.4 (members), §4 (keys)
// and §5 (webhooks) is a row of the table below; each row first proves organization A can use the
// route on its own resource (so an unfinished route fails loudly instead of passing as a 404),
// then attacks it as organization B, then checks A's resource is unchanged.
let system: System
let a: Tenant
let b: Tenant
let receiver: StubServer
let keyA: MintedKey
let widgetA: MintedKey
let memberA: Member
let webhookA: { id: string; url: string; events: Array<string>; enabled: boolean }
let deliveryA: string
let attackers: Record<string, Client>

const ids = (answer: Answer): Array<string> => (answer.body?.data ?? []).map((row: { id: string }) => row.id)
const expectNotFound = (answer: Answer, what: string) => {
  expect({ status: answer.status, body: answer.body }, what).toEqual({
    status: 404,
    body: { error: "Not found", code: "not_found" },
  })
}

beforeAll(async () => {
  system = await startSystem()
  receiver = await startHttpServer(() => ({ status: 204 }))
  ;[a, b] = await Promise.all([system.createTenant(), system.createTenant()])
  ;[keyA, widgetA, memberA] = await Promise.all([a.mintKey(), a.mintKey(["chat:write", "chat:read"]), a.addMember()])
  const created = await a.admin.client.post("/api/org/webhooks", { url: `${receiver.url}/a`, events: ["lead.created"] })
  expect(created.status, created.text).toBe(201)
  webhookA = created.body
  // A delivery of A's to aim at: a lead from A's widget, registered more than a second after the webhook (§6).
  await eventually(
    async () => {
      const chat = await widgetA.client.post("/api/public/chat", { message: "I'm Ada, call me on +1 415 555 0199" })
      expect(chat.status, chat.text).toBe(200)
      const deliveries = await a.admin.client.get(`/api/org/webhooks/${webhookA.id}/deliveries`)
      expect(deliveries.status, deliveries.text).toBe(200)
      expect(deliveries.body.data.length).toBeGreaterThan(0)
      deliveryA = deliveries.body.data[0].deliveryId
    },
    { timeoutMs: 20_000, intervalMs: 1_500 },
  )
  const keyB = await b.mintKey()
  attackers = { "B's admin session": b.admin.client, "B's legacy key": keyB.client }
}, 60_000)

afterAll(async () => {
  await receiver?.close()
  await system?.close()
})

interface Row {
  readonly route: string
  /** A, on its own resource: must succeed, or the route is not there and the row proves nothing. */
  readonly control: () => Promise<void>
  readonly attack: (attacker: Client) => Promise<void>
  /** After the attack: A's resource as it was. */
  readonly unchanged?: () => Promise<void>
}

const webhookAsStored = async () => {
  const own = await a.admin.client.get(`/api/org/webhooks/${webhookA.id}`)
  expect(own.status).toBe(200)
  expect(own.body).toMatchObject({ url: webhookA.url, events: webhookA.events, enabled: webhookA.enabled })
}

const keyStillActive = async () => {
  const record = await a.admin.client.get(`/api/org/api-keys/${keyA.id}`)
  expect(record.body?.revokedAt).toBeNull()
  expect((await keyA.client.get("/api/org/webhooks")).status).toBe(200)
}

const rows: ReadonlyArray<Row> = [
  // §2.4 members
  {
    route: "GET /api/org/members",
    control: async () => expect(ids(await a.admin.client.get("/api/org/members"))).toContain(memberA.id),
    attack: async (x) => {
      const list = await x.get("/api/org/members")
      expect(list.status).toBe(200)
      expect(ids(list)).not.toContain(memberA.id)
      expect(ids(list)).not.toContain(a.admin.id)
    },
  },
  {
    route: "DELETE /api/org/members/:id",
    control: async () => expect((await memberA.client.get("/api/auth/me")).status).toBe(200),
    attack: async (x) => expectNotFound(await x.delete(`/api/org/members/${memberA.id}`), "B deletes A's member"),
    unchanged: async () => {
      expect((await memberA.client.get("/api/auth/me")).status).toBe(200)
      expect(ids(await a.admin.client.get("/api/org/members"))).toContain(memberA.id)
    },
  },
  {
    route: "PATCH /api/org/members/:id",
    control: async () => {
      const same = await a.admin.client.patch(`/api/org/members/${memberA.id}`, { role: "member" })
      expect(same.status, same.text).toBe(200)
    },
    attack: async (x) =>
      expectNotFound(
        await x.patch(`/api/org/members/${memberA.id}`, { role: "admin" }),
        "B makes A's member an administrator",
      ),
    unchanged: async () => {
      const list = await a.admin.client.get("/api/org/members")
      expect(list.body.data.find((m: { id: string }) => m.id === memberA.id)?.role).toBe("member")
    },
  },
  {
    route: "POST /api/org/members",
    control: async () => expect(ids(await a.admin.client.get("/api/org/members"))).toContain(memberA.id),
    attack: async (x) => {
      const before = ids(await a.admin.client.get("/api/org/members"))
      const email = `b-member-${crypto.randomUUID()}@example.com`
      const password = `pw-${crypto.randomUUID()}`
      const added = await x.post("/api/org/members", { email, password, role: "admin" })
      expect(added.status, added.text).toBe(201)
      // B's new member is B's: in B's list, signed in to B, and nowhere in A.
      expect(ids(await x.get("/api/org/members"))).toContain(added.body.id)
      const me = await system.client({ cookie: await system.login(email, password) }).get("/api/auth/me")
      expect(me.body?.organization?.id).toBe(b.orgId)
      expect(ids(await a.admin.client.get("/api/org/members"))).toEqual(before)
    },
  },
  // §4 API keys
  {
    route: "GET /api/org/api-keys",
    control: async () => expect(ids(await a.admin.client.get("/api/org/api-keys"))).toContain(keyA.id),
    attack: async (x) => {
      const list = await x.get("/api/org/api-keys")
      expect(list.status).toBe(200)
      expect(ids(list)).not.toContain(keyA.id)
      expect(JSON.stringify(list.body)).not.toContain(keyA.record.prefix as string)
    },
  },
  {
    route: "GET /api/org/api-keys/:id",
    control: async () => expect((await a.admin.client.get(`/api/org/api-keys/${keyA.id}`)).status).toBe(200),
    attack: async (x) => expectNotFound(await x.get(`/api/org/api-keys/${keyA.id}`), "B reads A's key"),
  },
  {
    route: "DELETE /api/org/api-keys/:id",
    control: keyStillActive,
    attack: async (x) => expectNotFound(await x.delete(`/api/org/api-keys/${keyA.id}`), "B revokes A's key"),
    unchanged: keyStillActive,
  },
  {
    route: "POST /api/org/api-keys",
    control: async () => expect((await a.admin.client.get("/api/org/api-keys")).status).toBe(200),
    attack: async (x) => {
      const before = ids(await a.admin.client.get("/api/org/api-keys"))
      const created = await x.post("/api/org/api-keys", { name: "b's own" })
      expect(created.status).toBe(201)
      expect(ids(await a.admin.client.get("/api/org/api-keys"))).toEqual(before)
    },
  },
  // §5 webhooks
  {
    route: "GET /api/org/webhooks",
    control: async () => expect(ids(await a.admin.client.get("/api/org/webhooks"))).toContain(webhookA.id),
    attack: async (x) => {
      const list = await x.get("/api/org/webhooks")
      expect(list.status).toBe(200)
      expect(ids(list)).not.toContain(webhookA.id)
      expect(list.text).not.toContain(receiver.url)
    },
  },
  {
    route: "GET /api/org/webhooks/:id",
    control: webhookAsStored,
    attack: async (x) => expectNotFound(await x.get(`/api/org/webhooks/${webhookA.id}`), "B reads A's webhook"),
  },
  {
    route: "PUT /api/org/webhooks/:id",
    control: webhookAsStored,
    attack: async (x) =>
      expectNotFound(
        await x.put(`/api/org/webhooks/${webhookA.id}`, { url: "http://127.0.0.1:1/stolen", enabled: false }),
        "B changes A's webhook",
      ),
    unchanged: webhookAsStored,
  },
  {
    route: "DELETE /api/org/webhooks/:id",
    control: webhookAsStored,
    attack: async (x) => expectNotFound(await x.delete(`/api/org/webhooks/${webhookA.id}`), "B deletes A's webhook"),
    unchanged: webhookAsStored,
  },
  {
    route: "GET /api/org/webhooks/:id/deliveries",
    control: async () =>
      expect(
        (await a.admin.client.get(`/api/org/webhooks/${webhookA.id}/deliveries`)).body?.data?.length,
      ).toBeGreaterThan(0),
    attack: async (x) =>
      expectNotFound(await x.get(`/api/org/webhooks/${webhookA.id}/deliveries`), "B reads A's delivery log"),
  },
  {
    route: "GET /api/org/webhooks/:id/deliveries/:deliveryId/attempts/:attempt",
    control: async () => {
      const own = await a.admin.client.get(`/api/org/webhooks/${webhookA.id}/deliveries/${deliveryA}/attempts/1`)
      expect(own.status, own.text).toBe(200)
    },
    attack: async (x) => {
      expectNotFound(
        await x.get(`/api/org/webhooks/${webhookA.id}/deliveries/${deliveryA}/attempts/1`),
        "B reads A's attempt",
      )
      // Nor through a webhook of B's own: the delivery id alone must not reach A's request and response.
      const own = await x.post("/api/org/webhooks", { url: `${receiver.url}/b`, events: ["lead.created"] })
      expect(own.status, own.text).toBe(201)
      expectNotFound(
        await x.get(`/api/org/webhooks/${own.body.id}/deliveries/${deliveryA}/attempts/1`),
        "B reads A's attempt through B's webhook",
      )
      expect((await x.delete(`/api/org/webhooks/${own.body.id}`)).status).toBe(204)
    },
  },
  {
    route: "POST /api/org/webhooks/:id/deliveries/:deliveryId/redeliver",
    control: async () => expect(deliveryA).toMatch(/^dlv_/),
    attack: async (x) => {
      const path = `/api/org/webhooks/${webhookA.id}/deliveries/${deliveryA}/redeliver`
      expectNotFound(await x.post(path), "B redelivers A's delivery")
      // Nor through a webhook of B's own: the delivery id alone must not reach A's envelope.
      const own = await x.post("/api/org/webhooks", { url: `${receiver.url}/b`, events: ["lead.created"] })
      expect(own.status, own.text).toBe(201)
      expectNotFound(
        await x.post(`/api/org/webhooks/${own.body.id}/deliveries/${deliveryA}/redeliver`),
        "B redelivers A's delivery to B's webhook",
      )
      expect((await x.delete(`/api/org/webhooks/${own.body.id}`)).status).toBe(204)
    },
  },
  {
    route: "POST /api/org/webhooks/:id/replay",
    control: webhookAsStored,
    attack: async (x) =>
      expectNotFound(
        await x.post(`/api/org/webhooks/${webhookA.id}/replay`, {
          since: new Date(Date.now() - 3_600_000).toISOString(),
        }),
        "B replays A's deliveries",
      ),
  },
  {
    route: "POST /api/org/webhooks/:id/test",
    control: async () => {
      const test = await a.admin.client.post(`/api/org/webhooks/${webhookA.id}/test`, { event: "lead.created" })
      expect(test.status, test.text).toBe(202)
    },
    attack: async (x) =>
      expectNotFound(
        await x.post(`/api/org/webhooks/${webhookA.id}/test`, { event: "lead.created" }),
        "B sends a test event to A's webhook",
      ),
    unchanged: webhookAsStored,
  },
  // GET /api/org/webhook-events is the catalogue, the same for every organization: nothing of A's.
]

describe.each(["B's admin session", "B's legacy key"])("as %s, on organization A's resources", (who) => {
  it.each(rows.map((row) => [row.route, row] as const))("%s shows and changes nothing of A's", async (_, row) => {
    await row.control()
    await row.attack(attackers[who] as Client)
    await row.unchanged?.()
  })
})

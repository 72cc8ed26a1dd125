/**
 * Secrets: sealed at rest, sealed on the bus, never in a response after creation, never in the log;
 * and every change reaches the dispatcher as a `WebhookChanged` record.
 */
import { decodeBusValue, WebhookChanged } from "@parley/contracts"
import { makeLogger, SecretBox } from "@parley/platform"
import { eventually } from "@parley/platform/testing"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Tap, tapTopic } from "./bus-tap.ts"
import { box, makeRegistryHarness, newOrg, type RegistryHarness } from "./harness.ts"

// Every line the registry logs, at the most verbose level, so nothing escapes the assertion.
const logLines: Array<string> = []
const logger = makeLogger({
  service: "webhook-registry",
  level: "trace",
  destination: { write: (line: string) => logLines.push(line) },
})

let harness: RegistryHarness
let tap: Tap
beforeAll(async () => {
  harness = await makeRegistryHarness({ logger })
  tap = await tapTopic(harness, "parley.registry.webhooks.v1")
})
afterAll(async () => {
  await tap?.close()
  await harness?.close()
})

type Org = ReturnType<typeof newOrg>
const url = "http://127.0.0.1:9/hook"
const secretOf = (fill: number) => Buffer.alloc(32, fill).toString("base64")
const create = (org: Org, payload: object) =>
  harness.request({ method: "POST", url: "/api/org/webhooks", org, payload })
const put = (org: Org, id: string, payload: object) =>
  harness.request({ method: "PUT", url: `/api/org/webhooks/${id}`, org, payload })

const changesOf = (id: string) =>
  Promise.all(
    tap.records
      .filter((record) => record.key === id)
      .map((record) => Effect.runPromise(decodeBusValue(WebhookChanged)(record.value))),
  )
const rawChangesOf = (id: string) => tap.records.filter((record) => record.key === id).map((record) => record.value)

describe("the WebhookChanged stream", () => {
  it("carries every create, update, rotation and delete in order, with the secret sealed", async () => {
    const org = newOrg()
    const first = secretOf(21)
    const second = secretOf(22)
    const { id } = (await create(org, { url, secret: first, events: ["lead.created"] })).json()
    await put(org, id, { enabled: false, url: "http://127.0.0.1:9/other" })
    await put(org, id, { secret: second })
    await harness.request({ method: "DELETE", url: `/api/org/webhooks/${id}`, org })

    const changes = await eventually(async () => {
      const seen = await changesOf(id)
      expect(seen).toHaveLength(4)
      return seen
    })
    expect(changes.map((c) => [c.version, c.deleted, c.enabled, c.url])).toEqual([
      [1, false, true, url],
      [2, false, false, "http://127.0.0.1:9/other"],
      [3, false, false, "http://127.0.0.1:9/other"],
      [4, true, false, "http://127.0.0.1:9/other"],
    ])
    for (const change of changes) {
      expect(change).toMatchObject({ webhookId: id, orgId: org, events: ["lead.created"] })
      expect(change.changedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
    }
    expect(changes.map((c) => box.open(c.sealedSecret))).toEqual([first, first, second, second])
    for (const raw of rawChangesOf(id)) {
      expect(raw).not.toContain(first)
      expect(raw).not.toContain(second)
    }
  })

  it("publishes a change for a generated secret too, sealed", async () => {
    const org = newOrg()
    const { id, secret } = (await create(org, { url })).json()
    const [change] = await eventually(async () => {
      const seen = await changesOf(id)
      expect(seen).toHaveLength(1)
      return seen
    })
    expect(box.open(change?.sealedSecret as string)).toBe(secret)
    expect(rawChangesOf(id)[0]).not.toContain(secret)
  })
})

describe("secrets at rest", () => {
  it("seals the same secret differently each time and only the service key opens it", async () => {
    const org = newOrg()
    const secret = secretOf(23)
    const a = (await create(org, { url, secret })).json()
    const b = (await create(org, { url, secret })).json()
    const rows = await harness.db.sql`
      select id, sealed_secret from webhook_registry.webhooks where id in ${harness.db.sql([a.id, b.id])}`
    expect(rows).toHaveLength(2)
    const [x, y] = rows.map((row) => row.sealed_secret as string) as [string, string]
    expect(x).not.toBe(y)
    expect(box.open(x)).toBe(secret)
    expect(box.open(y)).toBe(secret)
    const otherKey = SecretBox.fromBase64Key(Buffer.alloc(32, 99).toString("base64"))
    expect(() => otherKey.open(x)).toThrow()
  })

  it("keeps the plaintext secret nowhere in the webhook's row, in any encoding", async () => {
    const org = newOrg()
    const secret = secretOf(24)
    const { id } = (await create(org, { url, secret })).json()
    const [row] = await harness.db.sql`select * from webhook_registry.webhooks where id = ${id}`
    const dumped = JSON.stringify(row)
    const raw = Buffer.from(secret, "base64")
    for (const form of [secret, raw.toString("base64url"), raw.toString("hex"), raw.toString("latin1")]) {
      expect(dumped).not.toContain(form)
    }
  })

  it("never answers the secret after creation: not in get, list, update or the delivery log", async () => {
    const org = newOrg()
    const secret = secretOf(25)
    const { id } = (await create(org, { url, secret })).json()
    const answers = [
      await harness.request({ method: "GET", url: `/api/org/webhooks/${id}`, org }),
      await harness.request({ method: "GET", url: "/api/org/webhooks", org }),
      await put(org, id, { events: ["message.status"] }),
      await put(org, id, { secret: secretOf(26) }),
      await harness.request({ method: "GET", url: `/api/org/webhooks/${id}/deliveries`, org }),
    ]
    for (const answer of answers) {
      expect(answer.statusCode).toBe(200)
      expect(answer.body).not.toContain(secret)
      expect(answer.body).not.toContain(secretOf(26))
      expect(answer.body).not.toMatch(/secret/i)
    }
  })
})

describe("the log", () => {
  it("never holds a secret through a create, update, rotation, read and delete flow", async () => {
    const org = newOrg()
    const given = secretOf(27)
    const rotated = Buffer.alloc(32, 28).toString("base64url")
    const before = logLines.length
    const generated = (await create(org, { url })).json()
    const { id } = (await create(org, { url, secret: given })).json()
    await put(org, id, { enabled: false })
    await put(org, id, { secret: rotated })
    await put(org, id, { secret: "not-a-valid-secret-but-still-private" })
    await harness.request({ method: "GET", url: `/api/org/webhooks/${id}`, org })
    await harness.request({ method: "DELETE", url: `/api/org/webhooks/${id}`, org })
    await harness.request({ method: "DELETE", url: `/api/org/webhooks/${generated.id}`, org })
    const logged = logLines.slice(before).join("\n")
    // The requests were logged at all, so the absence below means something.
    expect(logged).toContain(id)
    for (const secret of [given, rotated, generated.secret, "not-a-valid-secret-but-still-private"]) {
      expect(logged).not.toContain(secret)
    }
  })
})

describe("a member", () => {
  it("is refused every change with 403 admin_required, and the webhook and the bus stay as they were", async () => {
    const org = newOrg()
    const { id } = (await create(org, { url, secret: secretOf(29) })).json()
    const snapshot = async () => ({
      row: (await harness.db.sql`select * from webhook_registry.webhooks where id = ${id}`)[0],
      records: (await harness.db.sql`select "offset" from parley_bus.records where key = ${id}`).length,
    })
    const before = await snapshot()
    const calls = [
      { method: "PUT" as const, url: `/api/org/webhooks/${id}`, payload: { enabled: false, secret: secretOf(30) } },
      { method: "DELETE" as const, url: `/api/org/webhooks/${id}` },
      {
        method: "POST" as const,
        url: `/api/org/webhooks/${id}/replay`,
        payload: { since: "2020-01-01T00:00:00.000Z" },
      },
      { method: "POST" as const, url: `/api/org/webhooks/${id}/deliveries/dlv_0000000000000000000000/redeliver` },
      { method: "POST" as const, url: "/api/org/webhooks", payload: { url } },
    ]
    for (const call of calls) {
      const response = await harness.request({ ...call, org, role: "member" })
      expect(response.statusCode, `${call.method} ${call.url}`).toBe(403)
      expect(response.json()).toEqual({ error: "Organization administrator required", code: "admin_required" })
    }
    expect(await snapshot()).toEqual(before)
    const list = await harness.request({ method: "GET", url: "/api/org/webhooks", org, role: "member" })
    expect(list.json().data.map((w: { id: string }) => w.id)).toEqual([id])
  })
})

/**
 * Rotation without downtime (docs/contract.md §5): a PUT with a new secret keeps the key in use just
 * before it, sealed, for 24 hours, and publishes it with the webhook's state; a second rotation
 * replaces it; once the window ends the registry erases it and publishes the state without it.
 */
import { decodeBusValue, WebhookChanged } from "@parley/contracts"
import { eventually } from "@parley/platform/testing"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { PreviousSecretWindowMs } from "../src/webhooks/rotation.ts"
import { WebhookStore } from "../src/webhooks/webhook-store.ts"
import { type Tap, tapTopic } from "./bus-tap.ts"
import { box, makeRegistryHarness, newOrg, type RegistryHarness } from "./harness.ts"

/** The registry's sweep, through its WebhookStore service as `app.ts` composes it. */
const forgetExpiredPreviousSecrets = (now: Date) =>
  WebhookStore.use((store) => store.forgetExpiredPreviousSecrets(now)).pipe(
    Effect.provide(WebhookStore.layer("webhook_registry")),
  )

let harness: RegistryHarness
let tap: Tap
beforeAll(async () => {
  harness = await makeRegistryHarness()
  tap = await tapTopic(harness, "parley.registry.webhooks.v1")
})
afterAll(async () => {
  await tap?.close()
  await harness?.close()
})

type Org = ReturnType<typeof newOrg>
const url = "http://127.0.0.1:9/hook"
const secretOf = (fill: number) => Buffer.alloc(32, fill).toString("base64")
const create = async (org: Org, secret: string) =>
  (await harness.request({ method: "POST", url: "/api/org/webhooks", org, payload: { url, secret } })).json() as {
    id: string
  }
const put = (org: Org, id: string, payload: object) =>
  harness.request({ method: "PUT", url: `/api/org/webhooks/${id}`, org, payload })

interface SecretsRow {
  readonly sealed_secret: string
  readonly previous_sealed_secret: string | null
  readonly previous_secret_expires_at: Date | null
  readonly version: number
}
const rowOf = async (id: string) =>
  (
    await harness.db.sql<Array<SecretsRow>>`
      select sealed_secret, previous_sealed_secret, previous_secret_expires_at, version
      from webhook_registry.webhooks where id = ${id}`
  )[0] as SecretsRow

/** The webhook's records on the bus, decoded as the dispatcher decodes them, once `count` have arrived. */
const changesOf = (id: string, count: number) =>
  eventually(async () => {
    const records = tap.records.filter((record) => record.key === id)
    expect(records).toHaveLength(count)
    return {
      raw: records.map((record) => record.value),
      changes: await Promise.all(
        records.map((record) => Effect.runPromise(decodeBusValue(WebhookChanged)(record.value))),
      ),
    }
  })

const sweep = (now: Date) => Effect.runPromiseWith(harness.context)(forgetExpiredPreviousSecrets(now))

describe("rotating a secret", () => {
  it("keeps the key in use before it, sealed, for 24 hours, and publishes it sealed beside the new one", async () => {
    const org = newOrg()
    const [first, second] = [secretOf(31), secretOf(32)]
    const { id } = await create(org, first)
    expect((await rowOf(id)).previous_sealed_secret).toBeNull()
    const before = Date.now()
    const response = await put(org, id, { secret: second })
    expect(response.statusCode).toBe(200)
    expect(response.json()).not.toHaveProperty("secret")
    expect(JSON.stringify(response.json())).not.toContain(first)

    const row = await rowOf(id)
    expect(box.open(row.sealed_secret)).toBe(second)
    expect(row.previous_sealed_secret).toMatch(/^v1\./)
    expect(row.previous_sealed_secret).not.toContain(first)
    expect(box.open(row.previous_sealed_secret as string)).toBe(first)
    const expiresAt = row.previous_secret_expires_at?.getTime() ?? 0
    expect(expiresAt).toBeGreaterThanOrEqual(before + PreviousSecretWindowMs)
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + PreviousSecretWindowMs)
    expect(PreviousSecretWindowMs).toBe(24 * 60 * 60 * 1000)

    const { raw, changes } = await changesOf(id, 2)
    expect(changes[0]?.previousSecret).toBeNull()
    expect(box.open(changes[1]?.sealedSecret as string)).toBe(second)
    expect(box.open(changes[1]?.previousSecret?.sealedSecret as string)).toBe(first)
    expect(changes[1]?.previousSecret?.expiresAt).toBe(row.previous_secret_expires_at?.toISOString())
    for (const value of raw) {
      expect(value).not.toContain(first)
      expect(value).not.toContain(second)
    }
  })

  it("a second rotation inside the window replaces the previous key with the one in use just before it", async () => {
    const org = newOrg()
    const [first, second, third] = [secretOf(41), secretOf(42), secretOf(43)]
    const { id } = await create(org, first)
    await put(org, id, { secret: second })
    const afterFirst = await rowOf(id)
    await put(org, id, { secret: third })
    const afterSecond = await rowOf(id)
    expect(box.open(afterSecond.sealed_secret)).toBe(third)
    expect(box.open(afterSecond.previous_sealed_secret as string)).toBe(second)
    expect(afterSecond.previous_secret_expires_at?.getTime()).toBeGreaterThanOrEqual(
      afterFirst.previous_secret_expires_at?.getTime() ?? Number.POSITIVE_INFINITY,
    )
    const { changes } = await changesOf(id, 3)
    // Never more than two keys: the first is in no record after the second rotation.
    expect(
      changes.map((c) => [box.open(c.sealedSecret), c.previousSecret && box.open(c.previousSecret.sealedSecret)]),
    ).toEqual([
      [first, null],
      [second, first],
      [third, second],
    ])
  })

  it("rotates nothing when the secret given is the key in use, in either alphabet", async () => {
    const org = newOrg()
    const bytes = Buffer.from(Array.from({ length: 32 }, (_, i) => 255 - i * 3))
    const { id } = await create(org, bytes.toString("base64"))
    expect((await put(org, id, { secret: bytes.toString("base64") })).statusCode).toBe(200)
    expect((await put(org, id, { secret: bytes.toString("base64url") })).statusCode).toBe(200)
    const row = await rowOf(id)
    expect(row.previous_sealed_secret).toBeNull()
    expect(row.previous_secret_expires_at).toBeNull()
    expect(box.open(row.sealed_secret)).toBe(bytes.toString("base64url"))
  })

  it("keeps the previous key through changes that do not touch the secret", async () => {
    const org = newOrg()
    const { id } = await create(org, secretOf(51))
    await put(org, id, { secret: secretOf(52) })
    const rotated = await rowOf(id)
    await put(org, id, { enabled: false, events: ["lead.created"] })
    const changed = await rowOf(id)
    expect(changed.previous_sealed_secret).toBe(rotated.previous_sealed_secret)
    expect(changed.previous_secret_expires_at).toEqual(rotated.previous_secret_expires_at)
    const { changes } = await changesOf(id, 3)
    expect(box.open(changes[2]?.previousSecret?.sealedSecret as string)).toBe(secretOf(51))
  })
})

describe("when the window ends", () => {
  it("the registry erases the previous key and publishes the webhook's state without it, one version on", async () => {
    const org = newOrg()
    const { id } = await create(org, secretOf(61))
    await put(org, id, { secret: secretOf(62) })
    const rotated = await rowOf(id)
    const expiresAt = rotated.previous_secret_expires_at as Date

    // Just before the end nothing is erased; at the end it is, and a second sweep finds nothing.
    await sweep(new Date(expiresAt.getTime() - 1))
    expect((await rowOf(id)).previous_sealed_secret).not.toBeNull()
    await sweep(expiresAt)
    const forgotten = await rowOf(id)
    expect(forgotten).toMatchObject({ previous_sealed_secret: null, previous_secret_expires_at: null })
    expect(forgotten.version).toBe(rotated.version + 1)
    expect(box.open(forgotten.sealed_secret)).toBe(secretOf(62))
    await sweep(new Date(expiresAt.getTime() + 60_000))
    expect((await rowOf(id)).version).toBe(forgotten.version)

    const { changes } = await changesOf(id, 3)
    expect(changes[2]).toMatchObject({ version: forgotten.version, previousSecret: null, deleted: false })
    expect(box.open(changes[2]?.sealedSecret as string)).toBe(secretOf(62))
  })
})

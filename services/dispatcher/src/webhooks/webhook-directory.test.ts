import type { OrgId, WebhookChanged, WebhookId } from "@parley/contracts"
import { clientOptions, Database, loadMigrations, migrate } from "@parley/db"
import { type FreshDatabase, freshDatabase } from "@parley/db/testing"
import { Effect } from "effect"
import postgres from "postgres"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Keyring } from "../signing/signing.ts"
import { WebhookDirectory } from "./webhook-directory.ts"

let db: FreshDatabase
let sql: postgres.Sql
const lookups: Array<string> = []

beforeAll(async () => {
  db = await freshDatabase()
  sql = postgres(db.url, {
    ...clientOptions(4),
    debug: (_connection, query) => {
      if (/from "directory_test"\.webhooks/.test(query)) lookups.push(query)
    },
  })
  await Effect.runPromise(
    migrate({
      sql,
      schema: "directory_test",
      migrations: await Effect.runPromise(loadMigrations(new URL("../../migrations/", import.meta.url))),
    }),
  )
})
afterAll(async () => {
  await sql?.end()
  await db?.close()
})

// Sealed secrets stand for themselves here: `opened` counts how often the keyring opens one.
const secrets: Record<string, string> = {
  sealed: Buffer.alloc(32, 1).toString("base64"),
  rotated: Buffer.alloc(32, 2).toString("base64"),
}
const opened: Array<string> = []
const keyring = () =>
  Effect.runSync(
    Keyring.useSync((ring) => ring).pipe(
      Effect.provide(
        Keyring.layer((sealed) => {
          opened.push(sealed)
          return secrets[sealed] as string
        }),
      ),
    ),
  )
/** The directory as the dispatcher's Layer builds it, on this test's client. */
const directoryOf = (ring: Keyring["Service"], schema: string) =>
  Effect.runSync(
    WebhookDirectory.useSync((directory) => directory).pipe(
      Effect.provide(WebhookDirectory.layer(schema)),
      Effect.provideService(Database, { sql }),
      Effect.provideService(Keyring, ring),
    ),
  )

let version = 0
const change = (webhookId: string, orgId: string, enabled: boolean): WebhookChanged =>
  ({
    webhookId: webhookId as WebhookId,
    orgId: orgId as OrgId,
    url: "https://receiver.example/hook",
    events: ["lead.created"],
    enabled,
    sealedSecret: "sealed",
    deleted: false,
    version: ++version,
    changedAt: new Date().toISOString(),
  }) as WebhookChanged

describe("the dispatcher's webhook directory", () => {
  it("answers a burst of lookups of one webhook or organization with one query each", async () => {
    const directory = directoryOf(keyring(), "directory_test")
    await directory.apply(change("wh_burst", "org_burst", true))
    lookups.length = 0
    const targets = await Promise.all(Array.from({ length: 200 }, () => directory.target("wh_burst" as WebhookId)))
    const subscribers = await Promise.all(
      Array.from({ length: 200 }, () => directory.subscribers("org_burst" as OrgId, "lead.created")),
    )
    expect(targets.every((target) => target?.webhookId === "wh_burst")).toBe(true)
    expect(subscribers.every((list) => list.length === 1)).toBe(true)
    expect(lookups).toHaveLength(2)
  })

  it("does not keep an answer read before a change it applied meanwhile", async () => {
    const directory = directoryOf(keyring(), "directory_test")
    await directory.apply(change("wh_race", "org_race", true))
    const before = directory.target("wh_race" as WebhookId)
    await directory.apply(change("wh_race", "org_race", false))
    await before
    expect((await directory.target("wh_race" as WebhookId))?.enabled).toBe(false)
  })

  it("holds the previous key of a rotation until a later change drops it, opening each secret once", async () => {
    const ring = keyring()
    const directory = directoryOf(ring, "directory_test")
    const expiresAt = new Date(Date.now() + 86_400_000)
    await directory.apply({
      ...change("wh_rotated", "org_rotated", true),
      sealedSecret: "rotated",
      previousSecret: { sealedSecret: "sealed", expiresAt: expiresAt.toISOString() },
    })
    opened.length = 0
    const during = await directory.target("wh_rotated" as WebhookId)
    expect(during?.keys.previous).toBeDefined()
    expect(during?.keys.previousUntil).toBe(expiresAt.getTime())
    expect(during?.keys.current.decoded.export()).toEqual(Buffer.alloc(32, 2))
    expect(during?.keys.previous?.decoded.export()).toEqual(Buffer.alloc(32, 1))
    expect(opened.sort()).toEqual(["rotated", "sealed"])

    // Read again from the table (another directory, no cache): the keys already made are reused.
    const reread = await directoryOf(ring, "directory_test").target("wh_rotated" as WebhookId)
    expect(reread?.keys).toBe(during?.keys)
    expect(opened).toHaveLength(2)

    await directory.apply({
      ...change("wh_rotated", "org_rotated", true),
      sealedSecret: "rotated",
      previousSecret: null,
    })
    const after = await directory.target("wh_rotated" as WebhookId)
    expect(after?.keys.previous).toBeUndefined()
  })
})

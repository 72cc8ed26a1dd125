import postgres from "postgres"
import { afterEach, describe, expect, it, vi } from "vitest"
import { freshDatabase } from "./testing.ts"

afterEach(() => {
  vi.unstubAllEnvs()
  vi.restoreAllMocks()
})

describe("freshDatabase", () => {
  it("creates a uniquely named database on the server and drops it on close", async () => {
    const [one, two] = [await freshDatabase(), await freshDatabase()]
    expect(one.embedded).toBe(false)
    expect(one.url).not.toBe(two.url)
    const name = new URL(one.url).pathname.slice(1)
    expect(await one.sql`select current_database() as name`).toEqual([{ name }])
    await Promise.all([one.close(), two.close()])
    const server = postgres("postgres://postgres@127.0.0.1:5432/postgres", { max: 1, onnotice: () => {} })
    expect(await server`select 1 from pg_database where datname = ${name}`).toHaveLength(0)
    await server.end()
  })

  it("falls back to an embedded PGlite, saying so, when no server is reachable", async () => {
    vi.stubEnv("DATABASE_URL", "postgres://postgres@127.0.0.1:1/postgres")
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {})
    const db = await freshDatabase()
    expect(db.embedded).toBe(true)
    expect(await db.sql`select 1::int8 as one`).toEqual([{ one: 1n }])
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("FALLING BACK TO EMBEDDED PGLITE"))
    await db.close()
  })
})

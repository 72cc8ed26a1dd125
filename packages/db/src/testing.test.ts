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

  it("falls back to an embedded PostgreSQL server, saying so once, when no server is reachable", async () => {
    vi.stubEnv("DATABASE_URL", "postgres://postgres@127.0.0.1:1/postgres")
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {})
    const [one, two] = [await freshDatabase(), await freshDatabase()]
    expect([one.embedded, two.embedded]).toEqual([true, true])
    expect(new URL(one.url).host).toBe(new URL(two.url).host)
    expect(one.url).not.toBe(two.url)
    expect(await one.sql`select 1::int8 as one`).toEqual([{ one: 1n }])
    // A real server: LISTEN on one connection hears NOTIFY from another.
    let hear: (payload: string) => void = () => {}
    const heard = new Promise<string>((resolve) => {
      hear = resolve
    })
    await one.sql.listen("fallback_check", hear)
    const other = postgres(one.url, { max: 1, onnotice: () => {} })
    await other`select pg_notify('fallback_check', 'across')`
    await other.end()
    expect(await heard).toBe("across")
    expect(warn).toHaveBeenCalledTimes(1)
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("EMBEDDED PostgreSQL"))
    await Promise.all([one.close(), two.close()])
  })
})

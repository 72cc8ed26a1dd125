import postgres from "postgres"
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest"
import { clientOptions } from "./Database.ts"
import { type DatabaseLink, type FreshDatabase, freshDatabase, startDatabaseLink } from "./testing.ts"

// The database client as every service configures it, behind a TCP link the test cuts: what a
// failover or a network cut does to a busy pool. Each expectation here failed with postgres.js 3.4.9
// as published (scripts/patch-postgres.mjs has the fixes): queries sent while a connection was
// dropping never settled, a connection that dropped with a write pending never connected again, and
// `end()` waited for queries that had long failed.
let db: FreshDatabase
let link: DatabaseLink

beforeAll(async () => {
  db = await freshDatabase()
  link = await startDatabaseLink(db.url)
})

afterAll(async () => {
  await link?.close()
  await db?.close()
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Resolves with the promise's outcome, or "pending" if it has none after `ms`. */
const within = <A>(promise: Promise<A>, ms: number): Promise<A | "pending"> => {
  let timer: NodeJS.Timeout | undefined
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<"pending">((resolve) => {
      timer = setTimeout(() => resolve("pending"), ms)
    }),
  ])
}

describe("the database client when its connections drop under load", () => {
  it("settles every query, reconnects every connection, and ends promptly", { timeout: 60_000 }, async () => {
    const sql = postgres(link.url, clientOptions(10))
    let ended = false
    onTestFinished(async () => {
      if (!ended) await sql.end({ timeout: 0 })
    })
    // Forty callers that retry the moment a query fails, as a worker or a busy API does: some of
    // their retries go out between a socket's 'error' and 'close' events.
    let running = true
    const failures = new Map<string, number>()
    const callers = Array.from({ length: 40 }, async () => {
      let settled = 0
      while (running) {
        try {
          await sql`select 1 as one`
        } catch (error) {
          const code = String((error as { code?: unknown }).code ?? "other")
          failures.set(code, (failures.get(code) ?? 0) + 1)
        }
        settled++
      }
      return settled
    })
    await sleep(300)
    for (let round = 0; round < 3; round++) {
      await link.cut()
      await sleep(50)
      await link.restore()
      await sleep(250)
    }
    running = false

    // Every caller's last query settles (failed or answered): none is left waiting forever.
    expect(await within(Promise.all(callers), 10_000)).not.toBe("pending")
    expect(failures.size).toBeGreaterThan(0) // the cuts did fail queries

    // Every connection of the pool serves again: sixty concurrent queries keep all ten busy, and a
    // connection that cannot reconnect fails its share with CONNECT_TIMEOUT after 5 s.
    const answers = await within(
      Promise.allSettled(Array.from({ length: 60 }, () => sql`select pg_sleep(0.02), 1 as one`)),
      4_000,
    )
    expect(answers).not.toBe("pending")
    const outcomes = (answers as Array<PromiseSettledResult<unknown>>).map((answer) =>
      answer.status === "fulfilled" ? "answered" : String((answer.reason as { code?: unknown }).code),
    )
    expect(outcomes.filter((outcome) => outcome !== "answered")).toEqual([])

    // Ending does not wait for queries that failed long ago.
    expect(await within(sql.end({ timeout: 5 }), 2_000)).not.toBe("pending")
    ended = true
  })
})

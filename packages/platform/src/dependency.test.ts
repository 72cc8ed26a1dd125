import { connect } from "node:net"
import postgres from "postgres"
import { describe, expect, it } from "vitest"
import { isDependencyUnavailable } from "./dependency.ts"

const refusedPort = async (): Promise<number> => {
  // Port 9 (discard) on loopback has no listener here; prove it rather than assume it.
  await new Promise<void>((resolve, reject) => {
    const socket = connect(9, "127.0.0.1")
    socket.once("connect", () => reject(new Error("something listens on 127.0.0.1:9")))
    socket.once("error", () => resolve())
  })
  return 9
}

describe("isDependencyUnavailable", () => {
  it("recognises a Postgres that refuses connections, as postgres.js reports it", async () => {
    const sql = postgres(`postgres://postgres@127.0.0.1:${await refusedPort()}/postgres`, {
      max: 1,
      connect_timeout: 2,
      onnotice: () => {},
    })
    const error = await sql`select 1`.catch((e: unknown) => e)
    await sql.end({ timeout: 1 })
    expect(isDependencyUnavailable(error)).toBe(true)
  })

  it("looks through wrapping errors and Postgres connection SQLSTATEs", () => {
    const socket = Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" })
    expect(isDependencyUnavailable(new Error("query failed", { cause: socket }))).toBe(true)
    expect(isDependencyUnavailable(Object.assign(new Error("admin shutdown"), { code: "57P01" }))).toBe(true)
    expect(isDependencyUnavailable(Object.assign(new Error("connection failure"), { code: "08006" }))).toBe(true)
  })

  it("leaves bugs and data errors as what they are", () => {
    expect(isDependencyUnavailable(new TypeError("x is undefined"))).toBe(false)
    expect(isDependencyUnavailable(Object.assign(new Error("duplicate key"), { code: "23505" }))).toBe(false)
    expect(isDependencyUnavailable("ECONNREFUSED")).toBe(false)
    const loop: { cause?: unknown } = {}
    loop.cause = loop
    expect(isDependencyUnavailable(loop)).toBe(false)
  })
})

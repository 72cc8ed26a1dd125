import { Writable } from "node:stream"
import { describe, expect, it } from "vitest"
import { makeLogger } from "../logger.ts"
import { LazyChildLogger } from "./lazy-child-logger.ts"

const collecting = (level: "info" | "warn") => {
  const lines: Array<Record<string, unknown>> = []
  const logger = makeLogger({
    service: "test",
    level,
    destination: new Writable({
      write(chunk, _encoding, callback) {
        lines.push(JSON.parse(String(chunk)))
        callback()
      },
    }),
  })
  return { logger, lines }
}

describe("LazyChildLogger", () => {
  it("writes enabled lines with the bindings and censoring of a real child", () => {
    const { logger, lines } = collecting("info")
    const child = new LazyChildLogger(logger, { requestId: "req-1" }, {})
    child.info({ password: "hunter2" }, "hello")
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatchObject({ requestId: "req-1", msg: "hello", password: "[redacted]", level: "info" })
  })

  it("drops lines below the parent's level without writing anything", () => {
    const { logger, lines } = collecting("warn")
    const child = new LazyChildLogger(logger, { requestId: "req-2" }, {})
    child.info("quiet")
    expect(child.isLevelEnabled("info")).toBe(false)
    child.warn("loud")
    expect(lines.map((line) => line.msg)).toEqual(["loud"])
  })

  it("honours a route's own level over the parent's", () => {
    const { logger, lines } = collecting("info")
    const child = new LazyChildLogger(logger, { requestId: "req-3" }, { level: "warn" })
    expect(child.level).toBe("warn")
    expect(child.isLevelEnabled("info")).toBe(false)
    child.info("dropped")
    child.error("kept")
    expect(lines.map((line) => line.msg)).toEqual(["kept"])
  })
})

import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { OneAtATime } from "./one-at-a-time.ts"

describe("OneAtATime", () => {
  it("runs effects of one key in start order and never together, other keys alongside", async () => {
    const serial = new OneAtATime()
    const log: Array<string> = []
    let running = 0
    let maxRunning = 0
    const step = (key: string, name: string, ms: number) =>
      serial.run(
        key,
        Effect.gen(function* () {
          running++
          maxRunning = Math.max(maxRunning, running)
          log.push(`start ${name}`)
          yield* Effect.sleep(ms)
          log.push(`end ${name}`)
          running--
        }),
      )
    await Effect.runPromise(
      Effect.all([step("a", "a1", 30), step("a", "a2", 1), step("b", "b1", 5)], { concurrency: "unbounded" }),
    )
    const a = log.filter((entry) => entry.endsWith("a1") || entry.endsWith("a2"))
    expect(a).toEqual(["start a1", "end a1", "start a2", "end a2"])
    expect(log.indexOf("end b1")).toBeLessThan(log.indexOf("end a1"))
    expect(maxRunning).toBe(2)
  })

  it("releases the key when an effect fails", async () => {
    const serial = new OneAtATime()
    await expect(Effect.runPromise(serial.run("k", Effect.fail("boom")))).rejects.toBeDefined()
    expect(await Effect.runPromise(serial.run("k", Effect.succeed(1)))).toBe(1)
  })
})

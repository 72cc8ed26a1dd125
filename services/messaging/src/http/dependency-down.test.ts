import { Cause, Effect, Exit } from "effect"
import { describe, expect, it } from "vitest"
import { databaseDownAs503 } from "./dependency-down.ts"

const run = (defect: unknown) => Effect.runPromiseExit(databaseDownAs503(Effect.die(defect)))

describe("databaseDownAs503", () => {
  it("answers 503 with Retry-After when the database cannot be reached", async () => {
    const exit = await run(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }))
    const error = Exit.isFailure(exit) ? Cause.findErrorOption(exit.cause) : undefined
    expect(error?._tag === "Some" && error.value).toMatchObject({ status: 503, code: "unavailable", retryAfter: 5 })
  })

  it("leaves any other defect a defect (a 500)", async () => {
    const exit = await run(Object.assign(new Error("duplicate key"), { code: "23505" }))
    expect(Exit.isFailure(exit) && Cause.hasDies(exit.cause)).toBe(true)
  })
})

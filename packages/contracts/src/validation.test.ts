import { Effect, Result, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { EventName } from "./events.ts"
import { invalidRequestBody } from "./validation.ts"

const CreateWebhook = Schema.Struct({
  url: Schema.String,
  events: Schema.optionalKey(Schema.Array(EventName)),
})

const failure = (input: unknown) => {
  const result = Effect.runSync(Effect.result(Schema.decodeUnknownEffect(CreateWebhook)(input, { errors: "all" })))
  if (Result.isSuccess(result)) throw new Error("expected a decoding failure")
  return result.failure
}

describe("invalid request bodies", () => {
  it("name each bad field in docs/contract.md's path notation", () => {
    const body = invalidRequestBody(failure({ events: ["message.inbound", "message.sent"] }))
    expect(body.code).toBe("invalid_request")
    expect(body.issues?.map((i) => i.path)).toEqual(["url", "events[1]"])
    expect(body.issues?.[1]?.message).toContain('"message.inbound" | "message.status"')
  })

  it("say what is wrong in one sentence starting with Invalid request", () => {
    const body = invalidRequestBody(failure({ url: 42 }))
    expect(body.error).toBe("Invalid request: url: Expected string")
  })

  it("describe a body that is not an object without a path", () => {
    const body = invalidRequestBody(failure("hello"))
    expect(body.issues).toEqual([{ path: "", message: expect.stringContaining("Expected") }])
    expect(body.error).toMatch(/^Invalid request: Expected/)
  })
})

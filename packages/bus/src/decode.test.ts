import { encodeBusValue, KeyUsed } from "@parley/contracts"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import type { BusRecord } from "./Bus.ts"
import { decodeOrSkip } from "./decode.ts"

const record = (value: string): BusRecord => ({
  topic: "parley.identity.key-usage.v1",
  partition: 3,
  offset: 41n,
  key: "key_1",
  value,
  headers: {},
  timestamp: new Date(0),
})

const used = {
  keyId: "key_0000000000000000000001",
  orgId: "org_0000000000000000000001",
  usedAt: "2026-11-22T10:00:00.000Z",
}

describe("decodeOrSkip", () => {
  it("hands the decoded value and its record to the handler", async () => {
    const seen: Array<unknown> = []
    const handle = decodeOrSkip(KeyUsed, (value, from) => Effect.sync(() => seen.push([value.keyId, from.offset])))
    await Effect.runPromise(handle(record(encodeBusValue(KeyUsed, used as KeyUsed))))
    expect(seen).toEqual([[used.keyId, 41n]])
  })

  it("skips a value that is not JSON or not the record, without failing, so its partition moves on", async () => {
    const seen: Array<unknown> = []
    const handle = decodeOrSkip(KeyUsed, (value) => Effect.sync(() => seen.push(value)))
    await Effect.runPromise(handle(record("{not json")))
    await Effect.runPromise(handle(record(JSON.stringify({ ...used, usedAt: 7 }))))
    expect(seen).toEqual([])
  })

  it("lets the handler's own failure through, for the bus to retry", async () => {
    const handle = decodeOrSkip(KeyUsed, () => Effect.fail("database down"))
    const exit = await Effect.runPromiseExit(handle(record(encodeBusValue(KeyUsed, used as KeyUsed))))
    expect(exit._tag).toBe("Failure")
  })
})

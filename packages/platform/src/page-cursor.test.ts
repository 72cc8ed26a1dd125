import { describe, expect, it } from "vitest"
import { decodePageCursor, encodePageCursor, pagePosition } from "./page-cursor.ts"

const cursorOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url")
const id = "msg_0123456789abcdefABCDEF"

describe("reading a page cursor", () => {
  it("reads back the position it wrote, microseconds and all", () => {
    const cursor = encodePageCursor("2026-11-29 13:20:01.123456+00", id)
    expect(decodePageCursor(cursor, { idPrefix: "msg" })).toEqual({
      at: "2026-11-29 13:20:01.123456+00",
      instant: new Date("2026-11-29T13:20:01.123Z"),
      key: id,
    })
  })

  it.each([
    ["a year Postgres does not have", ["0000-01-01 00:00:00+00", id]],
    ["a day no calendar has", ["2026-02-30 00:00:00+00", id]],
    ["a key of another shape", ["2026-11-29 13:20:01+00", "x"]],
    ["an id of another prefix", ["2026-11-29 13:20:01+00", "cmp_0123456789abcdefABCDEF"]],
    ["a NUL in the key", ["2026-11-29 13:20:01+00", `${id}\u0000`]],
    ["a NUL in the time", ["2026-11-29 13:20:01+00\u0000", id]],
    ["a number for the key", ["2026-11-29 13:20:01+00", 1]],
    ["a third element", ["2026-11-29 13:20:01+00", id, "more"]],
    ["an object", { at: "2026-11-29 13:20:01+00", id }],
  ])("refuses %s", (_, value) => {
    expect(decodePageCursor(cursorOf(value), { idPrefix: "msg" })).toBeUndefined()
  })

  it("refuses what is not base64url JSON", () => {
    expect(decodePageCursor("%%%", { idPrefix: "msg" })).toBeUndefined()
    expect(decodePageCursor(Buffer.from("[1,").toString("base64url"), { idPrefix: "msg" })).toBeUndefined()
  })

  it("takes sequence numbers up to bigint's largest and no further", () => {
    const at = "2026-11-29T13:20:01.123Z"
    expect(pagePosition(at, "9223372036854775807", "sequence")).toMatchObject({ at, key: "9223372036854775807" })
    expect(pagePosition(at, "9223372036854775808", "sequence")).toBeUndefined()
    expect(pagePosition(at, "99999999999999999999999", "sequence")).toBeUndefined()
    expect(pagePosition(at, "-1", "sequence")).toBeUndefined()
    expect(pagePosition(at, "", "sequence")).toBeUndefined()
  })

  it("takes a key of a pattern the list gives", () => {
    const at = "2026-11-29 13:20:01+00"
    expect(pagePosition(at, "14155550100", { pattern: /^\d{1,64}$/u })).toMatchObject({ at, key: "14155550100" })
    expect(pagePosition(at, "1415555010\u0000", { pattern: /^\d{1,64}$/u })).toBeUndefined()
  })
})

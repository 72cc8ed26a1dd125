import { EventCatalogue } from "@parley/contracts"
import { describe, expect, it } from "vitest"
import { catalogueNames, checkEvents, checkSecret, generateSecret } from "./validation.ts"

const bytes32 = Buffer.from(Array.from({ length: 32 }, (_, i) => 250 - i))

describe("checkSecret", () => {
  it.each([
    ["standard with padding", bytes32.toString("base64")],
    ["standard without padding", bytes32.toString("base64").replace(/=+$/, "")],
    ["URL-safe without padding", bytes32.toString("base64url")],
    ["URL-safe with padding", `${bytes32.toString("base64url")}=`],
  ])("accepts 32 bytes in %s", (_name, secret) => {
    expect(checkSecret(secret)).toEqual({ ok: true, value: secret })
  })

  it.each([
    ["31 bytes", Buffer.alloc(31, 1).toString("base64")],
    ["33 bytes", Buffer.alloc(33, 1).toString("base64")],
    ["not base64", "this is not base64 at all!!!!!!!!!!!!!!!!!!!"],
    ["mixed alphabets", `${bytes32.toString("base64").slice(0, 20)}-_${bytes32.toString("base64").slice(22)}`],
    ["a number", 42],
    ["empty", ""],
  ])("refuses %s, naming the field", (_name, secret) => {
    const checked = checkSecret(secret)
    expect(checked.ok).toBe(false)
    if (!checked.ok) expect(checked.issue.path).toBe("secret")
  })

  it("generates 32 random bytes in standard base64", () => {
    const secret = generateSecret()
    expect(Buffer.from(secret, "base64")).toHaveLength(32)
    expect(secret).toMatch(/^[A-Za-z0-9+/]{43}=$/)
    expect(generateSecret()).not.toBe(secret)
  })
})

describe("checkEvents", () => {
  it("removes duplicates, keeping the first occurrence's place", () => {
    expect(checkEvents(["lead.created", "message.inbound", "lead.created"])).toEqual({
      ok: true,
      value: ["lead.created", "message.inbound"],
    })
  })

  it("refuses an empty list and names an unknown event by its index", () => {
    expect(checkEvents([])).toMatchObject({ ok: false, issue: { path: "events" } })
    expect(checkEvents(["lead.created", "lead.deleted"])).toMatchObject({ ok: false, issue: { path: "events[1]" } })
    expect(checkEvents("lead.created")).toMatchObject({ ok: false, issue: { path: "events" } })
  })

  it("defaults to the whole catalogue", () => {
    expect(catalogueNames()).toEqual(EventCatalogue.map((entry) => entry.name))
  })
})

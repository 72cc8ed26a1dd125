import { describe, expect, it } from "vitest"
import { DEFAULT_SCRYPT_COST, hashPassword, verifyPassword } from "./password.ts"

const cheap = { log2N: 10, r: 8, p: 1 }

describe("password hashing", () => {
  it("stores scrypt with its parameters and a per-hash salt in the string", async () => {
    const a = await hashPassword("correct horse battery", cheap)
    const b = await hashPassword("correct horse battery", cheap)
    expect(a).toMatch(/^scrypt\$10\$8\$1\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/)
    expect(a).not.toBe(b)
    expect(a).not.toContain("correct horse")
  })

  it("verifies the right password and refuses a wrong one", async () => {
    const stored = await hashPassword("correct horse battery", cheap)
    expect(await verifyPassword("correct horse battery", stored)).toBe(true)
    expect(await verifyPassword("correct horse batterY", stored)).toBe(false)
  })

  it("verifies with the parameters stored in the hash, whatever the current default", async () => {
    const stored = await hashPassword("long enough password", DEFAULT_SCRYPT_COST)
    expect(stored.startsWith("scrypt$15$8$3$")).toBe(true)
    expect(await verifyPassword("long enough password", stored)).toBe(true)
  })

  it("never matches a malformed or absurd stored hash", async () => {
    expect(await verifyPassword("x", "")).toBe(false)
    expect(await verifyPassword("x", "scrypt$30$8$1$AAAA$AAAA")).toBe(false)
    expect(await verifyPassword("x", "plain:x")).toBe(false)
  })
})

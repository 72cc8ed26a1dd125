import { describe, expect, it } from "vitest"
import { newSessionToken, sessionCookie, sessionTokenFromCookie } from "./session-token.ts"

describe("session cookies", () => {
  it("are HttpOnly, SameSite=Lax, Path=/ and Secure only for an https public URL", () => {
    const token = newSessionToken()
    const plain = sessionCookie(token, false)
    expect(plain).toMatch(new RegExp(`^parley_session=${token}; HttpOnly; SameSite=Lax; Path=/`))
    expect(plain).not.toContain("Secure")
    expect(sessionCookie(token, true)).toMatch(/; Secure$/)
  })

  it("carry 256 random bits and are found again among other cookies", () => {
    const token = newSessionToken()
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(sessionTokenFromCookie(`theme=dark; parley_session=${token}; other=1`)).toBe(token)
    expect(sessionTokenFromCookie("parley_session=short")).toBeUndefined()
    expect(sessionTokenFromCookie(undefined)).toBeUndefined()
  })
})

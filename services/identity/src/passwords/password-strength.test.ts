import { describe, expect, it } from "vitest"
import { isGuessable } from "./password-strength.ts"

describe("isGuessable", () => {
  it("refuses common passwords, sequences, keyboard walks, repeats and the user's own email", () => {
    for (const password of ["0123456789", "password12", "qwertyuiop", "aaaaaaaaaa", "iloveyou12", "Password123!"]) {
      expect(isGuessable(password, []), password).toBe(true)
    }
    expect(isGuessable("dana.lopez@example.com", ["dana.lopez@example.com"])).toBe(true)
  })

  it("accepts phrases and random strings of ten characters or more", () => {
    for (const password of ["a long password", "correct horse battery", "Tr0ub4dor&3x", "k7#pQ9!vR2"]) {
      expect(isGuessable(password, []), password).toBe(false)
    }
  })
})

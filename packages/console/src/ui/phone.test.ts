import { describe, expect, it } from "vitest"
import { readablePhone } from "./phone.ts"

describe("readablePhone", () => {
  it("writes international digits in the international format of their country", () => {
    expect(readablePhone("447700900456")).toBe("+44 7700 900456")
    expect(readablePhone("14155550188")).toBe("+1 415 555 0188")
    expect(readablePhone("919876543210")).toBe("+91 98765 43210")
  })

  it("keeps what is not a number it can read as it came, with its + when it is digits", () => {
    expect(readablePhone("9990000000000")).toBe("+9990000000000")
    expect(readablePhone("not a number")).toBe("not a number")
  })
})

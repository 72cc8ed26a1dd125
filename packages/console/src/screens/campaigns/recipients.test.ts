import { describe, expect, it } from "vitest"
import { isPhone, recipientsFromCsv, recipientsFromText } from "./recipients.ts"

describe("campaign recipients", () => {
  it("reads pasted numbers separated by lines, commas or semicolons", () => {
    expect(recipientsFromText("+1 415 555 0100\n\n14155550101, +44 7700 900456;  ")).toEqual([
      "+1 415 555 0100",
      "14155550101",
      "+44 7700 900456",
    ])
  })

  it("reads the phone column of a CSV file, quoted fields and CRLF included", () => {
    const csv = '\uFEFFname,phone\r\n"Lee, Ann",+1 415 555 0113\r\n"Bo ""B"" Ray",14155550114\r\n,\r\n'
    expect(recipientsFromCsv(csv)).toEqual(["+1 415 555 0113", "14155550114"])
  })

  it("reads a file without a header as one number per line", () => {
    expect(recipientsFromCsv("14155550115\n14155550116\n")).toEqual(["14155550115", "14155550116"])
  })

  it("takes 7 to 15 digits as people write them, and nothing else", () => {
    expect(isPhone("+1 (415) 555-0100")).toBe(true)
    expect(isPhone("12345")).toBe(false)
    expect(isPhone("call me")).toBe(false)
  })
})

import { describe, expect, it } from "vitest"
import { isPhone, recipientsFromCsv, recipientsFromText } from "./recipients.ts"
import { renderBody, variableCount } from "./template-body.ts"

describe("campaign recipients", () => {
  it("reads pasted numbers separated by lines, commas or semicolons when the template has no variables", () => {
    expect(recipientsFromText("+1 415 555 0100\n\n14155550101, +44 7700 900456;  ", 0).map((r) => r.phone)).toEqual([
      "+1 415 555 0100",
      "14155550101",
      "+44 7700 900456",
    ])
  })

  it("reads a pasted line as the number then its values when the template has variables", () => {
    expect(recipientsFromText("(415) 555-0100, Dana, A1\n14155550101\tLee\tB2\n", 2)).toEqual([
      { phone: "(415) 555-0100", variables: ["Dana", "A1"] },
      { phone: "14155550101", variables: ["Lee", "B2"] },
    ])
  })

  it("reads the phone column and a column per variable of a CSV file, quoted fields and CRLF included", () => {
    const csv = '\uFEFFname,phone,{{2}},1\r\n"Lee, Ann",+1 415 555 0113,"B ""2""",Ann\r\n,\r\n'
    expect(recipientsFromCsv(csv, 2)).toEqual({
      recipients: [{ phone: "+1 415 555 0113", variables: ["Ann", 'B "2"'] }],
    })
  })

  it("says what is wrong with a file without a phone column or without a variable's column", () => {
    expect(recipientsFromCsv("14155550115\n14155550116\n", 0)).toEqual({
      error: expect.stringContaining("no phone column"),
    })
    expect(recipientsFromCsv("phone,1\n14155550115,Dana\n", 2)).toEqual({ error: expect.stringContaining("{{2}}") })
  })

  it("counts and fills a template body's placeholders", () => {
    const components = [{ type: "BODY", text: "Hi {{1}}, order {{2}} is ready" }]
    expect(variableCount(components)).toBe(2)
    expect(renderBody(components, ["Dana", "42"])).toBe("Hi Dana, order 42 is ready")
    expect(renderBody(components, ["Dana"])).toBe("Hi Dana, order {{2}} is ready")
  })

  it("takes 7 to 15 digits as people write them, and nothing else", () => {
    expect(isPhone("+1 (415) 555-0100")).toBe(true)
    expect(isPhone("12345")).toBe(false)
    expect(isPhone("call me")).toBe(false)
  })
})

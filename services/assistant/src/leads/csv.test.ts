import { describe, expect, it } from "vitest"
import { csvCell, csvLine } from "./csv.ts"

describe("csv cells", () => {
  it.each([
    ["Dana", "Dana"],
    ["Scully, Dana", '"Scully, Dana"'],
    ['Dana "D" Scully', '"Dana ""D"" Scully"'],
    ["line\nbreak", '"line\nbreak"'],
    ['=HYPERLINK("http://x")', '"\'=HYPERLINK(""http://x"")"'],
    ["+123", "'+123"],
    ["-2+3", "'-2+3"],
    ["@SUM(A1)", "'@SUM(A1)"],
    [" padded", '" padded"'],
    ["", ""],
  ])("writes %j as %j", (value, cell) => {
    expect(csvCell(value)).toBe(cell)
  })

  it("ends every line with CRLF", () => {
    expect(csvLine(["a", "b,c"])).toBe('a,"b,c"\r\n')
  })
})

import { describe, expect, it } from "vitest"
import { CsvReader, type CsvRecord } from "./csv.ts"

const readAll = (chunks: ReadonlyArray<string | Uint8Array>): Array<CsvRecord> => {
  const reader = new CsvReader()
  const encoder = new TextEncoder()
  const out: Array<CsvRecord> = []
  for (const chunk of chunks) out.push(...reader.feed(typeof chunk === "string" ? encoder.encode(chunk) : chunk))
  out.push(...reader.end())
  return out
}

describe("CsvReader", () => {
  it("reads quoted fields with commas, doubled quotes and line breaks, numbering physical lines", () => {
    expect(readAll(['phone,name\n1,"Lee, ""Sam"""\n2,"two\nlines"\n3,x'])).toEqual([
      { line: 1, fields: ["phone", "name"] },
      { line: 2, fields: ["1", 'Lee, "Sam"'] },
      { line: 3, fields: ["2", "two\nlines"] },
      { line: 5, fields: ["3", "x"] },
    ])
  })

  it("gives the same records whatever the chunk boundaries, CRLF and quotes split included", () => {
    const text = '\uFEFFphone,name\r\n1,"a ""b"", c"\r\n2,é\r\n'
    const whole = readAll([text])
    const bytes = new TextEncoder().encode(text)
    for (let cut = 1; cut < bytes.length; cut++) {
      expect(readAll([bytes.subarray(0, cut), bytes.subarray(cut)])).toEqual(whole)
    }
    expect(whole).toEqual([
      { line: 1, fields: ["phone", "name"] },
      { line: 2, fields: ["1", 'a "b", c'] },
      { line: 3, fields: ["2", "é"] },
    ])
  })

  it("ends a record at a lone CR and at the end of input without a newline", () => {
    expect(readAll(["a\rb\nc"]).map((r) => [r.line, r.fields[0]])).toEqual([
      [1, "a"],
      [2, "b"],
      [3, "c"],
    ])
  })
})

/**
 * Recipients of a campaign, from pasted text (numbers separated by new lines, commas or
 * semicolons) or from a CSV file with a `phone` column (the file `POST /api/contacts/import`
 * takes; a file without a header row is read as one number per line).
 */

/** The fields of one CSV record (RFC 4180 quoting), for the small files a campaign comes from. */
const csvRecords = (text: string): Array<Array<string>> => {
  const records: Array<Array<string>> = []
  let record: Array<string> = []
  let field = ""
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"'
        i++
      } else if (c === '"') quoted = false
      else field += c
    } else if (c === '"') quoted = true
    else if (c === ",") {
      record.push(field)
      field = ""
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++
      record.push(field)
      records.push(record)
      record = []
      field = ""
    } else field += c
  }
  if (field !== "" || record.length > 0) {
    record.push(field)
    records.push(record)
  }
  return records.filter((r) => r.some((f) => f.trim() !== ""))
}

export const recipientsFromCsv = (text: string): Array<string> => {
  const records = csvRecords(text.replace(/^\uFEFF/, ""))
  const header = records[0]?.map((name) => name.trim().toLowerCase()) ?? []
  const column = header.indexOf("phone")
  if (column < 0) return records.map((r) => (r[0] ?? "").trim()).filter((p) => p !== "")
  return records
    .slice(1)
    .map((r) => (r[column] ?? "").trim())
    .filter((p) => p !== "")
}

export const recipientsFromText = (text: string): Array<string> =>
  text
    .split(/[\n,;]+/)
    .map((line) => line.trim())
    .filter((line) => line !== "")

/** A number §9 accepts: 7–15 digits with an optional `+`, spaces, dashes, dots or parentheses. */
export const isPhone = (candidate: string): boolean =>
  /^\+?[0-9 ().-]{7,30}$/.test(candidate) && /^[0-9]{7,15}$/.test(candidate.replace(/[^0-9]/g, ""))

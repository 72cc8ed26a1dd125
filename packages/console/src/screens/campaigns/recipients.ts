/**
 * Recipients of a campaign (docs/contract.md §14), from pasted text or a CSV file, each with the values
 * of the template's `{{1}}`…`{{n}}`. Pasted: one recipient per line, the number then its values,
 * separated by commas, semicolons or tabs (for a template without variables, several numbers may
 * share a line). CSV: a header row naming a `phone` column and one column per variable, named `1`,
 * `{{1}}` or `var1`. The numbers are read by Parley with the organization's country (a dry run
 * counts what it cannot read); only the file's shape is checked here.
 */

export interface Recipient {
  readonly phone: string
  readonly variables: ReadonlyArray<string>
}

/** The campaign body's limit (`POST /api/campaigns`, docs/contract.md §1): a bigger file cannot fit. */
export const CSV_LIMIT_BYTES = 4 * 1024 * 1024

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

/** A CSV header naming a variable: `1`, `{{1}}`, `var1`, `variable 1` → 1. */
const variableNumber = (header: string): number | undefined => {
  const match = /^(?:\{\{\s*)?(?:var(?:iable)?\s*)?(\d{1,3})(?:\s*\}\})?$/i.exec(header.trim())
  return match === null ? undefined : Number(match[1])
}

/** What a CSV file holds, or why it cannot be used (said so a person can fix the file). */
export const recipientsFromCsv = (
  text: string,
  variableCount: number,
): { recipients: Array<Recipient> } | { error: string } => {
  const records = csvRecords(text.replace(/^\uFEFF/, ""))
  const header = records[0]?.map((name) => name.trim().toLowerCase()) ?? []
  const phoneAt = header.indexOf("phone")
  if (phoneAt < 0) return { error: "The file has no phone column: its first line must name one (phone,1,2…)." }
  const columns: Array<number> = []
  for (let n = 1; n <= variableCount; n++) {
    const at = header.findIndex((name) => variableNumber(name) === n)
    if (at < 0) return { error: `The file has no column for {{${n}}}: name one “${n}”.` }
    columns.push(at)
  }
  return {
    recipients: records
      .slice(1)
      .map((r) => ({ phone: (r[phoneAt] ?? "").trim(), variables: columns.map((at) => (r[at] ?? "").trim()) }))
      .filter((r) => r.phone !== ""),
  }
}

export const recipientsFromText = (text: string, variableCount: number): Array<Recipient> => {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== "")
  if (variableCount === 0) {
    return lines
      .flatMap((line) => line.split(/[,;\t]+/))
      .map((phone) => phone.trim())
      .filter((phone) => phone !== "")
      .map((phone) => ({ phone, variables: [] }))
  }
  return lines.map((line) => {
    const [phone = "", ...values] = line.split(/[,;\t]/).map((field) => field.trim())
    return { phone, variables: values.slice(0, variableCount) }
  })
}

/** A number §9 accepts: 7–15 digits with an optional `+`, spaces, dashes, dots or parentheses. */
export const isPhone = (candidate: string): boolean =>
  /^\+?[0-9 ().-]{7,30}$/.test(candidate) && /^[0-9]{7,15}$/.test(candidate.replace(/[^0-9]/g, ""))

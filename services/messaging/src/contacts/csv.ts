/**
 * A streaming RFC 4180 CSV reader: feed it chunks as they arrive, it hands out complete records
 * with their 1-based line number, never holding more than the record in progress. Quoted fields
 * may contain commas, doubled quotes and line breaks; CRLF and LF both end a record.
 */
export interface CsvRecord {
  readonly line: number
  readonly fields: ReadonlyArray<string>
}

export class CsvReader {
  private field = ""
  private fields: Array<string> = []
  private quoted = false
  private quoteSeen = false
  private line = 1
  private recordLine = 1
  private decoder = new TextDecoder("utf-8")
  private started = false
  /** The previous character ended a record with CR: a following LF belongs to it (even across chunks). */
  private afterCr = false

  /** Parses a chunk; returns the records completed by it. */
  feed(chunk: Uint8Array): Array<CsvRecord> {
    return this.parse(this.decoder.decode(chunk, { stream: true }))
  }

  /** Flushes the last record (a file need not end with a newline). */
  end(): Array<CsvRecord> {
    const out = this.parse(this.decoder.decode())
    if (this.field !== "" || this.fields.length > 0) out.push(this.finishRecord())
    return out
  }

  private finishRecord(): CsvRecord {
    this.fields.push(this.field)
    const record = { line: this.recordLine, fields: this.fields }
    this.field = ""
    this.fields = []
    this.recordLine = this.line
    return record
  }

  private parse(text: string): Array<CsvRecord> {
    const out: Array<CsvRecord> = []
    for (let i = 0; i < text.length; i++) {
      const c = text[i] as string
      if (this.afterCr) {
        this.afterCr = false
        if (c === "\n") continue
      }
      if (!this.started) {
        this.started = true
        if (c === "\uFEFF") continue
      }
      if (this.quoted) {
        if (this.quoteSeen) {
          this.quoteSeen = false
          if (c === '"') {
            this.field += '"'
            continue
          }
          this.quoted = false
        } else if (c === '"') {
          this.quoteSeen = true
          continue
        } else {
          if (c === "\n") this.line++
          this.field += c
          continue
        }
      }
      if (c === '"' && this.field === "") {
        this.quoted = true
        continue
      }
      if (c === ",") {
        this.fields.push(this.field)
        this.field = ""
      } else if (c === "\n") {
        this.line++
        out.push(this.finishRecord())
      } else if (c === "\r") {
        this.line++
        this.afterCr = true
        out.push(this.finishRecord())
      } else {
        this.field += c
      }
    }
    return out
  }
}

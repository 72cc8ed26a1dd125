import type { ContactRecord, OrgId } from "@parley/contracts"
import { Database } from "@parley/db"
import { decodePageCursor, newId } from "@parley/platform"
import { Effect } from "effect"
import { readPhoneNumber } from "../numbers/phone-number.ts"
import { ListKeys, pageOf } from "../paging/paging.ts"
import { CsvReader, type CsvRecord } from "./csv.ts"

export interface ImportResult {
  /** Contacts created, or whose name changed. */
  imported: number
  /** Valid rows that changed nothing: already stored as given, or repeated in the file. */
  skipped: number
  /** Rows refused, by line (at most MAX_ERRORS listed; every refused row is still counted out). */
  errors: Array<{ line: number; error: string }>
}

const MAX_ERRORS = 1000
const BATCH = 1000

export class ImportRefused extends Error {}

/**
 * Imports a CSV of contacts: a header row naming a `phone` column (and optionally `name`), then
 * one contact per row. Rows are read as a stream and upserted in batches, all inside ONE
 * transaction, so a refused file (no phone column) writes nothing. Numbers are read with the
 * organization's `country` (docs/contract.md §9), as a campaign's are.
 */
export const importContacts = (orgId: OrgId, country: string, chunks: Iterable<Uint8Array>) =>
  Effect.gen(function* () {
    const { sql } = yield* Database
    return yield* Effect.promise(() =>
      sql.begin(async (tx) => {
        const result: ImportResult = { imported: 0, skipped: 0, errors: [] }
        const reader = new CsvReader()
        const seen = new Set<string>()
        let phoneAt = -1
        let nameAt = -1
        let header = true
        let batch: Array<{ phone: string; name: string }> = []
        const refuse = (line: number, error: string) => {
          if (result.errors.length < MAX_ERRORS) result.errors.push({ line, error })
        }
        const flush = async () => {
          if (batch.length === 0) return
          const rows = batch
          batch = []
          const changed = await tx`
            insert into messaging.contacts (id, org_id, phone, name)
            select x.id, ${orgId}, x.phone, x.name
            from unnest(${rows.map(() => newId("ct"))}::text[], ${rows.map((r) => r.phone)}::text[],
                        ${rows.map((r) => r.name)}::text[]) as x(id, phone, name)
            on conflict (org_id, phone) do update set name = excluded.name, updated_at = now()
              where excluded.name <> '' and contacts.name is distinct from excluded.name
            returning 1`
          result.imported += changed.length
          result.skipped += rows.length - changed.length
        }
        const take = async (records: Array<CsvRecord>) => {
          for (const record of records) {
            if (header) {
              const names = record.fields.map((f) => f.trim().toLowerCase())
              phoneAt = names.indexOf("phone")
              nameAt = names.indexOf("name")
              if (phoneAt < 0) throw new ImportRefused("the first line must name a phone column")
              header = false
              continue
            }
            if (record.fields.every((f) => f.trim() === "")) continue
            const read = readPhoneNumber(record.fields[phoneAt] ?? "", country)
            if ("error" in read) refuse(record.line, `phone ${read.error}`)
            else if (seen.has(read.digits)) result.skipped++
            else {
              const phone = read.digits
              seen.add(phone)
              const name = nameAt < 0 ? "" : (record.fields[nameAt] ?? "").trim().slice(0, 200)
              batch.push({ phone, name })
              if (batch.length >= BATCH) await flush()
            }
          }
        }
        for (const chunk of chunks) await take(reader.feed(chunk))
        await take(reader.end())
        if (header) throw new ImportRefused("the file is empty")
        await flush()
        return result
      }),
    ).pipe(Effect.catchDefect((defect) => (defect instanceof ImportRefused ? Effect.fail(defect) : Effect.die(defect))))
  })

interface ContactRow {
  id: string
  phone: string
  name: string
  created_at: Date
  updated_at: Date
  cursor_at: string
}

/** Answers `undefined` for a cursor this service did not issue (the route's 400). */
export const listContacts = (orgId: OrgId, limit: number, cursor: string | undefined) =>
  Effect.gen(function* () {
    const { sql } = yield* Database
    const after = cursor === undefined ? undefined : decodePageCursor(cursor, ListKeys.contacts)
    if (cursor !== undefined && after === undefined) return undefined
    const rows = yield* Effect.promise(
      () => sql<Array<ContactRow>>`
        select id, phone, name, created_at, updated_at, created_at::text as cursor_at from messaging.contacts
        where org_id = ${orgId}
          ${after === undefined ? sql`` : sql`and (created_at, id) < (${after.at}::text::timestamptz, ${after.key})`}
        order by created_at desc, id desc limit ${limit + 1}`,
    )
    return pageOf(
      rows,
      limit,
      (row): ContactRecord => ({
        id: row.id,
        phone: row.phone,
        name: row.name,
        createdAt: row.created_at.toISOString(),
        updatedAt: row.updated_at.toISOString(),
      }),
    )
  })

import type { OrgId } from "@parley/contracts"
import { Effect } from "effect"
import type postgres from "postgres"
import { csvLine } from "./csv.ts"
import { type LeadRow, leadPage } from "./lead-list.ts"

export const LEAD_CSV_HEADER = [
  "id",
  "phone",
  "name",
  "type",
  "booking_date",
  "booking_time",
  "booking_service",
  "source",
  "created_at",
  "updated_at",
] as const

/** Leads read per query: memory stays one batch, whatever the organization's size. */
const BATCH = 1000

const lineOf = (row: LeadRow): string =>
  csvLine([
    row.id,
    row.phone,
    row.name,
    row.type,
    row.booking?.date ?? "",
    row.booking?.time ?? "",
    row.booking?.service ?? "",
    row.source,
    row.created_at.toISOString(),
    row.updated_at.toISOString(),
  ])

/**
 * `GET /api/leads/export`: every lead of the organization (of `type`, when given), newest first, as CSV text, produced batch
 * by batch with a keyset cursor (no transaction or server-side cursor held open, so the embedded
 * single-connection database keeps serving other requests between batches).
 */
export async function* leadCsv(sql: postgres.Sql, orgId: OrgId, type?: string): AsyncGenerator<string> {
  yield csvLine(LEAD_CSV_HEADER)
  let after: { at: string; id: string } | undefined
  for (;;) {
    const rows = await Effect.runPromise(
      leadPage(sql, orgId, {
        limit: BATCH,
        ...(after === undefined ? {} : { after }),
        ...(type === undefined ? {} : { type }),
      }),
    )
    let chunk = ""
    for (const row of rows) chunk += lineOf(row)
    if (chunk !== "") yield chunk
    const last = rows.at(-1)
    if (rows.length < BATCH || last === undefined) return
    after = { at: last.cursor_at, id: last.id }
  }
}

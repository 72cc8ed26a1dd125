import type { Booking, LeadRecord, OrgId } from "@parley/contracts"
import { Database } from "@parley/db"
import { Effect } from "effect"
import type postgres from "postgres"
import type { InvalidCursor } from "../errors.ts"
import { pageOf, positionAfter } from "./cursor.ts"

export interface LeadRow {
  id: string
  phone: string
  name: string
  type: string
  booking: Booking | null
  source: string
  created_at: Date
  updated_at: Date
  cursor_at: string
}

export const toLeadRecord = (row: LeadRow): LeadRecord => ({
  id: row.id,
  phone: row.phone,
  name: row.name,
  type: row.type,
  booking: row.booking,
  source: row.source,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
})

/** One page of an organization's leads, newest first, from after `cursor`. */
export const leadPage = (
  sql: postgres.Sql,
  orgId: OrgId,
  options: { readonly limit: number; readonly after?: { at: string; id: string }; readonly type?: string },
) =>
  Effect.promise(
    () => sql<Array<LeadRow>>`
      select id, phone, name, type, booking, source, created_at, updated_at, created_at::text as cursor_at
      from assistant.leads
      where org_id = ${orgId}
        ${options.type === undefined ? sql`` : sql`and type = ${options.type}`}
        ${options.after === undefined ? sql`` : sql`and (created_at, id) < (${options.after.at}::timestamptz, ${options.after.id})`}
      order by created_at desc, id desc
      limit ${options.limit}`,
  )

/** `GET /api/leads`: `{ data, nextCursor }`. */
export const listLeads = (
  orgId: OrgId,
  query: { readonly limit: number; readonly cursor?: string | undefined; readonly type?: string | undefined },
): Effect.Effect<{ data: Array<LeadRecord>; nextCursor: string | null }, InvalidCursor, Database> =>
  Effect.gen(function* () {
    const { sql } = yield* Database
    const after = yield* positionAfter(query.cursor, "lead")
    const rows = yield* leadPage(sql, orgId, {
      limit: query.limit + 1,
      ...(after === undefined ? {} : { after }),
      ...(query.type === undefined ? {} : { type: query.type }),
    })
    const { page, nextCursor } = pageOf(rows, query.limit)
    return { data: page.map(toLeadRecord), nextCursor }
  })

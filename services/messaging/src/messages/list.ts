import type { MessageRecord, OrgId } from "@parley/contracts"
import { Database } from "@parley/db"
import { decodePageCursor } from "@parley/platform"
import { Effect } from "effect"
import { ListKeys, pageOf } from "../paging/paging.ts"

interface MessageRow {
  id: string
  channel: "cloud" | "bridge"
  direction: "inbound" | "outbound"
  phone: string
  type: string
  text: string
  provider_message_id: string | null
  status: string
  error: string | null
  campaign_id: string | null
  sandbox: boolean
  created_at: Date
  updated_at: Date
  cursor_at: string
}

const toMessage = (row: MessageRow): MessageRecord => ({
  id: row.id,
  channel: row.channel,
  direction: row.direction,
  phone: row.phone,
  type: row.type,
  text: row.text,
  messageId: row.provider_message_id,
  status: row.status,
  error: row.error,
  campaignId: row.campaign_id,
  sandbox: row.sandbox,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
})

/** `GET /api/messages`: newest first, optionally one phone's; `undefined` for a foreign cursor. */
export const listMessages = (orgId: OrgId, options: { phone?: string; limit: number; cursor?: string }) =>
  Effect.gen(function* () {
    const { sql } = yield* Database
    const after = options.cursor === undefined ? undefined : decodePageCursor(options.cursor, ListKeys.messages)
    if (options.cursor !== undefined && after === undefined) return undefined
    const rows = yield* Effect.promise(
      () => sql<Array<MessageRow>>`
        select id, channel, direction, phone, type, text, provider_message_id, status, error, campaign_id, sandbox,
               created_at, updated_at, created_at::text as cursor_at
        from messaging.messages
        where org_id = ${orgId}
          ${options.phone === undefined ? sql`` : sql`and phone = ${options.phone}`}
          ${after === undefined ? sql`` : sql`and (created_at, id) < (${after.at}::text::timestamptz, ${after.key})`}
        order by created_at desc, id desc limit ${options.limit + 1}`,
    )
    return pageOf(rows, options.limit, toMessage)
  })

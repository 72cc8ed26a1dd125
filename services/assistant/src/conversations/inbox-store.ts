/**
 * Reading the inbox (docs/contract.md §17): conversations listed most recently active first, and one
 * conversation with its messages oldest first. Every read is scoped by the caller's organization;
 * another organization's `cnv_…` id reads as missing.
 */
import type { ConversationDetail, ConversationMessage, ConversationSummary, OrgId } from "@parley/contracts"
import { isSequence } from "@parley/platform"
import { Effect } from "effect"
import type postgres from "postgres"
import { InvalidCursor, ResourceNotFound } from "../errors.ts"
import { pageOf, positionAfter } from "../leads/cursor.ts"
import { holdCutoff, holdStands } from "./hold.ts"

type Queries = postgres.Sql | postgres.TransactionSql

/** Messages are stored with the widget's roles; the inbox calls the visitor the customer. */
const roleOf = (stored: string): ConversationMessage["role"] =>
  stored === "visitor" ? "customer" : (stored as ConversationMessage["role"])

interface SummaryRow {
  readonly internal_id: string
  readonly id: string
  readonly channel: "cloud" | "bridge" | null
  readonly phone: string | null
  readonly name: string | null
  readonly holder_id: string | null
  readonly holder_email: string | null
  readonly waiting: boolean
  readonly updated_at: Date
  readonly cursor_at: string
  readonly last_customer_at: Date | null
  readonly lead_id: string | null
  readonly lead_type: string | null
  readonly last_role: string | null
  readonly last_text: string | null
  readonly last_at: Date | null
}

const summaryColumns = (sql: Queries) => sql`
  c.id as internal_id, c.public_id as id, c.channel, coalesce(c.customer, c.state->>'phone') as phone,
  coalesce(nullif(c.state->>'name', ''), c.customer_name) as name, c.holder_id, c.holder_email, c.waiting,
  c.updated_at, c.updated_at::text as cursor_at, c.last_customer_at, l.id as lead_id, l.type as lead_type,
  m.role as last_role, m.text as last_text, m.created_at as last_at`

const summaryJoins = (sql: Queries) => sql`
  left join assistant.leads l on l.org_id = c.org_id and l.phone = coalesce(c.customer, c.state->>'phone')
  left join lateral (
    select role, text, created_at from assistant.conversation_messages
    where conversation_id = c.id order by seq desc limit 1
  ) m on true`

export const toSummary = (row: SummaryRow, now: Date): ConversationSummary => {
  const held = holdStands(row, now)
  return {
    id: row.id,
    channel: row.channel ?? "widget",
    customer: { phone: row.phone, name: row.name },
    lead: row.lead_id === null ? null : { id: row.lead_id, type: row.lead_type ?? "" },
    state: held ? "human" : "assistant",
    assignee: held ? { id: row.holder_id ?? "", email: row.holder_email ?? "" } : null,
    waiting: row.waiting,
    lastMessage:
      row.last_role === null || row.last_at === null
        ? null
        : { role: roleOf(row.last_role), text: row.last_text ?? "", at: row.last_at.toISOString() },
    updatedAt: row.updated_at.toISOString(),
  }
}

export interface ListQuery {
  readonly limit: number
  readonly cursor?: string | undefined
  readonly channel?: "widget" | "cloud" | "bridge" | undefined
  readonly state?: "assistant" | "human" | undefined
}

/** `GET /api/conversations`: one page, most recently active first. */
export const listConversations = (
  sql: Queries,
  orgId: OrgId,
  query: ListQuery,
  now: Date,
): Effect.Effect<{ data: Array<ConversationSummary>; nextCursor: string | null }, InvalidCursor> =>
  Effect.gen(function* () {
    const after = yield* positionAfter(query.cursor, "cnv")
    const cutoff = holdCutoff(now)
    const channel =
      query.channel === undefined
        ? sql``
        : query.channel === "widget"
          ? sql`and c.channel is null`
          : sql`and c.channel = ${query.channel}`
    const state =
      query.state === undefined
        ? sql``
        : query.state === "human"
          ? sql`and c.holder_id is not null and c.updated_at > ${cutoff}`
          : sql`and (c.holder_id is null or c.updated_at <= ${cutoff})`
    const rows = yield* Effect.promise(
      () => sql<Array<SummaryRow>>`
        select ${summaryColumns(sql)}
        from assistant.conversations c
        ${summaryJoins(sql)}
        where c.org_id = ${orgId} and not c.preview ${channel} ${state}
          ${after === undefined ? sql`` : sql`and (c.updated_at, c.public_id) < (${after.at}::timestamptz, ${after.id})`}
        order by c.updated_at desc, c.public_id desc
        limit ${query.limit + 1}`,
    )
    const { page, nextCursor } = pageOf(rows, query.limit)
    return { data: page.map((row) => toSummary(row, now)), nextCursor }
  })

/** One conversation of the organization by its `cnv_…` id (with its internal id and service window), or ResourceNotFound. */
export const findConversation = (sql: Queries, orgId: OrgId, id: string) =>
  Effect.promise(
    () => sql<Array<SummaryRow>>`
      select ${summaryColumns(sql)}
      from assistant.conversations c
      ${summaryJoins(sql)}
      where c.org_id = ${orgId} and c.public_id = ${id} and not c.preview`,
  ).pipe(Effect.flatMap(([row]) => (row === undefined ? Effect.fail(new ResourceNotFound()) : Effect.succeed(row))))

export type ConversationRow = SummaryRow

const encodeSeq = (seq: string): string => Buffer.from(JSON.stringify(["seq", seq])).toString("base64url")

const decodeSeq = (cursor: string | undefined): Effect.Effect<string | undefined, InvalidCursor> => {
  if (cursor === undefined) return Effect.succeed(undefined)
  try {
    const value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown
    // A sequence Postgres' bigint holds: "9999999999999999999" reached the query and answered 500.
    if (Array.isArray(value) && value[0] === "seq" && typeof value[1] === "string" && isSequence(value[1]))
      return Effect.succeed(value[1])
  } catch {}
  return Effect.fail(new InvalidCursor())
}

/** `GET /api/conversations/:id`: the conversation and a page of its messages, oldest first. */
export const readConversation = (
  sql: Queries,
  orgId: OrgId,
  id: string,
  page: { readonly limit: number; readonly cursor?: string | undefined },
  now: Date,
): Effect.Effect<ConversationDetail, ResourceNotFound | InvalidCursor> =>
  Effect.gen(function* () {
    const afterSeq = yield* decodeSeq(page.cursor)
    const row = yield* findConversation(sql, orgId, id)
    const messages = yield* Effect.promise(
      () => sql<
        Array<{
          seq: string
          role: string
          text: string
          created_at: Date
          author_id: string | null
          author_email: string | null
        }>
      >`
        select m.seq::text as seq, m.role, m.text, m.created_at, m.author_id, m.author_email
        from assistant.conversation_messages m
        where m.conversation_id = ${row.internal_id}
          ${afterSeq === undefined ? sql`` : sql`and m.seq > ${afterSeq}::bigint`}
        -- The column, qualified: a bare "seq" here names the output's text, which put "10" before "9"
        order by m.seq
        limit ${page.limit + 1}`,
    )
    const shown = messages.slice(0, page.limit)
    const last = shown.at(-1)
    return {
      ...toSummary(row, now),
      messages: shown.map((message) => ({
        role: roleOf(message.role),
        text: message.text,
        at: message.created_at.toISOString(),
        ...(message.author_id === null ? {} : { author: { id: message.author_id, email: message.author_email ?? "" } }),
      })),
      nextCursor: messages.length > page.limit && last !== undefined ? encodeSeq(last.seq) : null,
    }
  })

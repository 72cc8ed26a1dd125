import type {
  CampaignCounts,
  CampaignRecipientRecord,
  CampaignRecord,
  CreateCampaignRequest,
  OrgId,
} from "@parley/contracts"
import { Database } from "@parley/db"
import { decodePageCursor, newId } from "@parley/platform"
import { Effect, Option } from "effect"
import { findChannel } from "../channels/repository.ts"
import { ChannelNotConfigured, InvalidInput, NotFound, TemplateNotApproved, UnknownTemplate } from "../errors.ts"
import { countryOf } from "../numbers/org-country.ts"
import { readPhoneNumber } from "../numbers/phone-number.ts"
import { ListKeys, pageOf } from "../paging/paging.ts"
import { bodyVariableCount, variablesProblem } from "../templates/variables.ts"
import { CAMPAIGN_CHANNEL, CampaignWakeup } from "./wakeup.ts"

interface CampaignRow {
  id: string
  name: string
  template_name: string
  template_language: string
  status: "running" | "completed"
  total_recipients: number
  sent: number
  failed: number
  created_at: Date
  completed_at: Date | null
  cursor_at: string
}

export const toCampaign = (row: CampaignRow): CampaignRecord => ({
  id: row.id,
  name: row.name,
  template: { name: row.template_name, language: row.template_language },
  status: row.status,
  totalRecipients: row.total_recipients,
  sent: row.sent,
  failed: row.failed,
  createdAt: row.created_at.toISOString(),
  completedAt: row.completed_at === null ? null : row.completed_at.toISOString(),
})

/** At most this many variable problems are named in one 400 (the first ones, in list order). */
const MAX_ISSUES = 20

interface ReadList extends CampaignCounts {
  readonly recipients: ReadonlyArray<{ phone: string; variables: ReadonlyArray<string> }>
}

/**
 * Reads the request's list with the organization's country (docs/contract.md §9): unreadable numbers go
 * to `invalid`, repeats are counted once, numbers that opted out are left out, and every remaining
 * recipient's variables must fill the template's body exactly (else the whole request is a 400
 * naming each problem, and nothing is stored).
 */
const readRecipients = (orgId: OrgId, body: CreateCampaignRequest, variableCount: number) =>
  Effect.gen(function* () {
    const { sql } = yield* Database
    const country = yield* countryOf(sql, orgId)
    const invalid: Array<{ index: number; input: string; error: string }> = []
    const issues: Array<{ path: string; message: string }> = []
    const seen = new Map<string, ReadonlyArray<string>>()
    let duplicates = 0
    for (let index = 0; index < body.recipients.length; index++) {
      // Reading 100,000 numbers takes a few seconds of CPU: let other requests in between.
      if (index % 2000 === 1999) yield* Effect.yieldNow
      const recipient = body.recipients[index] as CreateCampaignRequest["recipients"][number]
      const input = typeof recipient === "string" ? recipient : recipient.phone
      const read = readPhoneNumber(input, country)
      if ("error" in read) {
        invalid.push({ index, input, error: read.error })
        continue
      }
      const variables = typeof recipient === "string" ? [] : (recipient.variables ?? [])
      const problem = variablesProblem(variableCount, variables)
      if (problem !== undefined) {
        if (issues.length < MAX_ISSUES) issues.push({ path: `recipients[${index}].variables`, message: problem })
        continue
      }
      if (seen.has(read.digits)) duplicates++
      else seen.set(read.digits, variables)
    }
    if (issues.length > 0) {
      const first = issues[0] as { path: string; message: string }
      return yield* new InvalidInput({
        what: `${first.path}: ${first.message} (template ${body.template.name} has ${variableCount} variable${variableCount === 1 ? "" : "s"})`,
        issues,
      })
    }
    const phones = [...seen.keys()]
    const optedOut = new Set(
      (yield* Effect.promise(
        () => sql<Array<{ phone: string }>>`
          select phone from messaging.opt_outs where org_id = ${orgId} and phone = any(${phones}::text[])`,
      )).map((row) => row.phone),
    )
    const recipients = phones
      .filter((phone) => !optedOut.has(phone))
      .map((phone) => ({ phone, variables: seen.get(phone) ?? [] }))
    return {
      recipients,
      totalRecipients: recipients.length,
      invalid,
      duplicates,
      optedOut: optedOut.size,
    } satisfies ReadList
  })

/**
 * `POST /api/campaigns`: checks the template exists and is APPROVED (else 409 saying which), reads
 * the list, and — unless it is a dry run — stores the campaign and every recipient in ONE
 * transaction, wakes the workers and answers at once; the sending is the workers'. A list with no
 * recipient left is a 400 (a dry run still answers its counts).
 */
export const createCampaign = (orgId: OrgId, body: CreateCampaignRequest) =>
  Effect.gen(function* () {
    const { sql } = yield* Database
    const wakeup = yield* CampaignWakeup
    if (Option.isNone(yield* findChannel(orgId, "cloud"))) return yield* new ChannelNotConfigured({ kind: "cloud" })
    const [template] = yield* Effect.promise(
      () => sql<Array<{ status: string; components: ReadonlyArray<Record<string, unknown>> }>>`
        select status, components from messaging.templates
        where org_id = ${orgId} and name = ${body.template.name} and language = ${body.template.language}`,
    )
    if (template === undefined) {
      return yield* new UnknownTemplate({ name: body.template.name, language: body.template.language })
    }
    if (template.status !== "APPROVED") {
      return yield* new TemplateNotApproved({ name: body.template.name, language: body.template.language })
    }
    const list = yield* readRecipients(orgId, body, bodyVariableCount(template.components))
    const counts: CampaignCounts = {
      totalRecipients: list.totalRecipients,
      invalid: list.invalid,
      duplicates: list.duplicates,
      optedOut: list.optedOut,
    }
    if (body.dryRun === true) return { dryRun: true as const, counts }
    if (list.recipients.length === 0) {
      return yield* new InvalidInput({
        what: `recipients: none left to send to (${list.invalid.length} invalid, ${list.optedOut} opted out)`,
        issues: list.invalid
          .slice(0, MAX_ISSUES)
          .map((bad) => ({ path: `recipients[${bad.index}]`, message: bad.error })),
      })
    }
    const id = newId("cmp")
    const withVariables = list.recipients.some((r) => r.variables.length > 0)
    yield* Effect.promise(() =>
      sql.begin(async (tx) => {
        await tx`
          insert into messaging.campaigns (id, org_id, name, template_name, template_language, status, total_recipients)
          values (${id}, ${orgId}, ${body.name}, ${body.template.name}, ${body.template.language}, 'running',
                  ${list.recipients.length})`
        const phones = list.recipients.map((r) => r.phone)
        if (withVariables) {
          await tx`
            insert into messaging.campaign_recipients (campaign_id, seq, phone, variables)
            select ${id}, r.seq, r.phone, r.variables::jsonb
            from unnest(${phones}::text[], ${list.recipients.map((r) => JSON.stringify(r.variables))}::text[])
                 with ordinality as r(phone, variables, seq)`
        } else {
          await tx`
            insert into messaging.campaign_recipients (campaign_id, seq, phone)
            select ${id}, r.seq, r.phone from unnest(${phones}::text[]) with ordinality as r(phone, seq)`
        }
        // Every instance's worker hears of it at commit.
        await tx`select pg_notify(${CAMPAIGN_CHANNEL}, ${id})`
      }),
    )
    wakeup.notify()
    return { dryRun: false as const, started: { id, status: "running" as const, ...counts } }
  })

const CAMPAIGN_COLUMNS =
  "id, name, template_name, template_language, status, total_recipients, sent, failed, created_at, completed_at, created_at::text as cursor_at"

export const getCampaign = (orgId: OrgId, id: string) =>
  Effect.gen(function* () {
    const { sql } = yield* Database
    const [row] = yield* Effect.promise(
      () => sql<Array<CampaignRow>>`
        select ${sql.unsafe(CAMPAIGN_COLUMNS)} from messaging.campaigns where id = ${id} and org_id = ${orgId}`,
    )
    if (row === undefined) return yield* new NotFound()
    return toCampaign(row)
  })

/** `GET /api/campaigns`, newest first; `undefined` for a cursor this service did not issue. */
export const listCampaigns = (orgId: OrgId, limit: number, cursor: string | undefined) =>
  Effect.gen(function* () {
    const { sql } = yield* Database
    const after = cursor === undefined ? undefined : decodePageCursor(cursor, ListKeys.campaigns)
    if (cursor !== undefined && after === undefined) return undefined
    const rows = yield* Effect.promise(
      () => sql<Array<CampaignRow>>`
        select ${sql.unsafe(CAMPAIGN_COLUMNS)} from messaging.campaigns
        where org_id = ${orgId}
          ${after === undefined ? sql`` : sql`and (created_at, id) < (${after.at}::text::timestamptz, ${after.key})`}
        order by created_at desc, id desc limit ${limit + 1}`,
    )
    return pageOf(rows, limit, toCampaign)
  })

/** The states a worker moves a recipient through all read `pending` from outside. */
const STATES_OF = { pending: ["pending", "claimed", "sending"], sent: ["sent"], failed: ["failed"] } as const

/**
 * `GET /api/campaigns/:id/recipients`, in list order, optionally by status. The cursor is the
 * position in the list (the campaign's own `seq`), so pages neither skip nor repeat while the
 * campaign runs. 404 for another organization's campaign; `undefined` for a foreign cursor.
 */
export const listCampaignRecipients = (
  orgId: OrgId,
  id: string,
  query: { status?: "pending" | "sent" | "failed" | undefined; limit: number; cursor?: string | undefined },
) =>
  Effect.gen(function* () {
    const { sql } = yield* Database
    const afterSeq = query.cursor === undefined ? 0 : decodeSeqCursor(query.cursor, id)
    if (afterSeq === undefined) return undefined
    const [campaign] = yield* Effect.promise(
      () => sql`select 1 from messaging.campaigns where id = ${id} and org_id = ${orgId}`,
    )
    if (campaign === undefined) return yield* new NotFound()
    const states = query.status === undefined ? undefined : [...STATES_OF[query.status]]
    const rows = yield* Effect.promise(
      () => sql<
        Array<{ seq: number; phone: string; state: string; provider_message_id: string | null; error: string | null }>
      >`
        select seq, phone, state, provider_message_id, error from messaging.campaign_recipients
        where campaign_id = ${id} and seq > ${afterSeq}
          ${states === undefined ? sql`` : sql`and state = any(${states}::text[])`}
        order by seq limit ${query.limit + 1}`,
    )
    const page = rows.slice(0, query.limit)
    const last = page.at(-1)
    return {
      data: page.map(
        (row): CampaignRecipientRecord => ({
          phone: row.phone,
          status: row.state === "sent" ? "sent" : row.state === "failed" ? "failed" : "pending",
          messageId: row.provider_message_id,
          // A throughput pause is not an error: it is shown only once the recipient failed.
          error: row.state === "failed" ? row.error : null,
        }),
      ),
      nextCursor: rows.length > query.limit && last !== undefined ? seqCursor(id, last.seq) : null,
    }
  })

/** The recipients' cursor: the campaign and the list position of the last row shown. */
const seqCursor = (campaignId: string, seq: number): string =>
  Buffer.from(JSON.stringify([campaignId, seq])).toString("base64url")

/** `campaign_recipients.seq` is an `integer`. */
const MaxListPosition = 2 ** 31 - 1

const decodeSeqCursor = (cursor: string, campaignId: string): number | undefined => {
  try {
    const value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown
    // The list position is a Postgres integer: one past it reached Postgres and answered 500.
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      value[0] === campaignId &&
      Number.isSafeInteger(value[1]) &&
      value[1] >= 0 &&
      value[1] <= MaxListPosition
    ) {
      return value[1] as number
    }
  } catch {}
  return undefined
}

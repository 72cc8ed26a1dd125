import { type CampaignRecord, type CreateCampaignRequest, normalizePhone } from "@parley/contracts"
import { Database } from "@parley/db"
import { newId } from "@parley/platform"
import { Effect, Option } from "effect"
import { findChannel } from "../channels/repository.ts"
import { ChannelNotConfigured, NotFound, TemplateNotApproved } from "../errors.ts"
import { CAMPAIGN_CHANNEL, CampaignWakeup } from "./wakeup.ts"

interface CampaignRow {
  id: string
  name: string
  status: "running" | "completed"
  total_recipients: number
  sent: number
  failed: number
  completed_at: Date | null
}

export const toCampaign = (row: CampaignRow): CampaignRecord => ({
  id: row.id,
  name: row.name,
  status: row.status,
  totalRecipients: row.total_recipients,
  sent: row.sent,
  failed: row.failed,
  completedAt: row.completed_at === null ? null : row.completed_at.toISOString(),
})

/**
 * `POST /api/campaigns`: checks the template is APPROVED (else 409), stores the campaign and every
 * recipient (digits only, duplicates dropped so nobody gets the broadcast twice) in ONE
 * transaction, wakes the worker and answers at once; the sending is the worker's.
 */
export const createCampaign = (orgId: string, body: CreateCampaignRequest) =>
  Effect.gen(function* () {
    const { sql } = yield* Database
    const wakeup = yield* CampaignWakeup
    if (Option.isNone(yield* findChannel(orgId, "cloud"))) return yield* new ChannelNotConfigured({ kind: "cloud" })
    const [template] = yield* Effect.promise(
      () => sql<Array<{ status: string }>>`
        select status from messaging.templates
        where org_id = ${orgId} and name = ${body.template.name} and language = ${body.template.language}`,
    )
    if (template?.status !== "APPROVED") {
      return yield* new TemplateNotApproved({ name: body.template.name, language: body.template.language })
    }
    const recipients = [...new Set(body.recipients.map(normalizePhone))]
    const id = newId("cmp")
    const row = yield* Effect.promise(() =>
      sql.begin(async (tx) => {
        const [campaign] = await tx<Array<CampaignRow>>`
          insert into messaging.campaigns (id, org_id, name, template_name, template_language, status, total_recipients)
          values (${id}, ${orgId}, ${body.name}, ${body.template.name}, ${body.template.language}, 'running', ${recipients.length})
          returning *`
        await tx`
          insert into messaging.campaign_recipients (campaign_id, seq, phone)
          select ${id}, r.seq, r.phone from unnest(${recipients}::text[]) with ordinality as r(phone, seq)`
        // Every instance's worker hears of it at commit.
        await tx`select pg_notify(${CAMPAIGN_CHANNEL}, ${id})`
        return campaign as CampaignRow
      }),
    )
    wakeup.notify()
    return { id: row.id, status: "running" as const, totalRecipients: row.total_recipients }
  })

export const getCampaign = (orgId: string, id: string) =>
  Effect.gen(function* () {
    const { sql } = yield* Database
    const [row] = yield* Effect.promise(
      () => sql<Array<CampaignRow>>`select * from messaging.campaigns where id = ${id} and org_id = ${orgId}`,
    )
    if (row === undefined) return yield* new NotFound()
    return toCampaign(row)
  })

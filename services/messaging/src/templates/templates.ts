import type { CreateTemplateRequest, OrgId, TemplateRecord } from "@parley/contracts"
import { Database, jsonb } from "@parley/db"
import { newId } from "@parley/platform"
import { Effect, Option } from "effect"
import { findChannel } from "../channels/repository.ts"
import { CloudProviders } from "../cloud/cloud-providers.ts"
import { ChannelNotConfigured, DuplicateTemplate, ProviderRejected, ProviderUnavailable } from "../errors.ts"

interface TemplateRow {
  id: string
  name: string
  language: string
  category: string
  status: string
  quality_score: string | null
  meta_template_id: string | null
  reason: string
  components: ReadonlyArray<Record<string, unknown>>
  created_at: Date
  updated_at: Date
}

const toTemplate = (row: TemplateRow): TemplateRecord => ({
  id: row.id,
  name: row.name,
  language: row.language,
  category: row.category,
  status: row.status,
  qualityScore: row.quality_score,
  metaTemplateId: row.meta_template_id,
  reason: row.reason,
  components: row.components,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
})

export const listTemplates = (orgId: OrgId) =>
  Effect.gen(function* () {
    const { sql } = yield* Database
    const rows = yield* Effect.promise(
      () => sql<Array<TemplateRow>>`
        select * from messaging.templates where org_id = ${orgId} order by created_at desc, id desc`,
    )
    return rows.map(toTemplate)
  })

/**
 * `POST /api/templates`: the row is claimed first (the unique name+language is the 409), then the
 * template is submitted to the provider on the organization's business account (whose answer may
 * already move it to another category, which is then what is stored). It stays PENDING
 * until the provider's status webhook decides. A submission the provider refuses or cannot take
 * removes the claim again, so the caller can fix it and retry under the same name.
 */
export const createTemplate = (orgId: OrgId, body: CreateTemplateRequest) =>
  Effect.gen(function* () {
    const { sql } = yield* Database
    const { of: cloudProvider } = yield* CloudProviders
    const channel = yield* findChannel(orgId, "cloud")
    if (
      Option.isNone(channel) ||
      channel.value.business_account_id === null ||
      (channel.value.access_token_sealed === null && !channel.value.sandbox)
    ) {
      return yield* new ChannelNotConfigured({ kind: "cloud" })
    }
    const id = newId("tpl")
    const claimed = yield* Effect.promise(
      () => sql`
        insert into messaging.templates (id, org_id, name, language, category, components, status)
        values (${id}, ${orgId}, ${body.name}, ${body.language}, ${body.category},
                ${jsonb(sql, body.components)}, 'PENDING')
        on conflict (org_id, name, language) do nothing
        returning id`,
    )
    if (claimed.length === 0) return yield* new DuplicateTemplate()

    const outcome = yield* cloudProvider(channel.value).submitTemplate({
      name: body.name,
      language: body.language,
      category: body.category,
      components: body.components,
    })
    if (outcome._tag !== "Accepted") {
      yield* Effect.promise(() => sql`delete from messaging.templates where id = ${id}`)
      return yield* outcome._tag === "Rejected"
        ? new ProviderRejected({ detail: outcome.detail })
        : new ProviderUnavailable({ detail: outcome.detail, rateLimited: outcome._tag === "RateLimited" })
    }
    const [row] = yield* Effect.promise(
      () => sql<Array<TemplateRow>>`
        update messaging.templates
        set meta_template_id = ${outcome.value.id}, category = ${outcome.value.category ?? body.category},
            updated_at = now()
        where id = ${id} returning *`,
    )
    return toTemplate(row as TemplateRow)
  })

import type { OutgoingRecord } from "@parley/bus"
import { type OrgId, TemplateStatusValue as ReportedTemplateStatus } from "@parley/contracts"
import { Effect, Schema } from "effect"
import type postgres from "postgres"
import { templateCategory, templateQuality, templateStatus } from "../bus/events.ts"
import { TemplateCategoryValue, TemplateQualityValue, TemplateStatusValue } from "../cloud/payload.ts"

/** The provider statuses that are events (docs/contract.md §7); others update nothing and fire nothing. */
const isReportedStatus = Schema.is(ReportedTemplateStatus)

interface StoredTemplate {
  id: string
  org_id: OrgId
  name: string
  language: string
  status: string
  reason: string
  quality_score: string | null
  category: string
  meta_template_id: string | null
}

/** The provider's "no value" spellings: a previous value that is one of these is unknown (""). */
const known = (value: string | null | undefined): string | undefined =>
  value === undefined || value === null || value === "" || value === "UNKNOWN" || value === "NONE" ? undefined : value

/**
 * The template a provider update is about, of the organization whose cloud channel is on that
 * business account (one at most: an account belongs to one organization). When the update names the
 * provider's template id, that id decides: the template stored with it, or — when its submission
 * answer was lost and no id was stored — the one of that name and language; a template stored with
 * another id is another template, whatever its name. Without an id, name and language decide.
 * Locked, so two concurrent deliveries of one update serialise and the second sees the first's
 * change and fires nothing.
 */
const matchTemplates = (
  tx: postgres.TransactionSql,
  businessAccountId: string,
  ref: { message_template_id?: string | null; message_template_name: string; message_template_language: string },
) => {
  const templateId = ref.message_template_id ?? null
  return Effect.promise(
    () => tx<Array<StoredTemplate>>`
      select t.id, t.org_id, t.name, t.language, t.status, t.reason, t.quality_score, t.category, t.meta_template_id
      from messaging.templates t
      join messaging.channels c on c.org_id = t.org_id and c.kind = 'cloud'
      where c.business_account_id = ${businessAccountId}
        and (case when ${templateId}::text is null
               then t.name = ${ref.message_template_name} and t.language = ${ref.message_template_language}
               else t.meta_template_id = ${templateId}
                    or (t.meta_template_id is null and t.name = ${ref.message_template_name}
                        and t.language = ${ref.message_template_language}) end)
      order by t.id
      for update of t`,
  )
}

/**
 * Applies one template change from the provider's webhook; answers the records to append, or
 * `undefined` when the change is not one Parley handles (logged and ignored).
 */
export const applyTemplateChange = (
  tx: postgres.TransactionSql,
  businessAccountId: string,
  field: string,
  raw: unknown,
  at: Date,
): Effect.Effect<Array<OutgoingRecord> | undefined> =>
  Effect.gen(function* () {
    switch (field) {
      case "message_template_status_update": {
        const decoded = Schema.decodeUnknownOption(TemplateStatusValue)(raw)
        if (decoded._tag === "None") return yield* ignored(field)
        const value = decoded.value
        const status = value.event
        if (!isReportedStatus(status)) return []
        const reason = status === "REJECTED" ? (known(value.reason) ?? "") : ""
        const out: Array<OutgoingRecord> = []
        for (const t of yield* matchTemplates(tx, businessAccountId, value)) {
          const metaTemplateId = t.meta_template_id ?? value.message_template_id ?? null
          if (t.status === status && t.reason === reason) continue
          yield* Effect.promise(
            () => tx`update messaging.templates set status = ${status}, reason = ${reason},
                       meta_template_id = ${metaTemplateId}, updated_at = now() where id = ${t.id}`,
          )
          const data = { name: t.name, language: t.language, metaTemplateId, status, reason }
          out.push(templateStatus(t.org_id, data, at))
        }
        return out
      }
      case "message_template_quality_update": {
        const decoded = Schema.decodeUnknownOption(TemplateQualityValue)(raw)
        if (decoded._tag === "None") return yield* ignored(field)
        const value = decoded.value
        const out: Array<OutgoingRecord> = []
        for (const t of yield* matchTemplates(tx, businessAccountId, value)) {
          if (t.quality_score === value.new_quality_score) continue
          const metaTemplateId = t.meta_template_id ?? value.message_template_id ?? null
          const previous = known(value.previous_quality_score) ?? known(t.quality_score) ?? ""
          yield* Effect.promise(
            () => tx`update messaging.templates set quality_score = ${value.new_quality_score},
                       meta_template_id = ${metaTemplateId}, updated_at = now() where id = ${t.id}`,
          )
          const data = {
            name: t.name,
            language: t.language,
            metaTemplateId,
            qualityScore: value.new_quality_score,
            previousQualityScore: previous,
          }
          out.push(templateQuality(t.org_id, data, at))
        }
        return out
      }
      case "template_category_update": {
        const decoded = Schema.decodeUnknownOption(TemplateCategoryValue)(raw)
        if (decoded._tag === "None") return yield* ignored(field)
        const value = decoded.value
        const out: Array<OutgoingRecord> = []
        for (const t of yield* matchTemplates(tx, businessAccountId, value)) {
          if (t.category === value.new_category) continue
          const metaTemplateId = t.meta_template_id ?? value.message_template_id ?? null
          const previous = known(value.previous_category) ?? known(t.category) ?? ""
          yield* Effect.promise(
            () => tx`update messaging.templates set category = ${value.new_category},
                       meta_template_id = ${metaTemplateId}, updated_at = now() where id = ${t.id}`,
          )
          const data = {
            name: t.name,
            language: t.language,
            metaTemplateId,
            category: value.new_category,
            previousCategory: previous,
          }
          out.push(templateCategory(t.org_id, data, at))
        }
        return out
      }
      default:
        return yield* ignored(field)
    }
  })

const ignored = (field: string) =>
  Effect.logInfo("cloud webhook: change not handled, ignored").pipe(
    Effect.annotateLogs({ field }),
    Effect.as(undefined),
  )

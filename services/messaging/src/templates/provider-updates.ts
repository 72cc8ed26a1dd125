import type { OutgoingRecord } from "@parley/bus"
import { Effect, Schema } from "effect"
import type postgres from "postgres"
import { TemplateCategoryValue, TemplateQualityValue, TemplateStatusValue } from "../cloud/payload.ts"
import { templateCategory, templateQuality, templateStatus } from "../events.ts"

/** The provider statuses that are events (docs/contract.md §7); others update nothing and fire nothing. */
const REPORTED_STATUSES = new Set(["APPROVED", "REJECTED", "PAUSED", "DISABLED"])

interface StoredTemplate {
  id: string
  org_id: string
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

const decodeOr = <S extends Schema.Top>(schema: S, raw: unknown) =>
  Schema.decodeUnknownOption(schema as never)(raw) as import("effect").Option.Option<S["Type"]>

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
        const decoded = decodeOr(TemplateStatusValue, raw)
        if (decoded._tag === "None") return yield* ignored(field)
        const value = decoded.value
        if (!REPORTED_STATUSES.has(value.event)) return []
        const reason = value.event === "REJECTED" ? (known(value.reason) ?? "") : ""
        const out: Array<OutgoingRecord> = []
        for (const t of yield* matchTemplates(tx, businessAccountId, value)) {
          const metaTemplateId = t.meta_template_id ?? value.message_template_id ?? null
          if (t.status === value.event && t.reason === reason) continue
          yield* Effect.promise(
            () => tx`update messaging.templates set status = ${value.event}, reason = ${reason},
                       meta_template_id = ${metaTemplateId}, updated_at = now() where id = ${t.id}`,
          )
          const data = { name: t.name, language: t.language, metaTemplateId, status: value.event as never, reason }
          out.push(templateStatus(t.org_id, data, at))
        }
        return out
      }
      case "message_template_quality_update": {
        const decoded = decodeOr(TemplateQualityValue, raw)
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
        const decoded = decodeOr(TemplateCategoryValue, raw)
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

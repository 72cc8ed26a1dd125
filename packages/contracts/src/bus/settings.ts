import { Schema } from "effect"
import { OrgId } from "../ids.ts"
import { IsoTimestamp } from "../values.ts"

/**
 * `parley.assistant.settings.v1` (key: orgId, compacted): what other services need of an
 * organization's booking settings, which the assistant owns — today the country phone numbers are
 * read with (docs/contract.md §8, §9). Published whole on every save; a consumer keeps the latest by
 * `changedAt`.
 */
export const OrganizationSettingsChanged = Schema.Struct({
  orgId: OrgId,
  /** ISO 3166-1 alpha-2. */
  country: Schema.String,
  changedAt: IsoTimestamp,
}).annotate({ identifier: "OrganizationSettingsChanged" })
export type OrganizationSettingsChanged = typeof OrganizationSettingsChanged.Type

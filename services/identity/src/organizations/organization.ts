/**
 * An organization as identity sees it, and its JSON form (docs/contract.md). Ids are plain strings
 * inside the service (they come from our own tables); the JSON form brands them.
 */
import type { OrganizationRecord, OrgId } from "@parley/contracts"

export interface Organization {
  readonly id: string
  readonly name: string
  readonly features: ReadonlyArray<string>
  readonly createdAt: Date
}

export const organizationJson = (org: Organization): OrganizationRecord => ({
  id: org.id as OrgId,
  name: org.name,
  features: org.features,
  createdAt: org.createdAt.toISOString(),
})

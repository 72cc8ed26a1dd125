/**
 * An organization as identity sees it, and its JSON form (docs/contract.md). Ids are branded where
 * they are made or read from our own tables, and keep their brand to the JSON.
 */
import type { OrganizationRecord, OrgId } from "@parley/contracts"

export interface Organization {
  readonly id: OrgId
  readonly name: string
  readonly features: ReadonlyArray<string>
  readonly createdAt: Date
}

export const organizationJson = (org: Organization): OrganizationRecord => ({
  id: org.id,
  name: org.name,
  features: org.features,
  createdAt: org.createdAt.toISOString(),
})

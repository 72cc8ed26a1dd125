/**
 * Identity's records as the rest of the service sees them, and their JSON forms (docs/contract.md).
 * Ids are branded where they are made or read from our own tables, and keep their brand to the JSON.
 */
import type {
  ApiKeyRecord,
  KeyId,
  MemberRecord,
  Role as MemberRole,
  OrganizationRecord,
  OrgId,
  Scope,
  UserId,
} from "@parley/contracts"

export interface Organization {
  readonly id: OrgId
  readonly name: string
  readonly features: ReadonlyArray<string>
  readonly createdAt: Date
}

export interface User {
  readonly id: UserId
  readonly orgId: OrgId
  readonly email: string
  readonly passwordHash: string
  readonly role: MemberRole
  readonly createdAt: Date
}

export interface ApiKey {
  readonly id: KeyId
  readonly orgId: OrgId
  readonly name: string
  readonly prefix: string
  readonly scopes: ReadonlyArray<Scope>
  readonly allowedOrigins: ReadonlyArray<string>
  readonly createdAt: Date
  readonly lastUsedAt: Date | null
  readonly revokedAt: Date | null
}

const iso = (date: Date | null): string | null => (date === null ? null : date.toISOString())

export const organizationJson = (org: Organization): OrganizationRecord => ({
  id: org.id,
  name: org.name,
  features: org.features,
  createdAt: org.createdAt.toISOString(),
})

export const memberJson = (user: User): MemberRecord => ({ id: user.id, email: user.email, role: user.role })

/** Exactly the KeyRecord of docs/contract.md §4: never the secret nor its digest. */
export const keyRecordJson = (key: ApiKey): ApiKeyRecord => ({
  id: key.id,
  name: key.name,
  prefix: key.prefix,
  scopes: key.scopes,
  allowedOrigins: key.allowedOrigins,
  createdAt: key.createdAt.toISOString(),
  lastUsedAt: iso(key.lastUsedAt),
  revokedAt: iso(key.revokedAt),
})

/**
 * Identity's records as the rest of the service sees them, and their JSON forms (docs/contract.md).
 * Ids are plain strings inside the service (they come from our own tables); the JSON forms brand them.
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
  readonly id: string
  readonly name: string
  readonly features: ReadonlyArray<string>
  readonly createdAt: Date
}

export interface User {
  readonly id: string
  readonly orgId: string
  readonly email: string
  readonly passwordHash: string
  readonly role: MemberRole
  readonly createdAt: Date
}

export interface ApiKey {
  readonly id: string
  readonly orgId: string
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
  id: org.id as OrgId,
  name: org.name,
  features: org.features,
  createdAt: org.createdAt.toISOString(),
})

export const memberJson = (user: User): MemberRecord => ({ id: user.id as UserId, email: user.email, role: user.role })

/** Exactly the KeyRecord of docs/contract.md §4: never the secret nor its digest. */
export const keyRecordJson = (key: ApiKey): ApiKeyRecord => ({
  id: key.id as KeyId,
  name: key.name,
  prefix: key.prefix,
  scopes: key.scopes,
  allowedOrigins: key.allowedOrigins,
  createdAt: key.createdAt.toISOString(),
  lastUsedAt: iso(key.lastUsedAt),
  revokedAt: iso(key.revokedAt),
})

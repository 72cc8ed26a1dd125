/** A member (one `users` row: one membership) as identity sees it, and its JSON form (docs/contract.md). */
import type { MemberRecord, Role as MemberRole, OrgId, UserId } from "@parley/contracts"

export interface User {
  readonly id: UserId
  readonly orgId: OrgId
  readonly email: string
  readonly passwordHash: string
  readonly role: MemberRole
  readonly createdAt: Date
}

export const memberJson = (user: User): MemberRecord => ({ id: user.id, email: user.email, role: user.role })

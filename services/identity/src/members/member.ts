/** A member (one `users` row: one membership) as identity sees it, and its JSON form (docs/contract.md). */
import type { MemberRecord, Role as MemberRole, UserId } from "@parley/contracts"

export interface User {
  readonly id: string
  readonly orgId: string
  readonly email: string
  readonly passwordHash: string
  readonly role: MemberRole
  readonly createdAt: Date
}

export const memberJson = (user: User): MemberRecord => ({ id: user.id as UserId, email: user.email, role: user.role })

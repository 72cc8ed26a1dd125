/**
 * The `MemberRemoved` record of a removal, published on `parley.identity.members.v1` (keyed by user
 * id) in the removal's transaction: the assistant gives the conversations the member held back to the
 * assistant (docs/contract.md §17), so a removed member locks nothing.
 */
import type { OutgoingRecord } from "@parley/bus"
import { encodeBusValue, MemberRemoved, type OrgId, Topics, type UserId } from "@parley/contracts"

export const memberRemovedRecord = (orgId: OrgId, userId: UserId, removedAt: Date): OutgoingRecord => ({
  topic: Topics.identityMembers,
  key: userId,
  value: encodeBusValue(MemberRemoved, { orgId, userId, removedAt: removedAt.toISOString() }),
})

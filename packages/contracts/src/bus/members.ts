import { Schema } from "effect"
import { OrgId, UserId } from "../ids.ts"
import { IsoTimestamp } from "../values.ts"

/**
 * `parley.identity.members.v1` (key: userId, compacted): a member left an organization
 * (`DELETE /api/org/members/:id`, docs/contract.md §2.4). Identity owns members; services that keep
 * something a member holds (the assistant's conversations, §17) let go of it on this fact. A removed
 * membership is never restored (adding the person again makes a new user id), so one record per user
 * is the whole story and a compacted topic keeps it for consumers that start later.
 */
export const MemberRemoved = Schema.Struct({
  orgId: OrgId,
  userId: UserId,
  removedAt: IsoTimestamp,
}).annotate({ identifier: "MemberRemoved" })
export type MemberRemoved = typeof MemberRemoved.Type

/**
 * A member who leaves the organization (`MemberRemoved` on `parley.identity.members.v1`, published by
 * identity, which owns members) holds nothing any more: the conversations they held go back to the
 * assistant in one transaction, announced to the live inbox. Idempotent: a redelivered record finds
 * nothing left to release.
 */
import { Bus, decodeOrSkip } from "@parley/bus"
import { MemberRemoved, Topics } from "@parley/contracts"
import { type Database, withTransaction } from "@parley/db"
import { Effect } from "effect"
import { announceChange } from "../conversations/feed.ts"
import { releaseHoldsOf } from "../conversations/hold.ts"

export const MEMBER_REMOVED_GROUP = "assistant.identity-members"

export const releaseRemovedMember = (removed: MemberRemoved) =>
  withTransaction((tx) =>
    Effect.gen(function* () {
      const released = yield* releaseHoldsOf(tx, removed.orgId, removed.userId)
      for (const id of released) yield* announceChange(tx, id)
    }),
  ).pipe(Effect.withSpan("assistant.releaseRemovedMember"))

export const consumeMemberRemoved = Effect.gen(function* () {
  const bus = yield* Bus
  const context = yield* Effect.context<Database>()
  return yield* bus.subscribe(
    { groupId: MEMBER_REMOVED_GROUP, topics: [Topics.identityMembers] },
    decodeOrSkip(MemberRemoved, (removed) => releaseRemovedMember(removed).pipe(Effect.provideContext(context))),
  )
})

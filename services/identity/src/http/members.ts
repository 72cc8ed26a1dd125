/** An organization's dashboard users (docs/contract.md §2.4): list for anyone, add, change the role of and remove for admins. */
import { Effect } from "effect"
import { memberJson } from "../members/member.ts"
import { Members } from "../members/members.ts"
import type { IdentityHandlers } from "./runtime.ts"

export const memberHandlers = {
  createMember: ({ principal, body }) =>
    Effect.gen(function* () {
      const request = yield* body
      return memberJson(yield* Members.use((m) => m.add(principal.orgId, request)))
    }),

  listMembers: ({ principal }) =>
    Members.use((m) => m.list(principal.orgId)).pipe(Effect.map((users) => ({ data: users.map(memberJson) }))),

  updateMember: ({ principal, params, body }) =>
    Effect.gen(function* () {
      const { role } = yield* body
      return memberJson(yield* Members.use((m) => m.setRole(principal.orgId, params.id, role)))
    }),

  deleteMember: ({ principal, params }) => Members.use((m) => m.remove(principal, params.id)),
} satisfies Partial<IdentityHandlers>

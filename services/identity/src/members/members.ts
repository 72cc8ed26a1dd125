/**
 * An organization's dashboard users. A role change (it takes effect on the member's next request: the
 * gateway reads the role with each session lookup) may not leave the organization without an
 * administrator. Removal is refused for yourself (a session must not saw off
 * the branch it sits on; another administrator removes you) and for the last administrator (an
 * organization without one could never manage keys or members again). Both checks run under the
 * organization's row lock so two administrators removing each other cannot leave none. A removal is
 * announced on `parley.identity.members.v1` in its transaction (the outbox), so what other services
 * let the member hold (the assistant's conversations) is let go of.
 */
import { OutboxWriter } from "@parley/bus"
import {
  type CreateMemberRequest,
  type Role as MemberRole,
  type OrgId,
  type Principal,
  UserId,
} from "@parley/contracts"
import { Database, withTransaction } from "@parley/db"
import { newId } from "@parley/platform"
import { Clock, Context, Effect, Layer } from "effect"
import { memberRemovedRecord } from "../bus/member-announcements.ts"
import { CannotRemoveSelf, type EmailTaken, LastAdministrator, ResourceNotFound, type WeakPassword } from "../errors.ts"
import { lockOrganization } from "../organizations/organization-repository.ts"
import { Passwords } from "../passwords/passwords.ts"
import { deleteSessionsOfUser } from "../sessions/session-repository.ts"
import type { User } from "./member.ts"
import {
  countActiveAdmins,
  findActiveUser,
  insertMembership,
  listActiveUsers,
  markUserRemoved,
  updateUserRole,
} from "./user-repository.ts"

export class Members extends Context.Service<
  Members,
  {
    readonly add: (orgId: OrgId, request: CreateMemberRequest) => Effect.Effect<User, EmailTaken | WeakPassword>
    readonly list: (orgId: OrgId) => Effect.Effect<ReadonlyArray<User>>
    /** A new role for an active member; making the last administrator a member is LastAdministrator. */
    readonly setRole: (
      orgId: OrgId,
      userId: string,
      role: MemberRole,
    ) => Effect.Effect<User, ResourceNotFound | LastAdministrator>
    readonly remove: (
      principal: Principal,
      userId: string,
    ) => Effect.Effect<void, ResourceNotFound | CannotRemoveSelf | LastAdministrator>
  }
>()("@parley/identity/Members") {
  static readonly layer = Layer.effect(
    Members,
    Effect.gen(function* () {
      const database = yield* Database
      const passwords = yield* Passwords
      const outbox = yield* OutboxWriter
      const { sql } = database
      return Members.of({
        add: (orgId, request) =>
          Effect.gen(function* () {
            // Hashed (and checked) whether or not the person has an account already: both answers
            // take the same work and the same shape, so neither tells the organization which it was.
            const newPasswordHash = yield* passwords.hashNew(request.password, "password", [request.email])
            return yield* withTransaction((tx) =>
              insertMembership(tx, {
                id: UserId.make(newId("usr")),
                orgId,
                email: request.email,
                newPasswordHash,
                role: request.role,
              }),
            ).pipe(Effect.provideService(Database, database))
          }).pipe(Effect.withSpan("identity.addMember")),
        list: (orgId) => listActiveUsers(sql, orgId),
        setRole: (orgId, userId, role) =>
          withTransaction((tx) =>
            Effect.gen(function* () {
              yield* lockOrganization(tx, orgId)
              const user = yield* findActiveUser(tx, orgId, userId)
              if (user === undefined) return yield* new ResourceNotFound()
              if (user.role === "admin" && role !== "admin" && (yield* countActiveAdmins(tx, orgId)) <= 1) {
                return yield* new LastAdministrator()
              }
              return (yield* updateUserRole(tx, orgId, userId, role)) ?? user
            }),
          ).pipe(Effect.provideService(Database, database), Effect.withSpan("identity.setMemberRole")),
        remove: (principal, userId) =>
          withTransaction((tx) =>
            Effect.gen(function* () {
              yield* lockOrganization(tx, principal.orgId)
              const user = yield* findActiveUser(tx, principal.orgId, userId)
              if (user === undefined) return yield* new ResourceNotFound()
              if (principal.actor.type === "user" && principal.actor.userId === userId) {
                return yield* new CannotRemoveSelf()
              }
              if (user.role === "admin" && (yield* countActiveAdmins(tx, principal.orgId)) <= 1) {
                return yield* new LastAdministrator()
              }
              yield* markUserRemoved(tx, principal.orgId, userId)
              yield* deleteSessionsOfUser(tx, userId)
              const removedAt = new Date(yield* Clock.currentTimeMillis)
              yield* outbox.append(tx, [memberRemovedRecord(principal.orgId, user.id, removedAt)])
            }),
          ).pipe(Effect.provideService(Database, database), Effect.withSpan("identity.removeMember")),
      })
    }),
  )
}

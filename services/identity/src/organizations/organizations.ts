/** The operator's view: creating organizations (with their first administrator) and their plan. */

import { OutboxWriter } from "@parley/bus"
import { type CreateOrganizationRequest, OrgId, type UpdateOrganizationRequest, UserId } from "@parley/contracts"
import { Database, withTransaction } from "@parley/db"
import { newId } from "@parley/platform"
import { Clock, Context, Effect, Layer } from "effect"
import { listActiveApiKeysWithDigest } from "../api-keys/api-key-repository.ts"
import { keyChangedRecord } from "../bus/key-announcements.ts"
import { type EmailTaken, ResourceNotFound, type WeakPassword } from "../errors.ts"
import type { User } from "../members/member.ts"
import { insertMembership } from "../members/user-repository.ts"
import { Passwords } from "../passwords/passwords.ts"
import type { Organization } from "./organization.ts"
import { findOrganization, insertOrganization, updateOrganization } from "./organization-repository.ts"

const unique = <A>(items: ReadonlyArray<A>): ReadonlyArray<A> => [...new Set(items)]

export class Organizations extends Context.Service<
  Organizations,
  {
    /** The organization and its first administrator, in one transaction: both or neither. */
    readonly create: (
      request: CreateOrganizationRequest,
    ) => Effect.Effect<{ organization: Organization; admin: User }, EmailTaken | WeakPassword>
    readonly update: (id: string, change: UpdateOrganizationRequest) => Effect.Effect<Organization, ResourceNotFound>
    readonly get: (id: string) => Effect.Effect<Organization, ResourceNotFound>
  }
>()("@parley/identity/Organizations") {
  static readonly layer = Layer.effect(
    Organizations,
    Effect.gen(function* () {
      const database = yield* Database
      const passwords = yield* Passwords
      const outbox = yield* OutboxWriter
      const provided = Effect.provideService(Database, database)
      return Organizations.of({
        create: (request) =>
          Effect.gen(function* () {
            // Hash before the transaction opens: 200 ms of scrypt must not hold a connection.
            const passwordHash = yield* passwords.hashNew(request.admin.password, "admin.password", [
              request.admin.email,
              request.name,
            ])
            return yield* withTransaction((tx) =>
              Effect.gen(function* () {
                const organization = yield* insertOrganization(tx, {
                  id: OrgId.make(newId("org")),
                  name: request.name,
                  features: unique(request.features ?? []),
                })
                // An admin who already has an account elsewhere gets a membership with this password.
                const admin = yield* insertMembership(tx, {
                  id: UserId.make(newId("usr")),
                  orgId: organization.id,
                  email: request.admin.email,
                  newPasswordHash: passwordHash,
                  role: "admin",
                })
                return { organization, admin }
              }),
            ).pipe(provided)
          }).pipe(Effect.withSpan("identity.createOrganization")),
        update: (id, change) =>
          withTransaction((tx) =>
            Effect.gen(function* () {
              const org = yield* updateOrganization(tx, id, {
                name: change.name,
                features: change.features === undefined ? undefined : unique(change.features),
              })
              if (org === undefined) return yield* new ResourceNotFound()
              // Gateways cache each key with its organization's features: announcing the keys again
              // makes every gateway drop them and read the new plan within a second.
              if (change.features !== undefined) {
                const keys = yield* listActiveApiKeysWithDigest(tx, org.id)
                if (keys.length === 0) return org
                const now = new Date(yield* Clock.currentTimeMillis)
                yield* outbox.append(
                  tx,
                  keys.map(({ key, digest }) => keyChangedRecord(key, digest, now)),
                )
              }
              return org
            }),
          ).pipe(provided, Effect.withSpan("identity.updateOrganization")),
        get: (id) =>
          findOrganization(database.sql, id).pipe(
            Effect.flatMap((org) => (org === undefined ? Effect.fail(new ResourceNotFound()) : Effect.succeed(org))),
          ),
      })
    }),
  )
}

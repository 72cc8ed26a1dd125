/** Dashboard sign-in: login, logout, the current user, one's own password, and the gateway's session lookup. */
import type { OrgId } from "@parley/contracts"
import { Database } from "@parley/db"
import { newId, sha256Hex } from "@parley/platform"
import { Clock, Context, Effect, Layer } from "effect"
import {
  InvalidCredentials,
  LoginThrottled,
  ResourceNotFound,
  SessionRequired,
  type WeakPassword,
  WrongCurrentPassword,
} from "../errors.ts"
import type { User } from "../members/member.ts"
import { findActiveUser, findActiveUsersByEmail, updateUserPassword } from "../members/user-repository.ts"
import type { Organization } from "../organizations/organization.ts"
import { findOrganization } from "../organizations/organization-repository.ts"
import { Passwords } from "../passwords/passwords.ts"
import {
  type ActiveSession,
  deleteExpiredSessionsOfUser,
  deleteOtherSessionsOfUser,
  deleteSession,
  findActiveSession,
  insertSession,
} from "../sessions/session-repository.ts"
import { newSessionToken, SESSION_LIFETIME_MS } from "../sessions/session-token.ts"
import { accountKeyOf, FreeFailures, membershipKeyOf, newDeviceToken } from "./login-throttle.ts"
import {
  clearFailures,
  deviceFailed,
  findTrustedDevice,
  reserveAttempt,
  type TrustedDevice,
  trustDevice,
} from "./login-throttle-repository.ts"

export interface SignedIn {
  readonly user: User
  readonly organization: Organization
  /** The cookie's token: handed to the browser once, only its digest is stored. */
  readonly token: string
  /** The `parley_device` token of this browser for this user (new, or the one it presented). */
  readonly deviceToken: string
}

export class Accounts extends Context.Service<
  Accounts,
  {
    /**
     * `deviceToken`: the browser's `parley_device` cookie, if any. Fails LoginThrottled while the
     * account is locked for browsers it has not signed in from (login-throttle.ts).
     */
    readonly login: (
      email: string,
      password: string,
      deviceToken: string | undefined,
      /** One of the email's organizations; by default the first it joined whose password this is. */
      orgId?: string,
    ) => Effect.Effect<SignedIn, InvalidCredentials | LoginThrottled>
    /** Ends the session with that token if it is the caller's; nothing to end is not an error. */
    readonly logout: (userId: string, token: string | undefined) => Effect.Effect<void>
    readonly current: (
      orgId: OrgId,
      userId: string,
    ) => Effect.Effect<{ user: User; organization: Organization }, SessionRequired>
    readonly lookupSession: (tokenDigest: string) => Effect.Effect<ActiveSession, ResourceNotFound>
    /**
     * A new password for the signed-in user, given the current one; every other session of the user
     * ends (someone who knew the old password is signed out), the one presenting `token` stays.
     * A wrong current password counts against the account like a failed login; LoginThrottled
     * while the account is locked.
     */
    readonly changePassword: (
      orgId: OrgId,
      userId: string,
      change: { readonly currentPassword: string; readonly newPassword: string },
      token: string | undefined,
    ) => Effect.Effect<void, SessionRequired | WrongCurrentPassword | WeakPassword | LoginThrottled>
  }
>()("@parley/identity/Accounts") {
  static readonly layer = Layer.effect(
    Accounts,
    Effect.gen(function* () {
      const { sql } = yield* Database
      const passwords = yield* Passwords
      return Accounts.of({
        login: (email, password, deviceToken, orgId) =>
          Effect.gen(function* () {
            // Each membership of an email has its own password (`insertMembership`): the sign-in lands in
            // the first, in joining order, that this password opens. Each is throttled on its own
            // (`membershipKeyOf`): failures against one membership count against that one, and only its
            // own success clears them — a second membership of the same email (which another
            // organization's administrator may hold) neither resets nor opens another's count.
            const memberships = yield* findActiveUsersByEmail(sql, email, orgId)
            if (memberships.length === 0) {
              // Unknown email, or not a member of `orgId`: counted and locked alike, a scrypt run, 401.
              const lockedMs = yield* reserveAttempt(sql, accountKeyOf(email))
              if (lockedMs > 0) return yield* new LoginThrottled({ retryAfterSeconds: Math.ceil(lockedMs / 1000) })
              yield* passwords.verify(password, undefined)
              return yield* new InvalidCredentials()
            }
            const deviceDigest = deviceToken === undefined ? undefined : sha256Hex(deviceToken)
            let user: User | undefined
            let device: TrustedDevice | undefined
            let lockedMs = Number.POSITIVE_INFINITY
            let tried = 0
            for (const membership of memberships) {
              // A browser this membership signed in from ignores its lock; any other is counted first.
              const trusted =
                deviceDigest === undefined ? undefined : yield* findTrustedDevice(sql, deviceDigest, membership.id)
              if (trusted === undefined) {
                const left = yield* reserveAttempt(sql, membershipKeyOf(membership.id))
                if (left > 0) {
                  lockedMs = Math.min(lockedMs, left)
                  continue
                }
              }
              tried += 1
              if (yield* passwords.verify(password, membership.passwordHash)) {
                user = membership
                device = trusted
                break
              }
              if (trusted !== undefined) yield* deviceFailed(sql, trusted.tokenDigest, FreeFailures)
            }
            if (user === undefined) {
              if (tried === 0) return yield* new LoginThrottled({ retryAfterSeconds: Math.ceil(lockedMs / 1000) })
              return yield* new InvalidCredentials()
            }
            const organization = yield* findOrganization(sql, user.orgId)
            if (organization === undefined) return yield* new InvalidCredentials()
            if (device === undefined) yield* clearFailures(sql, membershipKeyOf(user.id))
            const trusted = device !== undefined && deviceToken !== undefined ? deviceToken : newDeviceToken()
            yield* trustDevice(sql, sha256Hex(trusted), user.id)
            const token = newSessionToken()
            yield* deleteExpiredSessionsOfUser(sql, user.id)
            yield* insertSession(sql, {
              id: newId("ses"),
              tokenDigest: sha256Hex(token),
              userId: user.id,
              orgId: user.orgId,
              expiresAt: new Date((yield* Clock.currentTimeMillis) + SESSION_LIFETIME_MS),
            })
            return { user, organization, token, deviceToken: trusted }
          }).pipe(Effect.withSpan("identity.login")),
        logout: (userId, token) => (token === undefined ? Effect.void : deleteSession(sql, sha256Hex(token), userId)),
        current: (orgId, userId) =>
          Effect.gen(function* () {
            const user = yield* findActiveUser(sql, orgId, userId)
            const organization = yield* findOrganization(sql, orgId)
            // The gateway vouched for a session whose user is gone since: no one is signed in.
            if (user === undefined || organization === undefined) return yield* new SessionRequired()
            return { user, organization }
          }),
        changePassword: (orgId, userId, change, token) =>
          Effect.gen(function* () {
            const user = yield* findActiveUser(sql, orgId, userId)
            const organization = yield* findOrganization(sql, orgId)
            if (user === undefined || organization === undefined) return yield* new SessionRequired()
            // A session is no licence to guess the password: wrong current passwords count against
            // the account exactly as failed logins do (the same counter, locks and 429).
            const accountKey = membershipKeyOf(user.id)
            const lockedMs = yield* reserveAttempt(sql, accountKey)
            if (lockedMs > 0) return yield* new LoginThrottled({ retryAfterSeconds: Math.ceil(lockedMs / 1000) })
            if (!(yield* passwords.verify(change.currentPassword, user.passwordHash))) {
              return yield* new WrongCurrentPassword()
            }
            yield* clearFailures(sql, accountKey)
            const passwordHash = yield* passwords.hashNew(change.newPassword, "newPassword", [
              user.email,
              organization.name,
            ])
            yield* updateUserPassword(sql, orgId, userId, passwordHash)
            yield* deleteOtherSessionsOfUser(sql, userId, token === undefined ? undefined : sha256Hex(token))
          }).pipe(Effect.withSpan("identity.changePassword")),
        lookupSession: (tokenDigest) =>
          findActiveSession(sql, tokenDigest).pipe(
            Effect.flatMap((s) => (s === undefined ? Effect.fail(new ResourceNotFound()) : Effect.succeed(s))),
          ),
      })
    }),
  )
}

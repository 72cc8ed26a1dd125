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
import { accountKeyOf, FreeFailures, newDeviceToken } from "./login-throttle.ts"
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
            // the first, in joining order, that this password opens. Not a member of `orgId` is answered
            // as an unknown email: a scrypt run at least, the same 401.
            const memberships = yield* findActiveUsersByEmail(sql, email, orgId)
            let device: TrustedDevice | undefined
            if (deviceToken !== undefined) {
              for (const membership of memberships) {
                device ??= yield* findTrustedDevice(sql, sha256Hex(deviceToken), membership.id)
              }
            }
            const accountKey = accountKeyOf(email)
            // A browser the account has not signed in from is counted (and may be refused) first.
            if (device === undefined) {
              const lockedMs = yield* reserveAttempt(sql, accountKey)
              if (lockedMs > 0) return yield* new LoginThrottled({ retryAfterSeconds: Math.ceil(lockedMs / 1000) })
            }
            // Unknown email and wrong password cost a scrypt run each and give the same error.
            let user: User | undefined
            for (const membership of memberships) {
              if (user === undefined && (yield* passwords.verify(password, membership.passwordHash))) user = membership
            }
            if (memberships.length === 0) yield* passwords.verify(password, undefined)
            if (user === undefined) {
              if (device !== undefined) yield* deviceFailed(sql, device.tokenDigest, FreeFailures)
              return yield* new InvalidCredentials()
            }
            const organization = yield* findOrganization(sql, user.orgId)
            if (organization === undefined) return yield* new InvalidCredentials()
            if (device === undefined) yield* clearFailures(sql, accountKey)
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
            const accountKey = accountKeyOf(user.email)
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

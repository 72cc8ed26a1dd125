/**
 * What can go wrong in identity that a caller can act on. Infrastructure failures are defects
 * (500 `Internal error`); everything here maps to docs/contract.md's `{ error, code }` in `toApiError`.
 */
import { Schema } from "effect"

/** Unknown email, removed user or wrong password: one error so the answer never tells them apart. */
export class InvalidCredentials extends Schema.TaggedError<InvalidCredentials>()("InvalidCredentials", {}) {}

/** Too many failed logins for this account from browsers it has not signed in from: wait. */
export class LoginThrottled extends Schema.TaggedError<LoginThrottled>()("LoginThrottled", {
  retryAfterSeconds: Schema.Number,
}) {}

/** A route that acts for a dashboard user was called with another kind of principal (an API key). */
export class SessionRequired extends Schema.TaggedError<SessionRequired>()("SessionRequired", {}) {}

/** The operator API is switched off (no PARLEY_OPERATOR_TOKEN): it answers as if it did not exist. */
export class OperatorApiDisabled extends Schema.TaggedError<OperatorApiDisabled>()("OperatorApiDisabled", {}) {}

export class InvalidOperatorToken extends Schema.TaggedError<InvalidOperatorToken>()("InvalidOperatorToken", {}) {}

export class PlanFeatureRequired extends Schema.TaggedError<PlanFeatureRequired>()("PlanFeatureRequired", {
  feature: Schema.Literal("api_access"),
}) {}

export class KeyLimitReached extends Schema.TaggedError<KeyLimitReached>()("KeyLimitReached", {}) {}

/** Missing, or belonging to another organization: the same answer, so existence does not leak. */
export class ResourceNotFound extends Schema.TaggedError<ResourceNotFound>()("ResourceNotFound", {}) {}

export class EmailTaken extends Schema.TaggedError<EmailTaken>()("EmailTaken", {}) {}

export class CannotRemoveSelf extends Schema.TaggedError<CannotRemoveSelf>()("CannotRemoveSelf", {}) {}

/** A new password an attacker would guess early (`passwords/password-strength.ts`); `path` names the field. */
export class WeakPassword extends Schema.TaggedError<WeakPassword>()("WeakPassword", { path: Schema.String }) {}

/** Changing one's password with a current password that is not it. */
export class WrongCurrentPassword extends Schema.TaggedError<WrongCurrentPassword>()("WrongCurrentPassword", {}) {}

export class LastAdministrator extends Schema.TaggedError<LastAdministrator>()("LastAdministrator", {}) {}

export type IdentityError =
  | InvalidCredentials
  | LoginThrottled
  | SessionRequired
  | OperatorApiDisabled
  | InvalidOperatorToken
  | PlanFeatureRequired
  | KeyLimitReached
  | ResourceNotFound
  | EmailTaken
  | CannotRemoveSelf
  | LastAdministrator
  | WeakPassword
  | WrongCurrentPassword

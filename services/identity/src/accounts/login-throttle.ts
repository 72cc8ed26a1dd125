/**
 * Slowing down password guessing against one account (OWASP Authentication Cheat Sheet, "Slow
 * down online guessing attacks with device cookies"), without letting an attacker lock its user out:
 *
 * - From a browser the account has not signed in from, the first `FreeFailures` - 1 consecutive
 *   failures cost nothing; from the `FreeFailures`th on, each attempt locks the account for such
 *   browsers for `lockFor(failures)`: 30 s, then 1, 2, 4, 8 minutes, then 15 minutes at most. An
 *   attempt during the lock is refused with 429 (and Retry-After) before the password is looked
 *   at. A success clears the count; 24 hours without a failure forget it. The attempt is counted
 *   before the password is checked, so concurrent guesses cannot slip past the count.
 * - A successful login leaves a `parley_device` cookie (a random token; its digest is stored) on
 *   that browser for 180 days. Attempts presenting it for its user ignore the account's lock, so a
 *   user keeps signing in from their own browsers while someone else hammers their account; such a
 *   browser loses its standing after `FreeFailures` failures of its own.
 * - Unknown emails are counted and locked alike, so the answers say nothing about who has an account.
 * - The count is per membership (`membershipKeyOf`): one email's memberships have their own
 *   passwords, and a success in one clears only its own count.
 */
import { sha256Hex } from "@parley/platform"
import { newSessionToken, tokenFromCookie } from "../sessions/session-token.ts"

export const FreeFailures = 5
export const MaxLockMs = 15 * 60 * 1000
export const FirstLockMs = 30 * 1000
/** A count of failures is forgotten after this long without one. */
export const FailureMemoryMs = 24 * 60 * 60 * 1000

/** How long the account is locked (for unknown browsers) after its `failures`th consecutive failure. */
export const lockFor = (failures: number): number =>
  failures < FreeFailures ? 0 : Math.min(MaxLockMs, FirstLockMs * 2 ** (failures - FreeFailures))

/** The count of an email that has no membership (unknown, or not of the organization asked for). */
export const accountKeyOf = (email: string): string => sha256Hex(email.trim().toLowerCase())

/**
 * The count of one membership: an email may belong to several organizations, each with its own
 * password, so each is guessed — and throttled — on its own. Keyed per email, a success in one
 * membership (whose password another organization's administrator may have chosen) cleared the
 * count of guesses against another: a black-box tester guessed without limit that way.
 */
export const membershipKeyOf = (userId: string): string => sha256Hex(`membership:${userId}`)

export const DEVICE_COOKIE = "parley_device"
export const DEVICE_LIFETIME_MS = 180 * 24 * 60 * 60 * 1000

/** 256 random bits, base64url: made like a session token. */
export const newDeviceToken = (): string => newSessionToken()

/** Sent only to the sign-in routes, never readable by scripts. */
export const deviceCookie = (token: string, secure: boolean): string =>
  `${DEVICE_COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/api/auth; Max-Age=${DEVICE_LIFETIME_MS / 1000}${secure ? "; Secure" : ""}`

export const deviceTokenFromCookie = (header: string | undefined): string | undefined =>
  tokenFromCookie(header, DEVICE_COOKIE)

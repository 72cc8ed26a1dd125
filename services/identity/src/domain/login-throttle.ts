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
 */
import { createHash, randomBytes } from "node:crypto"

export const FreeFailures = 5
export const MaxLockMs = 15 * 60 * 1000
export const FirstLockMs = 30 * 1000
/** A count of failures is forgotten after this long without one. */
export const FailureMemoryMs = 24 * 60 * 60 * 1000

/** How long the account is locked (for unknown browsers) after its `failures`th consecutive failure. */
export const lockFor = (failures: number): number =>
  failures < FreeFailures ? 0 : Math.min(MaxLockMs, FirstLockMs * 2 ** (failures - FreeFailures))

export const accountKeyOf = (email: string): string =>
  createHash("sha256").update(email.trim().toLowerCase()).digest("hex")

export const DEVICE_COOKIE = "parley_device"
export const DEVICE_LIFETIME_MS = 180 * 24 * 60 * 60 * 1000

export const newDeviceToken = (): string => randomBytes(32).toString("base64url")

/** Sent only to the sign-in routes, never readable by scripts. */
export const deviceCookie = (token: string, secure: boolean): string =>
  `${DEVICE_COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/api/auth; Max-Age=${DEVICE_LIFETIME_MS / 1000}${secure ? "; Secure" : ""}`

export const deviceTokenFromCookie = (header: string | undefined): string | undefined => {
  if (header === undefined) return undefined
  for (const part of header.split(";")) {
    const eq = part.indexOf("=")
    if (eq > 0 && part.slice(0, eq).trim() === DEVICE_COOKIE) {
      const value = part.slice(eq + 1).trim()
      return /^[A-Za-z0-9_-]{43}$/.test(value) ? value : undefined
    }
  }
  return undefined
}

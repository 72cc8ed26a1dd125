/**
 * Dashboard session tokens: 256 random bits, base64url in the cookie; only the SHA-256 hex digest is
 * stored, so a read of the table cannot be replayed as a login.
 *
 * Lifetime: 7 days, absolute (not sliding). A week keeps a dashboard user signed in across a working
 * week while bounding how long a stolen cookie stays useful; logout and member removal end sessions
 * at once, server-side.
 */
import { randomBytes } from "node:crypto"

export const SESSION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000
export const SESSION_COOKIE = "parley_session"

export const newSessionToken = (): string => randomBytes(32).toString("base64url")

/** The cookie value of a session, `Secure` when the public URL is https (docs/contract.md §2.4). */
export const sessionCookie = (token: string, secure: boolean): string =>
  `${SESSION_COOKIE}=${token}; HttpOnly; SameSite=Lax; Path=/; Max-Age=${SESSION_LIFETIME_MS / 1000}${secure ? "; Secure" : ""}`

/** The cookie that removes the session cookie from the browser. */
export const clearedSessionCookie = (secure: boolean): string =>
  `${SESSION_COOKIE}=; HttpOnly; SameSite=Lax; Path=/; Max-Age=0${secure ? "; Secure" : ""}`

/**
 * The token (43 base64url characters, as `newSessionToken` makes) in the first cookie named `name`
 * of a Cookie header, if any.
 */
export const tokenFromCookie = (header: string | undefined, name: string): string | undefined => {
  if (header === undefined) return undefined
  for (const part of header.split(";")) {
    const eq = part.indexOf("=")
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      const value = part.slice(eq + 1).trim()
      return /^[A-Za-z0-9_-]{43}$/.test(value) ? value : undefined
    }
  }
  return undefined
}

/** The session token from a Cookie header, if any. */
export const sessionTokenFromCookie = (header: string | undefined): string | undefined =>
  tokenFromCookie(header, SESSION_COOKIE)

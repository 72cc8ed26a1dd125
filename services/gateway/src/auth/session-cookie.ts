/** The dashboard's session cookie (docs/contract.md §2.4). */
import type { IncomingHttpHeaders } from "node:http"

export const SESSION_COOKIE = "parley_session"

/** The `parley_session` token in the `Cookie` header, if any. */
export const sessionToken = (headers: IncomingHttpHeaders): string | undefined => {
  const cookie = headers.cookie
  if (cookie === undefined) return undefined
  for (const part of cookie.split(";")) {
    const eq = part.indexOf("=")
    if (eq < 0) continue
    if (part.slice(0, eq).trim() !== SESSION_COOKIE) continue
    const value = part.slice(eq + 1).trim()
    return value === "" ? undefined : value
  }
  return undefined
}

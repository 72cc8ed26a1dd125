/**
 * Whether an error means a dependency (Postgres, Redis, another service) is unreachable, rather than
 * a bug: docs/contract.md §1 answers those 503 `unavailable` with Retry-After, never 500. Walks the
 * `cause` chain, since Effect and the clients wrap the socket error they saw.
 */
const UNREACHABLE_CODES = new Set([
  // Node sockets
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EPIPE",
  "EAI_AGAIN",
  // postgres.js
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
  // Postgres SQLSTATE: too many connections, shutting down, cannot connect now
  "53300",
  "57P01",
  "57P02",
  "57P03",
  // undici
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
])

const codeOf = (error: object): unknown => (error as { code?: unknown }).code

export const isDependencyUnavailable = (error: unknown): boolean => {
  const seen = new Set<unknown>()
  let current: unknown = error
  while (typeof current === "object" && current !== null && !seen.has(current)) {
    seen.add(current)
    const code = codeOf(current)
    // SQLSTATE class 08: connection exceptions.
    if (typeof code === "string" && (UNREACHABLE_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true
    if (current instanceof AggregateError && current.errors.some(isDependencyUnavailable)) return true
    current = (current as { cause?: unknown }).cause
  }
  return false
}

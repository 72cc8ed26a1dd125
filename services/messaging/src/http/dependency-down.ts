import { type ApiError, unavailable } from "@parley/platform"
import { Effect } from "effect"

/** postgres.js and Node's codes for "the database could not be reached or went away". */
const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "CONNECT_TIMEOUT",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "57P01", // admin_shutdown
  "57P03", // cannot_connect_now
  "53300", // too_many_connections
])

const isConnectionFailure = (defect: unknown): boolean =>
  typeof defect === "object" && defect !== null && CONNECTION_CODES.has(String((defect as { code?: unknown }).code))

/**
 * CONTRACT.md §1: a dependency that is down is a 503 with `Retry-After`, not a 500. Route logic
 * treats database failures as defects; this turns the unreachable-database ones back into the
 * contract's answer (the provider retries its webhook on it, and nothing was committed).
 */
export const databaseDownAs503 = <A, R>(effect: Effect.Effect<A, ApiError, R>): Effect.Effect<A, ApiError, R> =>
  Effect.catchDefect(effect, (defect) =>
    isConnectionFailure(defect) ? Effect.fail(unavailable(5)) : Effect.die(defect),
  )

/**
 * Deletes expired sessions every hour for as long as the Scope lives. Lookups ignore expired
 * sessions anyway, so this is only about table size; several instances running it at once is
 * harmless (the delete is idempotent). A failed run is logged and the next one tries again.
 */
import { Database } from "@parley/db"
import { Duration, Effect, Schedule, type Scope } from "effect"
import { deleteExpiredSessions } from "./session-repository.ts"

export const SESSION_CLEANUP_EVERY = Duration.hours(1)

export const cleanExpiredSessions: Effect.Effect<void, never, Database | Scope.Scope> = Effect.gen(function* () {
  const { sql } = yield* Database
  const once = deleteExpiredSessions(sql).pipe(
    Effect.tap((count) => (count > 0 ? Effect.logInfo("expired sessions deleted", { count }) : Effect.void)),
    Effect.catchCause((cause) => Effect.logWarning("session cleanup failed", cause)),
  )
  yield* Effect.forkScoped(once.pipe(Effect.repeat(Schedule.spaced(SESSION_CLEANUP_EVERY))))
})

import { Effect } from "effect"
import type postgres from "postgres"
import type { Sql } from "../postgres/sql.ts"
import { FailureMemoryMs, lockFor } from "./login-throttle.ts"

/**
 * Counts an attempt from an unknown browser against the account, unless the account is locked:
 * answers the milliseconds left of the lock, or 0 when the attempt may go on (and is now counted,
 * with the lock its failure would earn already set, so concurrent guesses find it locked).
 */
export const reserveAttempt = (sql: postgres.Sql, accountKey: string): Effect.Effect<number> =>
  Effect.promise(() =>
    sql.begin(async (tx) => {
      await tx`
        insert into identity.login_failures (account_key, failures, last_failure_at)
        values (${accountKey}, 0, now()) on conflict (account_key) do nothing`
      const [row] = await tx<Array<{ failures: number; forgotten: boolean; left_ms: number }>>`
        select failures, last_failure_at < now() - make_interval(secs => ${FailureMemoryMs / 1000}) as forgotten,
               greatest(0, extract(epoch from (locked_until - now())) * 1000)::float8 as left_ms
        from identity.login_failures where account_key = ${accountKey} for update`
      const leftMs = row?.forgotten ? 0 : (row?.left_ms ?? 0)
      if (leftMs > 0) return Math.ceil(leftMs)
      const failures = (row?.forgotten ? 0 : (row?.failures ?? 0)) + 1
      const lockMs = lockFor(failures)
      await tx`
        update identity.login_failures
        set failures = ${failures}, last_failure_at = now(),
            locked_until = ${lockMs > 0 ? tx`now() + make_interval(secs => ${lockMs / 1000})` : null}
        where account_key = ${accountKey}`
      return 0
    }),
  )

/** The right password: the account's count starts over. */
export const clearFailures = (sql: Sql, accountKey: string): Effect.Effect<void> =>
  Effect.promise(() => sql`delete from identity.login_failures where account_key = ${accountKey}`).pipe(Effect.asVoid)

export interface TrustedDevice {
  readonly tokenDigest: string
  readonly failures: number
}

export const findTrustedDevice = (
  sql: Sql,
  tokenDigest: string,
  userId: string,
): Effect.Effect<TrustedDevice | undefined> =>
  Effect.promise(
    () => sql<Array<{ token_digest: string; failures: number }>>`
      select token_digest, failures from identity.trusted_devices
      where token_digest = ${tokenDigest} and user_id = ${userId}`,
  ).pipe(
    Effect.map(([row]) => (row === undefined ? undefined : { tokenDigest: row.token_digest, failures: row.failures })),
  )

export const trustDevice = (sql: Sql, tokenDigest: string, userId: string): Effect.Effect<void> =>
  Effect.promise(
    () => sql`
      insert into identity.trusted_devices (token_digest, user_id) values (${tokenDigest}, ${userId})
      on conflict (token_digest) do update set failures = 0, last_used_at = now()`,
  ).pipe(Effect.asVoid)

/** A failure from a trusted browser: it loses its standing after `limit` of them. */
export const deviceFailed = (sql: Sql, tokenDigest: string, limit: number): Effect.Effect<void> =>
  Effect.promise(async () => {
    const [row] = await sql<Array<{ failures: number }>>`
      update identity.trusted_devices set failures = failures + 1 where token_digest = ${tokenDigest}
      returning failures`
    if (row !== undefined && row.failures >= limit) {
      await sql`delete from identity.trusted_devices where token_digest = ${tokenDigest}`
    }
  })

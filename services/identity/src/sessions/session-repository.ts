/** The `identity.sessions` table: digests of session tokens, never the tokens. */
import type { Role as MemberRole, OrgId, UserId } from "@parley/contracts"
import { Effect } from "effect"
import type { Sql } from "../postgres/sql.ts"

export interface ActiveSession {
  readonly sessionId: string
  readonly userId: UserId
  readonly orgId: OrgId
  readonly role: MemberRole
  readonly expiresAt: Date
  readonly orgName: string
  readonly email: string
}

export const insertSession = (
  sql: Sql,
  session: { id: string; tokenDigest: string; userId: string; orgId: OrgId; expiresAt: Date },
): Effect.Effect<void> =>
  Effect.promise(
    () => sql`
      insert into identity.sessions (id, token_digest, user_id, org_id, expires_at)
      values (${session.id}, ${session.tokenDigest}, ${session.userId}, ${session.orgId}, ${session.expiresAt})`,
  ).pipe(Effect.asVoid)

/** The unexpired session of an active user with that token digest; the role is the user's current one. */
export const findActiveSession = (sql: Sql, tokenDigest: string): Effect.Effect<ActiveSession | undefined> =>
  Effect.promise(
    () => sql<
      Array<{
        id: string
        user_id: UserId
        org_id: OrgId
        role: MemberRole
        expires_at: Date
        org_name: string
        email: string
      }>
    >`
      select s.id, s.user_id, s.org_id, u.role, u.email, s.expires_at, o.name as org_name
      from identity.sessions s
      join identity.users u on u.id = s.user_id and u.org_id = s.org_id and u.removed_at is null
      join identity.organizations o on o.id = s.org_id
      where s.token_digest = ${tokenDigest} and s.expires_at > now()`,
  ).pipe(
    Effect.map((rows) => {
      const row = rows[0]
      return row === undefined
        ? undefined
        : {
            sessionId: row.id,
            userId: row.user_id,
            orgId: row.org_id,
            role: row.role,
            expiresAt: row.expires_at,
            orgName: row.org_name,
            email: row.email,
          }
    }),
  )

/** Deletes one session, only when it is the caller's own (a cookie never ends someone else's). */
export const deleteSession = (sql: Sql, tokenDigest: string, userId: string): Effect.Effect<void> =>
  Effect.promise(
    () => sql`delete from identity.sessions where token_digest = ${tokenDigest} and user_id = ${userId}`,
  ).pipe(Effect.asVoid)

export const deleteSessionsOfUser = (sql: Sql, userId: string): Effect.Effect<void> =>
  Effect.promise(() => sql`delete from identity.sessions where user_id = ${userId}`).pipe(Effect.asVoid)

/** Ends every session of a user but the one whose token has `keepDigest` (none kept when undefined). */
export const deleteOtherSessionsOfUser = (
  sql: Sql,
  userId: string,
  keepDigest: string | undefined,
): Effect.Effect<void> =>
  Effect.promise(
    () => sql`
      delete from identity.sessions
      where user_id = ${userId} ${keepDigest === undefined ? sql`` : sql`and token_digest <> ${keepDigest}`}`,
  ).pipe(Effect.asVoid)

/** Housekeeping on login: a user's expired sessions are of no use to anyone. */
export const deleteExpiredSessionsOfUser = (sql: Sql, userId: string): Effect.Effect<void> =>
  Effect.promise(() => sql`delete from identity.sessions where user_id = ${userId} and expires_at <= now()`).pipe(
    Effect.asVoid,
  )

/** Housekeeping: expired sessions match no lookup; deleting them keeps the table to live sessions. */
export const deleteExpiredSessions = (sql: Sql): Effect.Effect<number> =>
  Effect.promise(() => sql`delete from identity.sessions where expires_at <= now()`).pipe(
    Effect.map((result) => result.count),
  )

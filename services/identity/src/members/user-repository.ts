/** The `identity.users` table. Removed users stay (ids may be referenced) but match no lookup. */
import type { Role as MemberRole, OrgId, UserId } from "@parley/contracts"
import { Effect } from "effect"
import { EmailTaken } from "../errors.ts"
import { isUniqueViolation, type Sql } from "../postgres/sql.ts"
import type { User } from "./member.ts"

interface UserRow {
  id: UserId
  org_id: OrgId
  email: string
  password_hash: string
  role: MemberRole
  created_at: Date
}

const toUser = (row: UserRow): User => ({
  id: row.id,
  orgId: row.org_id,
  email: row.email,
  passwordHash: row.password_hash,
  role: row.role,
  createdAt: row.created_at,
})

/**
 * Adds a membership of `orgId` for that email (docs/contract.md §2.4): an email may belong to several
 * organizations, and each membership signs in with the password its own organization set (or the
 * person changed it to) — never one another organization chose, so an administrator who adds an
 * address first cannot hold the key to the memberships others add later. The insert is the same
 * whether or not the email has an account elsewhere, so the adding organization learns nothing about
 * other organizations' members. An email already active in this organization is `EmailTaken`.
 */
export const insertMembership = (
  tx: Sql,
  user: { id: UserId; orgId: OrgId; email: string; newPasswordHash: string; role: MemberRole },
): Effect.Effect<User, EmailTaken> =>
  Effect.tryPromise({
    try: () => tx<Array<UserRow>>`
      insert into identity.users (id, org_id, email, password_hash, role)
      values (${user.id}, ${user.orgId}, ${user.email}, ${user.newPasswordHash}, ${user.role})
      returning *`,
    catch: (error) => error,
  }).pipe(
    Effect.map((rows) => toUser(rows[0] as UserRow)),
    Effect.catch((error) =>
      isUniqueViolation(error, "users_org_email_active") ? Effect.fail(new EmailTaken()) : Effect.die(error),
    ),
  )

/**
 * The active memberships of that email a login may sign in to — of `orgId` when given — the one
 * joined first first, so a password that opens two of them lands in the same one every time.
 */
export const findActiveUsersByEmail = (
  sql: Sql,
  email: string,
  orgId?: string | undefined,
): Effect.Effect<ReadonlyArray<User>> =>
  Effect.promise(
    () => sql<Array<UserRow>>`
      select * from identity.users
      where lower(email) = lower(${email}) and removed_at is null
        ${orgId === undefined ? sql`` : sql`and org_id = ${orgId}`}
      order by created_at, id`,
  ).pipe(Effect.map((rows) => rows.map(toUser)))

export const findActiveUser = (sql: Sql, orgId: OrgId, userId: string): Effect.Effect<User | undefined> =>
  Effect.promise(
    () => sql<Array<UserRow>>`
      select * from identity.users where id = ${userId} and org_id = ${orgId} and removed_at is null`,
  ).pipe(Effect.map((rows) => (rows[0] === undefined ? undefined : toUser(rows[0]))))

export const listActiveUsers = (sql: Sql, orgId: OrgId): Effect.Effect<ReadonlyArray<User>> =>
  Effect.promise(
    () => sql<Array<UserRow>>`
      select * from identity.users where org_id = ${orgId} and removed_at is null
      order by created_at desc, id desc`,
  ).pipe(Effect.map((rows) => rows.map(toUser)))

export const countActiveAdmins = (sql: Sql, orgId: OrgId): Effect.Effect<number> =>
  Effect.promise(
    () => sql<Array<{ n: number }>>`
      select count(*)::int as n from identity.users
      where org_id = ${orgId} and role = 'admin' and removed_at is null`,
  ).pipe(Effect.map((rows) => rows[0]?.n ?? 0))

export const markUserRemoved = (sql: Sql, orgId: OrgId, userId: string): Effect.Effect<void> =>
  Effect.promise(
    () => sql`
      update identity.users set removed_at = now()
      where id = ${userId} and org_id = ${orgId} and removed_at is null`,
  ).pipe(Effect.asVoid)

/** Sets an active user's role; the user as it now is, or undefined when there is no such active user. */
export const updateUserRole = (
  sql: Sql,
  orgId: OrgId,
  userId: string,
  role: MemberRole,
): Effect.Effect<User | undefined> =>
  Effect.promise(
    () => sql<Array<UserRow>>`
      update identity.users set role = ${role}
      where id = ${userId} and org_id = ${orgId} and removed_at is null
      returning *`,
  ).pipe(Effect.map((rows) => (rows[0] === undefined ? undefined : toUser(rows[0]))))

export const updateUserPassword = (sql: Sql, orgId: OrgId, userId: string, passwordHash: string): Effect.Effect<void> =>
  Effect.promise(
    () => sql`
      update identity.users set password_hash = ${passwordHash}
      where id = ${userId} and org_id = ${orgId} and removed_at is null`,
  ).pipe(Effect.asVoid)

/** The `identity.users` table. Removed users stay (ids may be referenced) but match no lookup. */
import type { Role as MemberRole } from "@parley/contracts"
import { Effect } from "effect"
import type { User } from "../domain/model.ts"
import { EmailTaken } from "../errors.ts"
import { isUniqueViolation, type Sql } from "./sql.ts"

interface UserRow {
  id: string
  org_id: string
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

/** Inserts a user; an email already held by an active user anywhere on the platform is `EmailTaken`. */
export const insertUser = (
  sql: Sql,
  user: { id: string; orgId: string; email: string; passwordHash: string; role: MemberRole },
): Effect.Effect<User, EmailTaken> =>
  Effect.tryPromise({
    try: () => sql<Array<UserRow>>`
      insert into identity.users (id, org_id, email, password_hash, role)
      values (${user.id}, ${user.orgId}, ${user.email}, ${user.passwordHash}, ${user.role})
      returning *`,
    catch: (error) => error,
  }).pipe(
    Effect.map((rows) => toUser(rows[0] as UserRow)),
    Effect.catch((error) =>
      isUniqueViolation(error, "users_email_active") ? Effect.fail(new EmailTaken()) : Effect.die(error),
    ),
  )

export const findActiveUserByEmail = (sql: Sql, email: string): Effect.Effect<User | undefined> =>
  Effect.promise(
    () => sql<Array<UserRow>>`
      select * from identity.users where lower(email) = lower(${email}) and removed_at is null`,
  ).pipe(Effect.map((rows) => (rows[0] === undefined ? undefined : toUser(rows[0]))))

export const findActiveUser = (sql: Sql, orgId: string, userId: string): Effect.Effect<User | undefined> =>
  Effect.promise(
    () => sql<Array<UserRow>>`
      select * from identity.users where id = ${userId} and org_id = ${orgId} and removed_at is null`,
  ).pipe(Effect.map((rows) => (rows[0] === undefined ? undefined : toUser(rows[0]))))

export const listActiveUsers = (sql: Sql, orgId: string): Effect.Effect<ReadonlyArray<User>> =>
  Effect.promise(
    () => sql<Array<UserRow>>`
      select * from identity.users where org_id = ${orgId} and removed_at is null
      order by created_at desc, id desc`,
  ).pipe(Effect.map((rows) => rows.map(toUser)))

export const countActiveAdmins = (sql: Sql, orgId: string): Effect.Effect<number> =>
  Effect.promise(
    () => sql<Array<{ n: number }>>`
      select count(*)::int as n from identity.users
      where org_id = ${orgId} and role = 'admin' and removed_at is null`,
  ).pipe(Effect.map((rows) => rows[0]?.n ?? 0))

export const markUserRemoved = (sql: Sql, orgId: string, userId: string): Effect.Effect<void> =>
  Effect.promise(
    () => sql`
      update identity.users set removed_at = now()
      where id = ${userId} and org_id = ${orgId} and removed_at is null`,
  ).pipe(Effect.asVoid)

/** Sets an active user's role; the user as it now is, or undefined when there is no such active user. */
export const updateUserRole = (
  sql: Sql,
  orgId: string,
  userId: string,
  role: MemberRole,
): Effect.Effect<User | undefined> =>
  Effect.promise(
    () => sql<Array<UserRow>>`
      update identity.users set role = ${role}
      where id = ${userId} and org_id = ${orgId} and removed_at is null
      returning *`,
  ).pipe(Effect.map((rows) => (rows[0] === undefined ? undefined : toUser(rows[0]))))

export const updateUserPassword = (
  sql: Sql,
  orgId: string,
  userId: string,
  passwordHash: string,
): Effect.Effect<void> =>
  Effect.promise(
    () => sql`
      update identity.users set password_hash = ${passwordHash}
      where id = ${userId} and org_id = ${orgId} and removed_at is null`,
  ).pipe(Effect.asVoid)

/** The `identity.organizations` table. */
import type { OrgId } from "@parley/contracts"
import { Effect } from "effect"
import type { Sql } from "../postgres/sql.ts"
import type { Organization } from "./organization.ts"

interface OrganizationRow {
  id: OrgId
  name: string
  features: Array<string>
  created_at: Date
}

const toOrganization = (row: OrganizationRow): Organization => ({
  id: row.id,
  name: row.name,
  features: row.features,
  createdAt: row.created_at,
})

const first = (rows: Array<OrganizationRow>): Organization | undefined =>
  rows[0] === undefined ? undefined : toOrganization(rows[0])

export const insertOrganization = (
  sql: Sql,
  org: { id: OrgId; name: string; features: ReadonlyArray<string> },
): Effect.Effect<Organization> =>
  Effect.promise(
    () => sql<Array<OrganizationRow>>`
      insert into identity.organizations (id, name, features)
      values (${org.id}, ${org.name}, ${sql.array([...org.features])})
      returning *`,
  ).pipe(Effect.map((rows) => toOrganization(rows[0] as OrganizationRow)))

export const findOrganization = (sql: Sql, id: string): Effect.Effect<Organization | undefined> =>
  Effect.promise(() => sql<Array<OrganizationRow>>`select * from identity.organizations where id = ${id}`).pipe(
    Effect.map(first),
  )

/**
 * Locks the organization's row until the transaction ends. Every change that must respect a
 * per-organization invariant (at most 10 active keys, at least one administrator) takes this lock
 * first, so concurrent changes within one organization run one after the other.
 */
export const lockOrganization = (sql: Sql, id: string): Effect.Effect<Organization | undefined> =>
  Effect.promise(
    () => sql<Array<OrganizationRow>>`select * from identity.organizations where id = ${id} for update`,
  ).pipe(Effect.map(first))

export const updateOrganization = (
  sql: Sql,
  id: string,
  change: { readonly name?: string | undefined; readonly features?: ReadonlyArray<string> | undefined },
): Effect.Effect<Organization | undefined> =>
  Effect.promise(
    () => sql<Array<OrganizationRow>>`
      update identity.organizations
      set name = coalesce(${change.name ?? null}::text, name),
          features = coalesce(${change.features === undefined ? null : sql.array([...change.features])}::text[], features)
      where id = ${id}
      returning *`,
  ).pipe(Effect.map(first))

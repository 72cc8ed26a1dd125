import { Bus, decodeOrSkip } from "@parley/bus"
import { OrganizationSettingsChanged, type OrgId, Topics } from "@parley/contracts"
import { Database } from "@parley/db"
import { Effect } from "effect"
import type postgres from "postgres"

export const ORG_SETTINGS_GROUP = "messaging.assistant-settings"

/** The country of an organization that never saved its booking settings (docs/contract.md §8). */
export const DEFAULT_COUNTRY = "US"

/**
 * The country an organization's numbers are read with. The booking settings are the assistant's
 * (docs/design.md §2: no service reads another's schema), so messaging keeps a projection of them from
 * `parley.assistant.settings.v1` rather than calling the assistant on every send: a campaign or a
 * message never waits for, or fails with, another service. A save reaches it within the bus's
 * latency (milliseconds on one machine).
 */
export const countryOf = (sql: postgres.Sql | postgres.TransactionSql, orgId: OrgId) =>
  Effect.promise(
    () => sql<Array<{ country: string }>>`select country from messaging.org_settings where org_id = ${orgId}`,
  ).pipe(Effect.map(([row]) => row?.country ?? DEFAULT_COUNTRY))

/** Keeps `messaging.org_settings` current; an older record (redelivered, reordered) changes nothing. */
export const consumeOrganizationSettings = Effect.gen(function* () {
  const bus = yield* Bus
  const { sql } = yield* Database
  return yield* bus.subscribe(
    { groupId: ORG_SETTINGS_GROUP, topics: [Topics.assistantSettings] },
    decodeOrSkip(OrganizationSettingsChanged, (changed) =>
      Effect.promise(
        () => sql`
          insert into messaging.org_settings (org_id, country, changed_at)
          values (${changed.orgId}, ${changed.country}, ${changed.changedAt})
          on conflict (org_id) do update set country = excluded.country, changed_at = excluded.changed_at
            where org_settings.changed_at <= excluded.changed_at`,
      ).pipe(Effect.asVoid),
    ),
  )
})

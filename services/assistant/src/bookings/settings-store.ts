import { OutboxWriter } from "@parley/bus"
import {
  encodeBusValue,
  OrganizationSettingsChanged,
  type OrgId,
  type PutBookingSettingsRequest,
  Topics,
} from "@parley/contracts"
import { type Database, jsonb, withTransaction } from "@parley/db"
import { Clock, Effect } from "effect"
import type postgres from "postgres"
import { type BookingSettings, DEFAULT_BOOKING_SETTINGS, withAllDays } from "./settings.ts"

export interface SettingsRow {
  timezone: string
  country: string
  services: ReadonlyArray<string>
  slot_minutes: number
  capacity: number
  hours: BookingSettings["hours"]
}

/** The organization's booking settings; the defaults until it saves its own. */
export const loadBookingSettings = (
  sql: postgres.Sql | postgres.TransactionSql,
  orgId: OrgId,
): Effect.Effect<BookingSettings> =>
  Effect.promise(
    () => sql<Array<SettingsRow>>`
      select timezone, country, services, slot_minutes, capacity, hours
      from assistant.booking_settings where org_id = ${orgId}`,
  ).pipe(Effect.map(([row]) => settingsOf(row)))

/** The settings a row holds; the defaults for no row. */
export const settingsOf = (row: SettingsRow | undefined): BookingSettings =>
  row === undefined
    ? DEFAULT_BOOKING_SETTINGS
    : {
        timezone: row.timezone,
        country: row.country,
        services: row.services,
        slotMinutes: row.slot_minutes,
        capacity: row.capacity,
        hours: row.hours,
      }

/**
 * Replaces the organization's settings; existing bookings stay as they are. What other services
 * need of them (the country numbers are read with) goes out on `parley.assistant.settings.v1` in
 * the same transaction, so messaging's projection never misses a save.
 */
export const saveBookingSettings = (
  orgId: OrgId,
  request: PutBookingSettingsRequest,
): Effect.Effect<BookingSettings, never, Database | OutboxWriter> =>
  Effect.gen(function* () {
    const outbox = yield* OutboxWriter
    const changedAt = new Date(yield* Clock.currentTimeMillis).toISOString()
    const settings = withAllDays({
      timezone: request.timezone,
      country: request.country ?? "US",
      services: [...new Set(request.services.map((s) => s.trim()).filter((s) => s !== ""))],
      slotMinutes: request.slotMinutes,
      capacity: request.capacity,
      hours: request.hours,
    })
    yield* withTransaction((sql) =>
      Effect.gen(function* () {
        yield* Effect.promise(
          () => sql`
        insert into assistant.booking_settings
          (org_id, timezone, country, services, slot_minutes, capacity, hours, updated_at)
        values (${orgId}, ${settings.timezone}, ${settings.country}, ${jsonb(sql, settings.services)},
                ${settings.slotMinutes}, ${settings.capacity}, ${jsonb(sql, settings.hours)}, now())
        on conflict (org_id) do update set
          timezone = excluded.timezone, country = excluded.country, services = excluded.services, slot_minutes = excluded.slot_minutes,
          capacity = excluded.capacity, hours = excluded.hours, updated_at = now()`,
        )
        yield* outbox.append(sql, [
          {
            topic: Topics.assistantSettings,
            key: orgId,
            value: encodeBusValue(OrganizationSettingsChanged, {
              orgId,
              country: settings.country,
              changedAt,
            }),
          },
        ])
      }),
    )
    return settings
  })

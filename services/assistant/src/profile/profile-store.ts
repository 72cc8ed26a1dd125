import type { AssistantProfileRecord, OrgId, PutAssistantProfileRequest } from "@parley/contracts"
import { Database, jsonb } from "@parley/db"
import { Effect } from "effect"
import type postgres from "postgres"
import type { BookingSettings } from "../bookings/settings.ts"
import { type SettingsRow, settingsOf } from "../bookings/settings-store.ts"
import type { AssistantProfile } from "../engine/profile.ts"
import { isLanguage, type Language } from "../engine/text.ts"

/**
 * The assistant's profile (docs/contract.md §8): the business's name, the languages it answers in (the
 * first the default), its greeting, description, FAQ and hand-off message. Until an administrator
 * saves one, an organization has `{ businessName: <organization name>, languages: ["en"], faqs: [] }`.
 */

export interface ProfileRow {
  business_name: string
  languages: ReadonlyArray<string>
  greeting: string | null
  about: string | null
  faqs: ReadonlyArray<{ question: string; answer: string }>
  handoff_message: string | null
}

export const defaultProfile = (organizationName: string): AssistantProfileRecord => ({
  businessName: organizationName,
  languages: ["en"],
  faqs: [],
})

export const toRecord = (row: ProfileRow): AssistantProfileRecord => ({
  businessName: row.business_name,
  languages: row.languages.filter(isLanguage),
  ...(row.greeting === null ? {} : { greeting: row.greeting }),
  ...(row.about === null ? {} : { about: row.about }),
  faqs: row.faqs,
  ...(row.handoff_message === null ? {} : { handoffMessage: row.handoff_message }),
})

type Queries = postgres.Sql | postgres.TransactionSql

/** The saved profile, or the default one named `organizationName`. */
export const loadProfile = (
  sql: Queries,
  orgId: OrgId,
  organizationName: string,
): Effect.Effect<AssistantProfileRecord> =>
  Effect.promise(
    () => sql<Array<ProfileRow>>`
      select business_name, languages, greeting, about, faqs, handoff_message
      from assistant.profiles where org_id = ${orgId}`,
  ).pipe(Effect.map(([row]) => (row === undefined ? defaultProfile(organizationName) : toRecord(row))))

const blankToNull = (text: string | undefined): string | null =>
  text === undefined || text.trim() === "" ? null : text

export const saveProfile = (
  orgId: OrgId,
  request: PutAssistantProfileRequest,
): Effect.Effect<AssistantProfileRecord, never, Database> =>
  Effect.gen(function* () {
    const { sql } = yield* Database
    const languages = [...new Set(request.languages)]
    const faqs = request.faqs.map((faq) => ({ question: faq.question.trim(), answer: faq.answer.trim() }))
    const [row] = yield* Effect.promise(
      () => sql<Array<ProfileRow>>`
        insert into assistant.profiles (org_id, business_name, languages, greeting, about, faqs, handoff_message, updated_at)
        values (${orgId}, ${request.businessName.trim()}, ${jsonb(sql, languages)}, ${blankToNull(request.greeting)},
                ${blankToNull(request.about)}, ${jsonb(sql, faqs)}, ${blankToNull(request.handoffMessage)}, now())
        on conflict (org_id) do update set
          business_name = excluded.business_name, languages = excluded.languages, greeting = excluded.greeting,
          about = excluded.about, faqs = excluded.faqs, handoff_message = excluded.handoff_message, updated_at = now()
        returning business_name, languages, greeting, about, faqs, handoff_message`,
    )
    return toRecord(row as ProfileRow)
  })

/** The profile as the engine reads it. */
export const engineProfile = (record: AssistantProfileRecord): AssistantProfile => {
  const languages = record.languages.filter(isLanguage) as ReadonlyArray<Language>
  return {
    businessName: record.businessName,
    languages: languages.length === 0 ? ["en"] : languages,
    greeting: record.greeting,
    about: record.about,
    faqs: record.faqs,
    handoffMessage: record.handoffMessage,
  }
}

/** What a turn runs with besides the conversation: the booking settings and the profile. */
export interface TurnSetup {
  readonly settings: BookingSettings
  readonly profile: AssistantProfileRecord
}

/** A row of `turnSetupColumns`: each table's columns, null when the organization saved none. */
export type TurnSetupRow = Partial<SettingsRow> & Partial<ProfileRow> & { has_settings: boolean; has_profile: boolean }

/** The columns of a `TurnSetupRow`, read from `turnSetupSource`. */
export const turnSetupColumns = (sql: Queries) => sql`
  s.org_id is not null as has_settings, s.timezone, s.country, s.services, s.slot_minutes, s.capacity, s.hours,
  p.org_id is not null as has_profile, p.business_name, p.languages, p.greeting, p.about, p.faqs, p.handoff_message`

/** One row `o` for the organization, with its settings `s` and profile `p` when saved; more can be joined on `o.org_id`. */
export const turnSetupSource = (sql: Queries, orgId: OrgId) => sql`
  (select ${orgId}::text as org_id) o ${turnSetupJoins(sql)}`

/** Joins the settings `s` and the profile `p` of each row of a source `o` that has an `org_id`. */
export const turnSetupJoins = (sql: Queries) => sql`
  left join assistant.booking_settings s on s.org_id = o.org_id
  left join assistant.profiles p on p.org_id = o.org_id`

/** The settings and the profile of a `TurnSetupRow`, each the default when the organization saved none. */
export const turnSetupOf = (row: TurnSetupRow | undefined, organizationName: string): TurnSetup => ({
  settings: settingsOf(row?.has_settings === true ? (row as SettingsRow) : undefined),
  profile: row?.has_profile === true ? toRecord(row as ProfileRow) : defaultProfile(organizationName),
})

/** What a turn runs with, in one round trip (a turn that reads its conversation reads it with it). */
export const loadTurnSetup = (sql: postgres.Sql, orgId: OrgId, organizationName: string): Effect.Effect<TurnSetup> =>
  Effect.promise(
    () => sql<Array<TurnSetupRow>>`select ${turnSetupColumns(sql)} from ${turnSetupSource(sql, orgId)}`,
  ).pipe(Effect.map(([row]) => turnSetupOf(row, organizationName)))

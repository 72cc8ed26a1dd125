import { eventRecord, OutboxWriter } from "@parley/bus"
import type { Booking, OrgId } from "@parley/contracts"
import { jsonb } from "@parley/db"
import { newId } from "@parley/platform"
import { Clock, Effect } from "effect"
import type postgres from "postgres"
import type { LeadInput } from "../engine/lead-capture.ts"
import { LEAD_TYPE_PRECEDENCE } from "../engine/lead-type.ts"
import { countLead } from "../metrics.ts"

export type { LeadInput, LeadSource } from "../engine/lead-capture.ts"

export interface RecordedLead {
  readonly id: string
  readonly type: string
  readonly outcome: "created" | "updated" | "unchanged"
  /** What an existing lead said before this call changed it (absent when it was created). */
  readonly before?: LeadBefore
}

/** A lead's name and types, as they were before a conversation changed them. */
export interface LeadBefore {
  readonly name: string
  readonly type: string
  readonly lastType: string
}

/** Whether two bookings are the same slot and service (or both none). */
export const sameBooking = (a: Booking | null, b: Booking | null): boolean =>
  a === b || (a !== null && b !== null && a.date === b.date && a.time === b.time && a.service === b.service)

interface UpsertedLead {
  /** Set when this statement created the lead. */
  created_id: string | null
  /** The rest is the existing lead's (all null when it was created, or when another transaction's insert won). */
  id: string | null
  name_before: string
  type_before: string
  last_type_before: string
  name: string
  type: string
  booking: Booking | null
  updated: boolean
}

/**
 * `recordLead`'s writes in one statement: the lead of (organization, phone) is locked and merged with
 * `input` (an update only when something changed), or inserted when there is none yet. A lead another
 * transaction inserted after this statement's snapshot is neither seen nor overwritten (the insert
 * does nothing): the row says neither, and the statement is run again, which sees it. The merge is
 * the rules of `recordLead` in SQL: `strongerLeadType` by the rank in `LEAD_TYPE_PRECEDENCE` (unknown
 * types last), `sameBooking` on the date, time and service. One text for every input (the input is
 * parameters of its first CTE), so it is prepared once.
 */
const upsertLead = (tx: postgres.TransactionSql, orgId: OrgId, input: LeadInput, id: string, at: Date) =>
  Effect.promise(
    () => tx<Array<UpsertedLead>>`
      with input as (
        select ${input.name}::text as name, ${input.type}::text as type,
               ${input.booking === null ? null : jsonb(tx, input.booking)}::jsonb as booking,
               ${input.withdrawn === true}::boolean as withdrawn, ${[...LEAD_TYPE_PRECEDENCE]}::text[] as precedence
      ),
      existing as (
        select id, name, type, last_type, booking from assistant.leads
        where org_id = ${orgId} and phone = ${input.phone}
        for update
      ),
      merged as (
        select e.id, e.name as name_before, e.type as type_before, e.last_type as last_type_before,
               e.booking as booking_before,
               (case when i.name = '' then e.name else i.name end) as name,
               (case when coalesce(array_position(i.precedence, t.b), cardinality(i.precedence) + 1)
                          < coalesce(array_position(i.precedence, t.a), cardinality(i.precedence) + 1)
                     then t.b else t.a end) as type,
               coalesce(i.booking, e.booking) as booking
        from existing e cross join input i
        -- The two types compared: a withdrawn request lowers the listed type to this turn's, a booking held still wins.
        cross join lateral (
          select (case when i.withdrawn then i.type else e.type end) as a,
                 (case when not i.withdrawn then i.type when e.booking is null then i.type else 'BOOKING' end) as b
        ) t
      ),
      inserted as (
        insert into assistant.leads (id, org_id, phone, name, type, last_type, booking, source, created_at, updated_at)
        select ${id}, ${orgId}, ${input.phone}, i.name, i.type, i.type, i.booking, ${input.source}, ${at}, ${at}
        from input i
        where not exists (select from existing)
        on conflict (org_id, phone) do nothing
        returning id
      ),
      updated as (
        update assistant.leads l
        set name = m.name, type = m.type, last_type = i.type, booking = m.booking, updated_at = ${at}
        from merged m cross join input i
        where l.id = m.id and not (
          m.name = m.name_before and i.type = m.last_type_before and m.type = m.type_before
          and ((m.booking is null and m.booking_before is null) or (
            m.booking->'date' is not distinct from m.booking_before->'date'
            and m.booking->'time' is not distinct from m.booking_before->'time'
            and m.booking->'service' is not distinct from m.booking_before->'service')))
        returning l.id
      )
      select (select id from inserted) as created_id, m.id, m.name_before, m.type_before, m.last_type_before,
             m.name, m.type, m.booking, exists (select from updated) as updated
      from (select) one left join merged m on true`,
  ).pipe(Effect.map(([row]) => row as UpsertedLead))

/**
 * Records what the assistant learnt about a phone number, inside the caller's transaction, with its
 * event in the same transaction: `lead.created` the first time the number is seen in the
 * organization, `lead.updated` only when the name, the type this turn resolved to, or the booking
 * changed.
 *
 * Merge rules: a new non-empty name replaces the old one (an empty one keeps it); a new booking
 * replaces the old one, none keeps it. Two types are kept: the lead's listed `type`, the stronger of
 * the stored and the new (see `strongerLeadType`: a visitor who booked stays a BOOKING lead), and
 * `last_type`, what the latest turn resolved to. `lead.updated` carries the latter, "the lead type as
 * re-resolved on this turn" as the seed defines it, so a booked customer who comes back asking for a
 * callback is announced as CALLBACK_REQUESTED; and it fires when that differs from the last turn's,
 * so repeating the same request fires nothing. One statement (`upsertLead`, one round trip) in all but
 * a race: concurrent turns for one number are safe, the lead is locked before it is compared, and the
 * loser of a race to insert it runs the statement again, which then finds the winner's row.
 */
export const recordLead = (
  tx: postgres.TransactionSql,
  orgId: OrgId,
  input: LeadInput,
): Effect.Effect<RecordedLead, never, OutboxWriter> =>
  Effect.gen(function* () {
    const outbox = yield* OutboxWriter
    const at = new Date(yield* Clock.currentTimeMillis)
    const id = newId("lead")
    const first = yield* upsertLead(tx, orgId, input, id, at)
    const row = first.created_id === null && first.id === null ? yield* upsertLead(tx, orgId, input, id, at) : first
    if (row.created_id !== null) {
      const data = { phone: input.phone, name: input.name, type: input.type, booking: input.booking }
      yield* outbox.append(tx, [eventRecord("lead.created", orgId, data, at)])
      yield* countLead("created")
      return { id, type: input.type, outcome: "created" as const }
    }
    if (row.id === null) return yield* Effect.die(new Error("lead vanished between insert and select"))
    const before = { name: row.name_before, type: row.type_before, lastType: row.last_type_before }
    if (!row.updated) {
      yield* countLead("unchanged")
      return { id: row.id, type: row.type_before, outcome: "unchanged" as const, before }
    }
    const data = { phone: input.phone, name: row.name, type: input.type, booking: row.booking }
    yield* outbox.append(tx, [eventRecord("lead.updated", orgId, data, at)])
    yield* countLead("updated")
    return { id: row.id, type: row.type, outcome: "updated" as const, before }
  }).pipe(Effect.withSpan("assistant.recordLead"))

/**
 * The visitor corrected their number ("sorry, wrong number, it's …"): only what this conversation
 * did to the mistaken number's lead is undone (docs/contract.md §8), never another visitor's lead.
 * - This conversation created it and it holds no booking: it goes — a stranger's number must not
 *   stay on the call list. No event announces that (the catalogue has none for a lead withdrawn).
 * - It was someone's lead before: its name and types go back to what they were before this
 *   conversation changed them (`lead.updated` says so when anything changed); its booking is left,
 *   unless it is the booking this conversation made and moved to the corrected number (`moved`).
 * - This conversation created it and its booking is the one moved to the corrected number: it goes.
 * - This conversation never recorded it (`made` absent): nothing is touched.
 */
export const releaseMistakenLead = (
  tx: postgres.TransactionSql,
  orgId: OrgId,
  phone: string,
  made: { readonly created: boolean; readonly before?: LeadBefore | undefined } | undefined,
  moved: Booking | null = null,
): Effect.Effect<void, never, OutboxWriter> =>
  Effect.gen(function* () {
    if (made === undefined) return
    // The booking this conversation made, now under the corrected number, leaves the mistaken one's lead.
    const movedHere = (booking: Booking | null) => moved !== null && sameBooking(booking, moved)
    if (made.created) {
      const [lead] = yield* Effect.promise(
        () => tx<Array<{ booking: Booking | null }>>`
          select booking from assistant.leads where org_id = ${orgId} and phone = ${phone} and source = 'chat'`,
      )
      if (lead === undefined || (lead.booking !== null && !movedHere(lead.booking))) return
      yield* Effect.promise(() => tx`delete from assistant.leads where org_id = ${orgId} and phone = ${phone}`)
      return
    }
    const before = made.before
    if (before === undefined) return
    const [current] = yield* Effect.promise(
      () => tx<Array<{ booking: Booking | null }>>`
        select booking from assistant.leads where org_id = ${orgId} and phone = ${phone} for update`,
    )
    const booking = current !== undefined && movedHere(current.booking) ? null : (current?.booking ?? null)
    const [restored] = yield* Effect.promise(
      () => tx<Array<{ booking: Booking | null }>>`
        update assistant.leads set name = ${before.name}, type = ${before.type}, last_type = ${before.lastType},
               booking = ${booking === null ? null : jsonb(tx, booking)}, updated_at = now()
        where org_id = ${orgId} and phone = ${phone}
          and ((name, type, last_type) is distinct from (${before.name}, ${before.type}, ${before.lastType})
               or ${booking === null && current?.booking != null})
        returning booking`,
    )
    if (restored === undefined) return
    const at = new Date(yield* Clock.currentTimeMillis)
    const outbox = yield* OutboxWriter
    const data = { phone, name: before.name, type: before.lastType, booking: restored.booking }
    yield* outbox.append(tx, [eventRecord("lead.updated", orgId, data, at)])
  }).pipe(Effect.withSpan("assistant.releaseMistakenLead"))

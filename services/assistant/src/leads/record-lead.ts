import { eventRecord, OutboxWriter } from "@parley/bus"
import type { Booking, OrgId } from "@parley/contracts"
import { jsonb } from "@parley/db"
import { newId, withHotSpan } from "@parley/platform"
import { Clock, Effect } from "effect"
import type postgres from "postgres"
import type { LeadInput } from "../engine/lead-capture.ts"
import { strongerLeadType } from "../engine/lead-type.ts"
import { countLead } from "../metrics.ts"

export type { LeadInput, LeadSource } from "../engine/lead-capture.ts"

export interface RecordedLead {
  readonly id: string
  readonly type: string
  /**
   * `notOwn`: the number's lead was made by another conversation (or the booking form) and this input
   * is not the conversation's own, so it was left exactly as it was — no name, type or booking
   * changed, no event (docs/contract.md §8, "never another visitor's"). Its id is for the caller's
   * bookkeeping only: a widget conversation must not be told it.
   */
  readonly outcome: "created" | "updated" | "unchanged" | "notOwn"
  /** What an existing lead said before this call changed it (absent when it was created). */
  readonly before?: LeadBefore
}

/** A lead's name and types, as they were before a conversation changed them. */
export interface LeadBefore {
  readonly name: string
  readonly type: string
  readonly lastType: string
}

interface LeadRow {
  id: string
  name: string
  type: string
  last_type: string
  booking: Booking | null
}

/** Whether two bookings are the same slot and service (or both none). */
export const sameBooking = (a: Booking | null, b: Booking | null): boolean =>
  a === b || (a !== null && b !== null && a.date === b.date && a.time === b.time && a.service === b.service)

/** A lead about to be recorded: what was learnt, and the id and time a new lead gets. */
export interface LeadWrite {
  readonly orgId: OrgId
  readonly input: LeadInput
  readonly id: string
  readonly at: Date
}

/** Prepares `recordLead`'s write of `input`: a new lead's id, and the time of this record. */
export const leadWrite = (orgId: OrgId, input: LeadInput): Effect.Effect<LeadWrite> =>
  Effect.map(Clock.currentTimeMillis, (now) => ({ orgId, input, id: newId("lead"), at: new Date(now) }))

/** A lead as the statement of `leadStatement` answers it: created by it, or the known one, locked. */
export interface LeadFound extends LeadRow {
  readonly created: boolean
}

/**
 * The lead of a number in one statement's common table expressions, named `name`, that `when`
 * allows: created (`lead_created`, unless the organization knows the number) or, when known, read
 * and locked for update (`lead_known`), as one `LeadFound` row. `recordLead` runs it as a statement
 * of its own; a caller may add it to a statement of its own (`storeTurn`'s `also`) and go on with
 * `recordFoundLead`. No row when another transaction created the lead after the statement began (it
 * is not in the statement's snapshot): `recordFoundLead` then reads it in a statement of its own.
 */
export const leadStatement = (
  tx: postgres.TransactionSql,
  lead: LeadWrite,
  when: postgres.PendingQuery<postgres.Row[]>,
  name: string,
) => tx`
  lead_created as (
    insert into assistant.leads (id, org_id, phone, name, type, last_type, booking, source, created_at, updated_at)
    select ${lead.id}::text, ${lead.orgId}::text, ${lead.input.phone}::text, ${lead.input.name}::text,
           ${lead.input.type}::text, ${lead.input.type}::text,
           ${lead.input.booking === null ? null : jsonb(tx, lead.input.booking)}::jsonb, ${lead.input.source}::text,
           ${lead.at}::timestamptz, ${lead.at}::timestamptz
    where ${when}
    on conflict (org_id, phone) do nothing
    returning id, name, type, last_type, booking),
  lead_known as (
    select id, name, type, last_type, booking from assistant.leads
    where org_id = ${lead.orgId} and phone = ${lead.input.phone} and ${when} and not exists (select from lead_created)
    for update),
  ${tx(name)} as (
    select id, name, type, last_type, booking, true as created from lead_created
    union all
    select id, name, type, last_type, booking, false as created from lead_known)`

/**
 * Records what the assistant learnt about a phone number, inside the caller's transaction, with its
 * event in the same transaction: `lead.created` the first time the number is seen in the
 * organization, `lead.updated` only when the lead's name, listed type or booking changed.
 *
 * Whose lead (docs/contract.md §8: a conversation "releases or changes only leads and bookings that
 * this conversation made (never another visitor's)"): a known number's lead is changed only by its own
 * conversation (`input.own`: the channel's sender, or a widget conversation that created the lead).
 * Any other input leaves it as it was and fires nothing (`notOwn`) — a number typed into the widget may
 * be anyone's, and a stranger must neither retype, rename nor rebook another customer's lead; what they
 * asked stays in their conversation, in the Inbox (§17). One exception, `input.replaces`: the lead
 * holds a booking this conversation made (its widget form's, in the same session) and the conversation
 * moved it, so the lead's booking follows the move (and only that); and the widget's booking form
 * (`input.form`), which §8 has record or update the number's lead with its booking. Neither renames: a
 * name there only fills an empty one.
 *
 * Merge rules for its own conversation: a new non-empty name replaces the old one, an empty one keeps
 * it. A new booking replaces the old one, none keeps it. Two types are kept: the lead's listed `type`,
 * the stronger of the stored and the new (see `strongerLeadType`: a visitor who booked stays a BOOKING
 * lead), and `last_type`, what the latest turn resolved to (what a corrected number restores).
 * `lead.updated` carries the listed type, so the event and `GET /api/leads` always agree — "the lead
 * type as re-resolved on this turn" (the seed) is the lead's, with what it held before. Concurrent
 * turns for one number are safe: the insert races on the unique (org, phone) key, and the loser locks
 * the winner's row before comparing.
 */
export const recordLead = (
  tx: postgres.TransactionSql,
  orgId: OrgId,
  input: LeadInput,
): Effect.Effect<RecordedLead, never, OutboxWriter> =>
  Effect.gen(function* () {
    const lead = yield* leadWrite(orgId, input)
    const [found] = yield* Effect.promise(
      () => tx<Array<LeadFound>>`with ${leadStatement(tx, lead, tx`true`, "lead")} select * from lead`,
    )
    return yield* recordFoundLead(tx, lead, found)
  })

/** `recordLead` once `leadStatement` ran: `found` is what it answered (none: a lead created meanwhile). */
export const recordFoundLead = (
  tx: postgres.TransactionSql,
  lead: LeadWrite,
  found: LeadFound | undefined,
): Effect.Effect<RecordedLead, never, OutboxWriter> =>
  Effect.gen(function* () {
    const { orgId, input, id, at } = lead
    const outbox = yield* OutboxWriter
    if (found?.created === true) {
      const data = { phone: input.phone, name: input.name, type: input.type, booking: input.booking }
      yield* outbox.append(tx, [eventRecord("lead.created", orgId, data, at)])
      yield* countLead("created")
      return { id, type: input.type, outcome: "created" as const }
    }
    const [existing] =
      found !== undefined
        ? [found]
        : yield* Effect.promise(
            () => tx<Array<LeadRow>>`
              select id, name, type, last_type, booking from assistant.leads
              where org_id = ${orgId} and phone = ${input.phone}
              for update`,
          )
    if (existing === undefined) return yield* Effect.die(new Error("lead vanished between insert and select"))
    const before = { name: existing.name, type: existing.type, lastType: existing.last_type }
    // A widget conversation that created a number's lead owns it only until the number's owner writes
    // from it on a channel: typed first into the widget, a stranger's claim kept renaming the
    // customer's lead and learning its type (found by a contract-only tester).
    const fromChannel = input.source === "cloud" || input.source === "bridge"
    const claimYields = input.own === true && !fromChannel && (yield* ownerHasWritten(tx, orgId, input.phone))
    const own = input.own === true && !claimYields
    const movesItsBooking =
      !own && input.replaces !== undefined && existing.booking !== null && sameBooking(existing.booking, input.replaces)
    if (!own && !movesItsBooking && input.form !== true) {
      yield* countLead("notOwn")
      return { id: existing.id, type: existing.type, outcome: "notOwn" as const }
    }
    const name = input.name === "" || (!own && existing.name !== "") ? existing.name : input.name
    // A withdrawn request ("don't call me") lowers the listed type to this turn's; a booking held still wins.
    const type =
      input.withdrawn === true
        ? strongerLeadType(input.type, existing.booking === null ? input.type : "BOOKING")
        : strongerLeadType(existing.type, input.type)
    const booking = input.booking ?? existing.booking
    const listedChanged = name !== existing.name || type !== existing.type || !sameBooking(booking, existing.booking)
    if (!listedChanged && input.type === existing.last_type) {
      yield* countLead("unchanged")
      return { id: existing.id, type: existing.type, outcome: "unchanged" as const, before }
    }
    yield* Effect.promise(
      () => tx`
        update assistant.leads
        set name = ${name}, type = ${type}, last_type = ${input.type},
            booking = ${booking === null ? null : jsonb(tx, booking)}, updated_at = ${at}
        where id = ${existing.id}`,
    )
    // Only this turn's request changed (`last_type`): the lead as listed did not, so nothing is announced.
    if (!listedChanged) {
      yield* countLead("unchanged")
      return { id: existing.id, type, outcome: "unchanged" as const, before }
    }
    const data = { phone: input.phone, name, type, booking }
    yield* outbox.append(tx, [eventRecord("lead.updated", orgId, data, at)])
    yield* countLead("updated")
    return { id: existing.id, type, outcome: "updated" as const, before }
  }).pipe(withHotSpan("assistant.recordLead"))

/** Whether the number's owner has written to the organization from it on a channel (cloud or bridge). */
const ownerHasWritten = (tx: postgres.TransactionSql, orgId: OrgId, phone: string): Effect.Effect<boolean> =>
  Effect.promise(
    () => tx<Array<{ written: boolean }>>`
      select exists (
        select from assistant.conversations
        where org_id = ${orgId} and channel in ('cloud', 'bridge') and customer = ${phone}
      ) as written`,
  ).pipe(Effect.map(([row]) => row?.written === true))

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
    const data = { phone, name: before.name, type: before.type, booking: restored.booking }
    yield* outbox.append(tx, [eventRecord("lead.updated", orgId, data, at)])
  }).pipe(Effect.withSpan("assistant.releaseMistakenLead"))

import { eventRecord, OutboxWriter } from "@parley/bus"
import type { Booking, BookingRecord, ListedBooking, OrgId } from "@parley/contracts"
import { Database, withTransaction } from "@parley/db"
import { newId } from "@parley/platform"
import { Clock, Effect } from "effect"
import type postgres from "postgres"
import { addDays, wallClockIn } from "../engine/calendar-date.ts"
import type { DayView, HeldBooking } from "../engine/dialogue.ts"
import type { LeadSource } from "../engine/lead-capture.ts"
import { internationalDigits } from "../engine/phone.ts"
import { BookingRefused, type InvalidCursor, ResourceNotFound } from "../errors.ts"
import { pageOf, positionAfter } from "../leads/cursor.ts"
import { type RecordedLead, recordLead, sameBooking } from "../leads/record-lead.ts"
import type { BookingSettings } from "./settings.ts"
import { loadBookingSettings } from "./settings-store.ts"
import { type DaySlotsInput, daySlots, offeredTimes, type Slot, slotVerdict } from "./slots.ts"

/** The organization's wall clock now, in its time zone. */
export const organizationNow = (settings: BookingSettings) =>
  Effect.map(Clock.currentTimeMillis, (millis) => {
    const { date, time } = wallClockIn(settings.timezone, new Date(millis))
    return { today: date, nowTime: time }
  })

const takenOn = (sql: postgres.Sql | postgres.TransactionSql, orgId: OrgId, date: string) =>
  Effect.promise(
    () => sql<Array<{ time: string; taken: number }>>`
      select time, count(*)::int as taken from assistant.bookings
      where org_id = ${orgId} and date = ${date} and status = 'confirmed'
      group by time`,
  ).pipe(Effect.map((rows) => new Map(rows.map((row) => [row.time, row.taken]))))

const dayInput = (sql: postgres.Sql | postgres.TransactionSql, orgId: OrgId, settings: BookingSettings, date: string) =>
  Effect.gen(function* () {
    const now = yield* organizationNow(settings)
    return { settings, date, ...now, taken: yield* takenOn(sql, orgId, date) } satisfies DaySlotsInput
  })

const checkService = (settings: BookingSettings, service: string) =>
  settings.services.includes(service)
    ? Effect.void
    : Effect.fail(new BookingRefused({ reason: "unknownService", detail: `Service not offered: ${service}` }))

export interface DaySlots {
  readonly date: string
  readonly timezone: string
  /** What the organization offers: the widget's booking form lists them (it has no other way to learn them). */
  readonly services: ReadonlyArray<string>
  readonly slots: ReadonlyArray<Slot>
}

/** `GET /api/public/bookings/slots`: the day's slots in the organization's time zone. */
export const slotsOf = (
  orgId: OrgId,
  date: string,
  service: string | undefined,
): Effect.Effect<DaySlots, BookingRefused, Database> =>
  Effect.gen(function* () {
    const { sql } = yield* Database
    const settings = yield* loadBookingSettings(sql, orgId)
    if (service !== undefined) yield* checkService(settings, service)
    const input = yield* dayInput(sql, orgId, settings, date)
    if (date < input.today) {
      return yield* Effect.fail(new BookingRefused({ reason: "pastDate", detail: "date is in the past" }))
    }
    return { date, timezone: settings.timezone, services: settings.services, slots: daySlots(input) }
  })

/** The free start times of a day (empty for a past or closed day), under the settings in force. */
export const freeTimesOf = (
  orgId: OrgId,
  settings: BookingSettings,
  date: string,
): Effect.Effect<ReadonlyArray<string>, never, Database> =>
  Effect.gen(function* () {
    // A day with no opening hours needs no query.
    if (offeredTimes(settings, date).length === 0) return []
    const { sql } = yield* Database
    const input = yield* dayInput(sql, orgId, settings, date)
    return daySlots(input)
      .filter((slot) => slot.available)
      .map((slot) => slot.time)
  })

/** The engine's view of a day: the start times offered and those still free now. */
export const dayView = (
  orgId: OrgId,
  settings: BookingSettings,
  date: string,
): Effect.Effect<DayView, never, Database> =>
  Effect.map(freeTimesOf(orgId, settings, date), (free) => ({ date, offered: offeredTimes(settings, date), free }))

/** The first day from `from` (within two weeks) with a free slot. */
export const nextOpenDay = (
  orgId: OrgId,
  settings: BookingSettings,
  from: string,
): Effect.Effect<{ date: string; times: ReadonlyArray<string> } | undefined, never, Database> =>
  Effect.gen(function* () {
    for (let ahead = 0; ahead < 14; ahead++) {
      const date = addDays(from, ahead)
      const times = yield* freeTimesOf(orgId, settings, date)
      if (times.length > 0) return { date, times }
    }
    return undefined
  })

export interface BookingRequest {
  readonly name: string
  readonly phone: string
  readonly date: string
  readonly time: string
  readonly service: string
  readonly notes?: string | undefined
  readonly sessionId?: string | undefined
  /** Where the lead comes from when this booking makes one. */
  readonly source: LeadSource
  /**
   * The number's lead is the booking conversation's own (its channel sender, or a lead it created):
   * only then does a chat booking change a known number's lead (`LeadInput.own`).
   */
  readonly own?: boolean | undefined
}

export interface MadeBooking {
  readonly booking: BookingRecord
  readonly lead: RecordedLead
  /**
   * A new place was taken for this request: false when the phone already held this slot and the
   * booking answered is that earlier one (which may be another session's).
   */
  readonly placeTaken: boolean
}

/** Serialises bookings of one slot: two transactions booking the last place cannot both count it free. */
const lockSlot = (tx: postgres.TransactionSql, orgId: OrgId, date: string, time: string) =>
  Effect.promise(
    () => tx`select pg_advisory_xact_lock(hashtextextended(${`assistant.slot:${orgId}:${date}:${time}`}, 0))`,
  )

/**
 * Books a slot: capacity is counted under a per-slot lock, and the booking, the lead (type BOOKING,
 * with the booking) and its `lead.created` / `lead.updated` event commit together.
 */
export const makeBooking = (
  orgId: OrgId,
  request: BookingRequest,
): Effect.Effect<MadeBooking, BookingRefused, Database | OutboxWriter> =>
  withTransaction((tx) => bookWithin(tx, orgId, request)).pipe(Effect.withSpan("assistant.makeBooking"))

/** `makeBooking` within the caller's transaction (the widget's form starts its session in the same one). */
export const bookWithin = (
  tx: postgres.TransactionSql,
  orgId: OrgId,
  asked: BookingRequest,
  replaces?: Booking,
): Effect.Effect<MadeBooking, BookingRefused, OutboxWriter> =>
  Effect.gen(function* () {
    const settings = yield* loadBookingSettings(tx, orgId)
    // The booking form's number as people type it, read with the organization's country (docs/contract.md §8).
    const request =
      asked.source === "booking" ? { ...asked, phone: internationalDigits(asked.phone, settings.country) } : asked
    yield* checkService(settings, request.service)
    yield* lockSlot(tx, orgId, request.date, request.time)
    const input = yield* dayInput(tx, orgId, settings, request.date)
    // A slot on a past day has started like one earlier today: 409, as docs/contract.md §8 answers a
    // slot that is not offered (listing a past day's slots stays a 400).
    if (request.date < input.today) {
      return yield* Effect.fail(
        new BookingRefused({ reason: "started", detail: `No slot on ${request.date}: the date is in the past` }),
      )
    }
    // The same slot booked again answers with the booking already held only for whoever made it (the
    // same conversation, or the channel's own sender): to anyone else who types that number it is as
    // full as a full slot — answered with it, the booking form gave a stranger another customer's
    // name, booking id and appointment (found by a contract-only tester).
    const held = yield* heldBy(tx, orgId, request)
    const heldHere =
      held !== undefined &&
      ((request.sessionId !== undefined && held.session_id === request.sessionId) ||
        (request.own === true && (request.source === "cloud" || request.source === "bridge")))
    if (held !== undefined && !heldHere) {
      return yield* Effect.fail(new BookingRefused({ reason: "full", detail: "This slot is fully booked" }))
    }
    const booked = held ?? (yield* takePlace(tx, orgId, request, input))
    const slot: Booking = { date: request.date, time: request.time, service: request.service }
    const lead = yield* recordLead(tx, orgId, {
      phone: request.phone,
      name: request.name,
      type: "BOOKING",
      booking: slot,
      source: request.source,
      ...(request.own === true ? { own: true } : {}),
      ...(replaces === undefined ? {} : { replaces }),
      ...(request.source === "booking" ? { form: true } : {}),
    })
    return {
      booking: { ...booked, phone: request.phone, ...slot, status: "confirmed" as const },
      lead,
      placeTaken: held === undefined,
    }
  })

/**
 * Moves a booking: the new slot is booked (its lead event carries the new booking) and the old one
 * cancelled in one transaction, so a refused new slot leaves the old booking as it was.
 */
export const moveBooking = (
  orgId: OrgId,
  fromId: string,
  request: BookingRequest,
): Effect.Effect<MadeBooking, BookingRefused, Database | OutboxWriter> =>
  withTransaction((tx) =>
    Effect.gen(function* () {
      const [from] = yield* Effect.promise(
        () => tx<Array<Booking>>`update assistant.bookings set status = 'cancelled'
                 where id = ${fromId} and org_id = ${orgId} and status = 'confirmed'
                 returning date, time, service`,
      )
      // The moved booking is this conversation's: a lead holding it follows the move, whoever's it is.
      return yield* bookWithin(tx, orgId, request, from)
    }),
  ).pipe(Effect.withSpan("assistant.moveBooking"))

interface BookingRow {
  id: string
  name: string
  phone: string
  date: string
  time: string
  service: string
  notes: string | null
  status: "confirmed" | "cancelled"
  created_at: Date
}

const listed = (row: BookingRow): ListedBooking => ({
  id: row.id,
  name: row.name,
  phone: row.phone,
  date: row.date,
  time: row.time,
  service: row.service,
  notes: row.notes,
  status: row.status,
  createdAt: row.created_at.toISOString(),
})

/**
 * Cancels a booking (the visitor in the chat, or staff through `DELETE /api/bookings/:id`): it stays
 * listed with `status: "cancelled"`, frees its place in the slot, and when it is the booking its
 * lead holds, the lead loses it and `lead.updated` fires with `booking: null` and the lead's type (docs/contract.md §8). The
 * lead's type stays what it was: a booking was made (§8's `BOOKING` "when a booking was made in it"),
 * the cancellation does not unmake that. Cancelling a cancelled booking answers it again and changes
 * nothing.
 */
export const cancelBooking = (
  orgId: OrgId,
  id: string,
): Effect.Effect<ListedBooking, ResourceNotFound, Database | OutboxWriter> =>
  withTransaction((tx) =>
    Effect.gen(function* () {
      const [row] = yield* Effect.promise(
        () => tx<Array<BookingRow>>`
          select id, name, phone, date, time, service, notes, status, created_at from assistant.bookings
          where id = ${id} and org_id = ${orgId}
          for update`,
      )
      if (row === undefined) return yield* Effect.fail(new ResourceNotFound())
      if (row.status === "cancelled") return listed(row)
      yield* Effect.promise(() => tx`update assistant.bookings set status = 'cancelled' where id = ${id}`)
      yield* releaseLead(tx, orgId, row)
      return listed({ ...row, status: "cancelled" })
    }),
  ).pipe(Effect.withSpan("assistant.cancelBooking"))

const releaseLead = (tx: postgres.TransactionSql, orgId: OrgId, row: BookingRow) =>
  Effect.gen(function* () {
    const [lead] = yield* Effect.promise(
      () => tx<Array<{ id: string; name: string; type: string; booking: Booking | null }>>`
        select id, name, type, booking from assistant.leads
        where org_id = ${orgId} and phone = ${row.phone}
        for update`,
    )
    if (lead === undefined || !sameBooking(lead.booking, { date: row.date, time: row.time, service: row.service })) {
      return
    }
    const type = lead.type
    const at = new Date(yield* Clock.currentTimeMillis)
    yield* Effect.promise(() => tx`update assistant.leads set booking = null, updated_at = ${at} where id = ${lead.id}`)
    const outbox = yield* OutboxWriter
    yield* outbox.append(tx, [
      eventRecord("lead.updated", orgId, { phone: row.phone, name: lead.name, type, booking: null }, at),
    ])
  })

/**
 * The next confirmed booking from today, to cancel or move: on a phone channel the customer's (by
 * `phone`), on the widget the one made in this session (its booking form, by `sessionId`).
 */
export const upcomingBooking = (
  orgId: OrgId,
  of: { readonly sessionId: string } | { readonly phone: string },
  today: string,
): Effect.Effect<HeldBooking | null, never, Database> =>
  Effect.gen(function* () {
    const { sql } = yield* Database
    const [row] = yield* Effect.promise(
      () => sql<Array<{ id: string; date: string; time: string; service: string; phone: string; name: string }>>`
        select id, date, time, service, phone, name from assistant.bookings
        where org_id = ${orgId} and ${"sessionId" in of ? sql`session_id = ${of.sessionId}` : sql`phone = ${of.phone}`}
          and status = 'confirmed' and date >= ${today}
        order by date, time limit 1`,
    )
    return row ?? null
  })

/**
 * The booking this phone already holds for this slot and service: booking it again (a double-submitted
 * form, a retried turn) answers with that booking rather than taking a second place or refusing.
 */
const heldBy = (tx: postgres.TransactionSql, orgId: OrgId, request: BookingRequest) =>
  Effect.promise(
    () => tx<Array<{ id: string; name: string; session_id: string | null }>>`
      select id, name, session_id from assistant.bookings
      where org_id = ${orgId} and date = ${request.date} and time = ${request.time}
        and service = ${request.service} and phone = ${request.phone} and status = 'confirmed'
      limit 1`,
  ).pipe(Effect.map(([row]) => row))

/** A new place in the slot, if it is offered, has not started and is not full. */
const takePlace = (tx: postgres.TransactionSql, orgId: OrgId, request: BookingRequest, input: DaySlotsInput) =>
  Effect.gen(function* () {
    const verdict = slotVerdict(input, request.time)
    if (verdict === "past") {
      return yield* Effect.fail(new BookingRefused({ reason: "started", detail: "This slot has already started" }))
    }
    if (verdict === "notOffered") {
      return yield* Effect.fail(
        new BookingRefused({ reason: "notOffered", detail: `No slot at ${request.time} on ${request.date}` }),
      )
    }
    if (verdict === "full") {
      return yield* Effect.fail(new BookingRefused({ reason: "full", detail: "This slot is fully booked" }))
    }
    const id = newId("bkg")
    yield* Effect.promise(
      () => tx`
        insert into assistant.bookings (id, org_id, date, time, service, name, phone, notes, session_id)
        values (${id}, ${orgId}, ${request.date}, ${request.time}, ${request.service}, ${request.name},
                ${request.phone}, ${request.notes ?? null}, ${request.sessionId ?? null})`,
    )
    return { id, name: request.name }
  })

/**
 * `GET /api/bookings`: an organization's bookings (cancelled ones with that status), newest first, `limit` at a time from
 * after `cursor` (docs/contract.md §1's paging for a list that can grow without bound), optionally of
 * one date.
 */
export const listBookings = (
  orgId: OrgId,
  query: { readonly date?: string | undefined; readonly limit: number; readonly cursor?: string | undefined },
): Effect.Effect<{ data: ReadonlyArray<ListedBooking>; nextCursor: string | null }, InvalidCursor, Database> =>
  Effect.gen(function* () {
    const { sql } = yield* Database
    const after = yield* positionAfter(query.cursor, "bkg")
    const rows = yield* Effect.promise(
      () => sql<Array<BookingRow & { cursor_at: string }>>`
        select id, name, phone, date, time, service, notes, status, created_at, created_at::text as cursor_at
        from assistant.bookings
        where org_id = ${orgId}
          ${query.date === undefined ? sql`` : sql`and date = ${query.date}`}
          ${after === undefined ? sql`` : sql`and (created_at, id) < (${after.at}::timestamptz, ${after.id})`}
        order by created_at desc, id desc
        limit ${query.limit + 1}`,
    )
    const { page, nextCursor } = pageOf(rows, query.limit)
    return { data: page.map(listed), nextCursor }
  })

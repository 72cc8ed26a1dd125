/**
 * The booking form of docs/contract.md §15: service, date, the free slots of that date, name, phone.
 *
 * Whether the key may book is learned from Parley, not guessed: the panel reads today's slots once
 * when it opens; a 403 (`missing_scope`, no `bookings:read`) hides booking. The services offered come
 * with the slots (`services`), as do the organization's time zone and so its today, the first date
 * the form offers. A 409 on booking means the slot was just taken: the form says so and reads the
 * slots again, keeping the name and phone.
 */

import type { BookingRecord } from "@parley/contracts"
import { batch, computed, signal } from "@preact/signals"
import type { PanelHost } from "../../shared/bridge.ts"
import { storedValue } from "../../shared/visitor-memory.ts"
import { type DaySlots, failureOf, type PublicApi } from "../api/public-api.ts"
import type { Problem } from "../problem.ts"

/** `YYYY-MM-DD` of `instant` in `timeZone` (the visitor's own when undefined). */
export const calendarDate = (instant: Date, timeZone?: string): string => {
  const parts = new Intl.DateTimeFormat("en-CA", {
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    ...(timeZone === undefined ? {} : { timeZone }),
  }).formatToParts(instant)
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? ""
  return `${part("year")}-${part("month")}-${part("day")}`
}

export const nextDay = (date: string): string => {
  const day = new Date(`${date}T00:00:00Z`)
  day.setUTCDate(day.getUTCDate() + 1)
  return day.toISOString().slice(0, 10)
}

/** How many days after a today with no free time the form looks for one to open on. */
const DAYS_LOOKED_AHEAD = 7

export type BookingAvailability = "unknown" | "available" | "unavailable"

/** A message shown in the form, for the visitor to act on. */
export type FormMessage =
  | "slotTaken"
  | "pastDate"
  | "pickTime"
  | "bookingUnavailable"
  | "phoneInvalid"
  | "nameInvalid"
  | "checkDetails"

/**
 * A 400 said as the field to fix, in the visitor's words: the API's validation text is for developers
 * ("Invalid request: phone: Expected a phone number of 7–15 digits…"), never shown to a visitor.
 */
const invalidField = (apiMessage: string): FormMessage =>
  /\bphone\b/i.test(apiMessage) ? "phoneInvalid" : /\bname\b/i.test(apiMessage) ? "nameInvalid" : "checkDetails"

export type BookingState = ReturnType<typeof makeBookingState>

export const makeBookingState = (api: PublicApi, host: Pick<PanelHost, "emit" | "options">) => {
  const sessionMemory = storedValue("localStorage", host.options.key, "session")

  const availability = signal<BookingAvailability>("unknown")
  const services = signal<ReadonlyArray<string>>([])
  const timezone = signal("")
  /** The organization's today: the earliest date the form offers. */
  const today = signal("")
  const service = signal("")
  const date = signal("")
  const slots = signal<DaySlots["slots"] | undefined>(undefined)
  const loadingSlots = signal(false)
  const time = signal("")
  const name = signal("")
  const phone = signal("")
  const submitting = signal(false)
  const message = signal<FormMessage | undefined>(undefined)
  const problem = signal<Problem | undefined>(undefined)
  const confirmed = signal<BookingRecord | undefined>(undefined)
  /** The phone number as the visitor wrote it in the form (Parley answers it as international digits). */
  const confirmedPhone = signal("")

  const freeTimes = computed(() => (slots.value ?? []).filter((slot) => slot.available).map((slot) => slot.time))

  const learn = (day: DaySlots) => {
    batch(() => {
      timezone.value = day.timezone
      today.value = calendarDate(api.now(), day.timezone)
      if (Array.isArray(day.services)) services.value = day.services
      if (service.value === "" || !services.value.includes(service.value)) service.value = services.value[0] ?? ""
    })
  }

  /** Whether this key may read slots, and what the organization offers; once per panel. */
  const discover = async (): Promise<void> => {
    if (availability.value !== "unknown") return
    for (let attempt = 0; attempt < 2; attempt++) {
      // The organization's zone, and so its today, is not known before this answer: ask for tomorrow in
      // UTC, which no zone's today is after (UTC+14 at most reaches it), so that Parley never calls it
      // past. The visitor's own date is behind the organization's west of it (400 "date is in the
      // past"). A visitor's clock that is days off still gets a 400 once: the answer's Date corrects it.
      const day = nextDay(calendarDate(api.now(), "UTC"))
      try {
        const answer = await api.slots(day, undefined)
        learn(answer)
        batch(() => {
          availability.value = services.value.length > 0 ? "available" : "unavailable"
          date.value = today.value
          if (answer.date === today.value) slots.value = answer.slots
        })
        if (answer.date !== today.value) await loadSlots()
        await startOnAFreeDay()
        return
      } catch (error) {
        const failure = failureOf(error)
        if (failure.kind === "refused" && failure.status === 400 && attempt === 0) continue
        // 403: no bookings:read. Unreachable or limited: booking stays hidden until the next open.
        if (failure.kind === "refused") availability.value = "unavailable"
        return
      }
    }
  }

  /**
   * Opens the form on the first day of the coming week with a free time, not on a today that is over
   * or closed ("No free times on this day" as the first thing a visitor sees). Stops as soon as the
   * visitor chooses a service or a date, or Parley does not answer; today stays the earliest date.
   */
  const startOnAFreeDay = async (): Promise<void> => {
    const [startDate, startService] = [date.value, service.value]
    let day = startDate
    for (
      let ahead = 1;
      ahead <= DAYS_LOOKED_AHEAD && slots.value !== undefined && freeTimes.value.length === 0;
      ahead++
    ) {
      day = nextDay(day)
      let answer: DaySlots
      try {
        answer = await api.slots(day, startService === "" ? undefined : startService)
      } catch {
        return
      }
      if (date.value !== startDate || service.value !== startService) return
      if (answer.slots.some((slot) => slot.available)) {
        batch(() => {
          date.value = day
          slots.value = answer.slots
        })
      }
    }
  }

  /** The organization's today by Parley's clock now (the panel may stay open across its midnight). */
  const refreshToday = () => {
    if (timezone.value !== "") today.value = calendarDate(api.now(), timezone.value)
  }

  const loadSlots = async (): Promise<void> => {
    if (date.value === "" || service.value === "") return
    const [wantedDate, wantedService] = [date.value, service.value]
    refreshToday()
    if (wantedDate < today.value) {
      // A day the organization calls past (typed, or kept open across its midnight): said, not asked.
      batch(() => {
        slots.value = undefined
        time.value = ""
        problem.value = undefined
        message.value = "pastDate"
      })
      return
    }
    batch(() => {
      loadingSlots.value = true
      problem.value = undefined
      if (message.value === "pastDate") message.value = undefined
    })
    try {
      const answer = await api.slots(wantedDate, wantedService)
      // A later choice of date or service has its own request under way: this answer is stale.
      if (date.value !== wantedDate || service.value !== wantedService) return
      learn(answer)
      batch(() => {
        slots.value = answer.slots
        if (!freeTimes.value.includes(time.value)) time.value = ""
      })
    } catch (error) {
      const failure = failureOf(error)
      batch(() => {
        slots.value = undefined
        // Parley's own word on the day: a past date (by its clock, in the organization's zone) or a
        // service no longer offered — said in the form, which stays usable for another choice.
        if (failure.kind === "refused" && failure.status === 400) {
          refreshToday()
          message.value = /\bpast\b/i.test(failure.message) ? "pastDate" : "checkDetails"
        } else if (failure.kind === "refused" && failure.status < 500) message.value = "bookingUnavailable"
        else problem.value = { failure, retry: () => void loadSlots() }
      })
    } finally {
      loadingSlots.value = false
    }
  }

  const choose = (change: { service?: string; date?: string }) => {
    batch(() => {
      if (change.service !== undefined) service.value = change.service
      if (change.date !== undefined) date.value = change.date
      time.value = ""
    })
    void loadSlots()
  }

  const submit = async (): Promise<void> => {
    if (submitting.value) return
    if (time.value === "") {
      message.value = "pickTime"
      return
    }
    batch(() => {
      submitting.value = true
      message.value = undefined
      problem.value = undefined
    })
    try {
      const sessionId = sessionMemory.read()
      const { sessionId: bookedIn, ...booking } = await api.book({
        name: name.value.trim(),
        phone: phone.value.trim(),
        date: date.value,
        time: time.value,
        service: service.value,
        ...(sessionId === undefined ? {} : { sessionId }),
      })
      // A form used before the chat: the booking started the widget's session, which the chat goes on
      // with, so "move my booking" finds it. The session stays the panel's (never handed to the page).
      if (sessionMemory.read() === undefined && bookedIn !== undefined) sessionMemory.write(bookedIn)
      batch(() => {
        confirmedPhone.value = phone.value.trim()
        confirmed.value = booking
      })
      host.emit("booking", booking)
    } catch (error) {
      const failure = failureOf(error)
      if (failure.kind === "refused" && failure.status === 409) {
        batch(() => {
          message.value = "slotTaken"
          time.value = ""
        })
        await loadSlots()
      } else if (failure.kind === "refused" && failure.code === "missing_scope") {
        message.value = "bookingUnavailable"
      } else if (failure.kind === "refused" && failure.status === 400) {
        message.value = invalidField(failure.message)
      } else if (failure.kind === "refused" && failure.status < 500 && failure.status !== 0) {
        message.value = "bookingUnavailable"
      } else {
        problem.value = { failure, retry: () => void submit() }
      }
    } finally {
      submitting.value = false
    }
  }

  /** After a confirmation: the same form again, for another time (name and phone kept). */
  const again = () => {
    batch(() => {
      confirmed.value = undefined
      time.value = ""
    })
    void loadSlots()
  }

  return {
    availability,
    services,
    timezone,
    today,
    service,
    date,
    slots,
    freeTimes,
    loadingSlots,
    time,
    name,
    phone,
    submitting,
    message,
    problem,
    confirmed,
    confirmedPhone,
    discover,
    loadSlots,
    choose,
    submit,
    again,
  }
}

/** What the visitor sees once booked: the booking as Parley confirmed it, focused so that it is read out. */

import type { BookingRecord } from "@parley/contracts"
import { useEffect, useRef } from "preact/hooks"
import type { PanelStrings } from "../strings.ts"

/** `2026-12-01` as the visitor's language writes a date (the calendar date itself, no time zone shift). */
const longDate = (date: string, locale: string): string => {
  try {
    return new Intl.DateTimeFormat(locale, { dateStyle: "full", timeZone: "UTC" }).format(new Date(`${date}T00:00:00Z`))
  } catch {
    return date
  }
}

export const BookingConfirmation = (props: {
  booking: BookingRecord
  /** The number as the visitor wrote it (Parley stores international digits). */
  phone: string
  timezone: string
  locale: string
  s: PanelStrings
  again: () => void
  backToChat: () => void
}) => {
  const { booking, s } = props
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => heading.current?.focus(), [])
  return (
    <div class="confirmation">
      <h3 class="form-title" tabIndex={-1} ref={heading}>
        {s.booked}
      </h3>
      <p>{s.bookedAt(booking.service, longDate(booking.date, props.locale), booking.time, props.timezone)}</p>
      <p>{s.bookedFor(booking.name, props.phone === "" ? `+${booking.phone}` : props.phone)}</p>
      <div class="actions">
        <button type="button" class="primary" onClick={props.backToChat}>
          {s.backToChat}
        </button>
        <button type="button" class="secondary" onClick={props.again}>
          {s.bookAnother}
        </button>
      </div>
    </div>
  )
}

/**
 * The booking form (docs/contract.md §15): service, date, the free slots of that date as a group of
 * radio buttons, name and phone. Every control has a visible label; a message the visitor must act
 * on (the slot was just taken, pick a time) is an alert.
 */
import type { Signal } from "@preact/signals"
import type { PanelStrings } from "../strings.ts"
import type { BookingState, FormMessage } from "./booking-state.ts"

const say = (message: FormMessage, s: PanelStrings): string => s[message]

const Slots = ({ booking, s }: { booking: BookingState; s: PanelStrings }) => {
  if (booking.loadingSlots.value) return <p class="quiet">{s.loadingSlots}</p>
  if (booking.slots.value === undefined) return null
  const free = booking.freeTimes.value
  if (free.length === 0) return <p class="quiet">{s.noSlots}</p>
  return (
    <div class="slot-grid">
      {free.map((time) => (
        <label key={time} class="slot">
          <input
            type="radio"
            name="parley-time"
            value={time}
            checked={booking.time.value === time}
            onChange={() => {
              booking.time.value = time
              if (booking.message.value === "pickTime") booking.message.value = undefined
            }}
          />
          <span>{time}</span>
        </label>
      ))}
    </div>
  )
}

/** A labelled, required text input bound to a signal (the visitor's name, phone). */
const TextField = (props: {
  id: string
  label: string
  type: "text" | "tel"
  autoComplete: string
  maxLength: number
  value: Signal<string>
}) => (
  <div class="field">
    <label for={props.id}>{props.label}</label>
    <input
      id={props.id}
      // Preact's input types are a union keyed by `type`; either literal is a plain text input.
      type={props.type as "text"}
      required
      maxLength={props.maxLength}
      autoComplete={props.autoComplete}
      value={props.value.value}
      onInput={(event) => {
        props.value.value = event.currentTarget.value
      }}
    />
  </div>
)

export const BookingForm = ({ booking, s }: { booking: BookingState; s: PanelStrings }) => {
  const message = booking.message.value
  return (
    <form
      class="booking"
      aria-labelledby="parley-booking-title"
      onSubmit={(event) => {
        event.preventDefault()
        void booking.submit()
      }}
    >
      <h3 id="parley-booking-title" class="form-title" tabIndex={-1}>
        {s.bookTitle}
      </h3>
      <div class="field">
        <label for="parley-service">{s.service}</label>
        <select
          id="parley-service"
          value={booking.service.value}
          onChange={(event) => booking.choose({ service: event.currentTarget.value })}
        >
          {booking.services.value.map((service) => (
            <option key={service} value={service}>
              {service}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="parley-date">{s.date}</label>
        <input
          id="parley-date"
          type="date"
          required
          min={booking.today.value}
          value={booking.date.value}
          onChange={(event) => {
            const value = event.currentTarget.value
            if (value !== "") booking.choose({ date: value })
          }}
        />
      </div>
      <fieldset class="field slots" aria-busy={booking.loadingSlots.value}>
        <legend>
          {s.time}
          {booking.timezone.value === "" ? null : <span class="zone"> ({booking.timezone.value})</span>}
        </legend>
        <Slots booking={booking} s={s} />
      </fieldset>
      <TextField id="parley-name" label={s.name} type="text" autoComplete="name" maxLength={100} value={booking.name} />
      <TextField id="parley-phone" label={s.phone} type="tel" autoComplete="tel" maxLength={40} value={booking.phone} />
      {message === undefined ? null : (
        <p class="form-message" role="alert">
          {say(message, s)}
        </p>
      )}
      <button type="submit" class="primary" disabled={booking.submitting.value}>
        {booking.submitting.value ? s.booking : s.submitBooking}
      </button>
    </form>
  )
}

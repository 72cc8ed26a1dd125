/**
 * The booking settings the assistant books by (§9): opening hours per weekday, services, slot
 * length, capacity, time zone.
 */
import { useRef, useState } from "preact/hooks"
import { api, unwrap } from "../../api/client.ts"
import { definedOnly, type FieldErrors, focusFirstInvalid, issueErrors, TextField } from "../../ui/fields.tsx"
import { useAction } from "../../ui/hooks.ts"
import { ErrorNotice, StatusNotice } from "../../ui/notice.tsx"
import { parseRanges } from "./parse-ranges.ts"

/** The settings as `GET /api/bookings/settings` answers them (tuples read as arrays). */
interface Settings {
  readonly timezone: string
  readonly country: string
  readonly services: ReadonlyArray<string>
  readonly slotMinutes: number | string
  readonly capacity: number | string
  readonly hours: Readonly<Record<string, ReadonlyArray<ReadonlyArray<string>>>>
}

export const WEEKDAYS = [
  ["mon", "Monday"],
  ["tue", "Tuesday"],
  ["wed", "Wednesday"],
  ["thu", "Thursday"],
  ["fri", "Friday"],
  ["sat", "Saturday"],
  ["sun", "Sunday"],
] as const
type Weekday = (typeof WEEKDAYS)[number][0]

const rangesText = (ranges: ReadonlyArray<ReadonlyArray<string>> | undefined) =>
  (ranges ?? []).map(([from, to]) => `${from}–${to}`).join(", ")

/** The country's name in the reader's language, or undefined when `code` names none. */
const countryName = (code: string): string | undefined => {
  if (!/^[A-Z]{2}$/.test(code)) return undefined
  try {
    return new Intl.DisplayNames(undefined, { type: "region", fallback: "none" }).of(code)
  } catch {
    return undefined
  }
}

/** The zones this browser knows (~400), read once rather than on every keystroke. */
const TIME_ZONES: ReadonlyArray<string> = (() => {
  try {
    return Intl.supportedValuesOf("timeZone")
  } catch {
    return []
  }
})()

export const BookingSettingsForm = ({ settings, onSaved }: { settings: Settings; onSaved: () => void }) => {
  const [timezone, setTimezone] = useState(settings.timezone)
  const [country, setCountry] = useState(settings.country)
  const [services, setServices] = useState(settings.services.join("\n"))
  const [slotMinutes, setSlotMinutes] = useState(String(settings.slotMinutes))
  const [capacity, setCapacity] = useState(String(settings.capacity))
  const [hours, setHours] = useState<Record<Weekday, string>>(
    () =>
      Object.fromEntries(WEEKDAYS.map(([day]) => [day, rangesText(settings.hours[day])])) as Record<Weekday, string>,
  )
  const [errors, setErrors] = useState<FieldErrors>({})
  const [saved, setSaved] = useState(false)
  const action = useAction()
  const form = useRef<HTMLFormElement>(null)
  const shown = { ...issueErrors(action.error?.issues ?? []), ...definedOnly(errors) }
  const countryShown = countryName(country.trim().toUpperCase())

  const submit = async (event: Event) => {
    event.preventDefault()
    setSaved(false)
    const parsed = Object.fromEntries(WEEKDAYS.map(([day]) => [day, parseRanges(hours[day])])) as Record<
      Weekday,
      Array<[string, string]> | string
    >
    const serviceList = services
      .split("\n")
      .map((s) => s.trim())
      .filter((s) => s !== "")
    const slot = Number(slotMinutes)
    const places = Number(capacity)
    const found: Record<string, string | undefined> = {
      timezone:
        TIME_ZONES.length === 0 || TIME_ZONES.includes(timezone) || timezone === "UTC"
          ? undefined
          : "Choose a time zone from the list, like Europe/Berlin.",
      country:
        countryName(country.trim().toUpperCase()) === undefined
          ? "A two-letter country code, like US, GB or DE."
          : undefined,
      services:
        serviceList.length === 0
          ? "Name at least one service."
          : serviceList.length > 50
            ? "At most 50 services."
            : undefined,
      slotMinutes: Number.isInteger(slot) && slot >= 5 && slot <= 480 ? undefined : "Between 5 and 480 minutes.",
      capacity: Number.isInteger(places) && places >= 1 && places <= 10_000 ? undefined : "Between 1 and 10,000.",
    }
    for (const [day] of WEEKDAYS) {
      const value = parsed[day]
      found[day] = typeof value === "string" ? value : undefined
    }
    setErrors(found)
    if (Object.values(found).some(Boolean)) return focusFirstInvalid(form.current)
    const answer = await action.run(() =>
      unwrap(
        api.PUT("/api/bookings/settings", {
          body: {
            timezone,
            country: country.trim().toUpperCase(),
            services: serviceList,
            slotMinutes: slot,
            capacity: places,
            hours: Object.fromEntries(WEEKDAYS.map(([day]) => [day, parsed[day] as Array<[string, string]>])),
          },
        }),
      ),
    )
    if (answer === undefined) return
    setSaved(true)
    onSaved()
  }

  return (
    <form ref={form} onSubmit={submit} noValidate>
      <fieldset class="field group" aria-describedby="hours-hint">
        <legend>Opening hours</legend>
        <p class="hint" id="hours-hint">
          Ranges like 09:00–17:00, several separated by commas (09:00–12:00, 13:00–17:00). Leave a day empty when
          closed.
        </p>
        <div class="hours">
          {WEEKDAYS.map(([day, label]) => (
            <TextField
              key={day}
              label={label}
              value={hours[day]}
              onValue={(value) => setHours((h) => ({ ...h, [day]: value }))}
              error={shown[day]}
              placeholder="closed"
              spellcheck={false}
            />
          ))}
        </div>
      </fieldset>
      <TextField
        label="Services"
        multiline
        rows={3}
        value={services}
        onValue={setServices}
        error={shown.services}
        required
        hint="One per line. Visitors book one of these."
      />
      <div class="row">
        <TextField
          label="Slot length (minutes)"
          type="number"
          min={5}
          max={480}
          value={slotMinutes}
          onValue={setSlotMinutes}
          error={shown.slotMinutes}
          required
        />
        <TextField
          label="Bookings per slot"
          type="number"
          min={1}
          max={10000}
          value={capacity}
          onValue={setCapacity}
          error={shown.capacity}
          required
        />
      </div>
      <div class="field">
        <label for="timezone">Time zone</label>
        <input
          id="timezone"
          list="timezones"
          value={timezone}
          onInput={(e) => setTimezone(e.currentTarget.value)}
          aria-invalid={shown.timezone === undefined ? undefined : true}
          aria-describedby={shown.timezone === undefined ? undefined : "timezone-error"}
          spellcheck={false}
        />
        <datalist id="timezones">
          {TIME_ZONES.map((zone) => (
            <option key={zone} value={zone} />
          ))}
        </datalist>
        {shown.timezone === undefined ? null : (
          <p class="field-error" id="timezone-error">
            {shown.timezone}
          </p>
        )}
      </div>
      <TextField
        label="Country"
        value={country}
        onValue={setCountry}
        error={shown.country}
        spellcheck={false}
        hint={`How phone numbers written without a country code are read${countryShown === undefined ? "" : `: ${countryShown}`}.`}
      />
      {/* The outcome shows beside the button pressed, not at the top of a long form out of sight. */}
      <div class="form-end">
        <button type="submit" class="primary" disabled={action.pending}>
          {action.pending ? "Saving…" : "Save booking settings"}
        </button>
        <ErrorNotice error={action.error} title="Not saved." />
        {saved ? <StatusNotice>Booking settings saved.</StatusNotice> : null}
      </div>
    </form>
  )
}

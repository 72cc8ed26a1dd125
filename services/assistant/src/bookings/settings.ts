import type { WeekdayKey } from "@parley/contracts"
import { weekdayOf } from "../engine/calendar-date.ts"

/** An organization's booking settings (docs/contract.md §9). */
export interface BookingSettings {
  readonly timezone: string
  /** ISO 3166-1 alpha-2: how national phone numbers are read (docs/contract.md §8); `US` by default. */
  readonly country: string
  readonly services: ReadonlyArray<string>
  readonly slotMinutes: number
  readonly capacity: number
  /** Opening ranges per weekday; a missing or empty day is closed. */
  readonly hours: Readonly<Partial<Record<WeekdayKey, ReadonlyArray<readonly [string, string]>>>>
}

/** The weekday keys in `weekdayOf` order: 0 = Sunday … 6 = Saturday. */
const WEEKDAY_KEYS: ReadonlyArray<WeekdayKey> = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]

/** The opening ranges of `date`'s weekday; none when that day is closed. */
export const openingRangesOn = (settings: BookingSettings, date: string): ReadonlyArray<readonly [string, string]> =>
  settings.hours[WEEKDAY_KEYS[weekdayOf(date)] ?? "sun"] ?? []

const WORKDAY: ReadonlyArray<readonly [string, string]> = [["09:00", "17:00"]]

/** What a new organization starts with: UTC, the US, one service, 30-minute slots, one place, Mon–Fri 9–17. */
export const DEFAULT_BOOKING_SETTINGS: BookingSettings = {
  timezone: "UTC",
  country: "US",
  services: ["consultation"],
  slotMinutes: 30,
  capacity: 1,
  hours: { mon: WORKDAY, tue: WORKDAY, wed: WORKDAY, thu: WORKDAY, fri: WORKDAY, sat: [], sun: [] },
}

/** Every weekday key present, so the settings read back the same way they are applied. */
export const withAllDays = (settings: BookingSettings): BookingSettings => ({
  ...settings,
  hours: {
    mon: settings.hours.mon ?? [],
    tue: settings.hours.tue ?? [],
    wed: settings.hours.wed ?? [],
    thu: settings.hours.thu ?? [],
    fri: settings.hours.fri ?? [],
    sat: settings.hours.sat ?? [],
    sun: settings.hours.sun ?? [],
  },
})

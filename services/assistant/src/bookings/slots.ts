import { minutesOf, timeFromMinutes } from "../engine/calendar-date.ts"
import { type BookingSettings, openingRangesOn } from "./settings.ts"

/**
 * The slots of a day, computed in the organization's time zone: each opening range of that weekday
 * cut into `slotMinutes` slots that end within the range. A slot is available while it has fewer
 * bookings than `capacity` and has not started yet (today's past slots are unavailable).
 */

/** The start times offered on `date`, ascending, without duplicates (ranges may overlap). */
export const offeredTimes = (settings: BookingSettings, date: string): ReadonlyArray<string> => {
  const ranges = openingRangesOn(settings, date)
  const starts = new Set<number>()
  for (const [open, close] of ranges) {
    const end = minutesOf(close)
    for (let at = minutesOf(open); at + settings.slotMinutes <= end; at += settings.slotMinutes) starts.add(at)
  }
  return [...starts].sort((a, b) => a - b).map(timeFromMinutes)
}

export interface Slot {
  readonly time: string
  readonly available: boolean
}

export interface DaySlotsInput {
  readonly settings: BookingSettings
  readonly date: string
  /** The organization's wall clock now. */
  readonly today: string
  readonly nowTime: string
  /** Bookings already held per start time. */
  readonly taken: ReadonlyMap<string, number>
}

export const daySlots = (input: DaySlotsInput): ReadonlyArray<Slot> =>
  offeredTimes(input.settings, input.date).map((time) => ({
    time,
    available:
      input.date > input.today || (input.date === input.today && time > input.nowTime)
        ? (input.taken.get(time) ?? 0) < input.settings.capacity
        : false,
  }))

export type SlotVerdict = "open" | "full" | "notOffered" | "past"

/** Whether one slot can take a booking now. */
export const slotVerdict = (input: DaySlotsInput, time: string): SlotVerdict => {
  if (input.date < input.today || (input.date === input.today && time <= input.nowTime)) return "past"
  if (!offeredTimes(input.settings, input.date).includes(time)) return "notOffered"
  return (input.taken.get(time) ?? 0) < input.settings.capacity ? "open" : "full"
}

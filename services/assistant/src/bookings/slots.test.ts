import { describe, expect, it } from "vitest"
import { DEFAULT_BOOKING_SETTINGS } from "./settings.ts"
import { daySlots, offeredTimes, slotVerdict } from "./slots.ts"

// 2026-11-23 is a Monday, 2026-11-28 a Saturday.
const MONDAY = "2026-11-23"

describe("slots", () => {
  it("offers 30-minute slots from 09:00 to 16:30 on a default weekday", () => {
    const times = offeredTimes(DEFAULT_BOOKING_SETTINGS, MONDAY)
    expect(times).toHaveLength(16)
    expect(times[0]).toBe("09:00")
    expect(times.at(-1)).toBe("16:30")
  })

  it("offers nothing on a default weekend day", () => {
    expect(offeredTimes(DEFAULT_BOOKING_SETTINGS, "2026-11-28")).toEqual([])
  })

  it("merges overlapping ranges and keeps only slots that end inside a range", () => {
    const settings = {
      ...DEFAULT_BOOKING_SETTINGS,
      slotMinutes: 45,
      hours: {
        mon: [
          ["09:00", "10:30"],
          ["10:00", "11:00"],
        ] as Array<[string, string]>,
      },
    }
    expect(offeredTimes(settings, MONDAY)).toEqual(["09:00", "09:45", "10:00"])
  })

  it("marks today's started slots and full slots unavailable", () => {
    const slots = daySlots({
      settings: { ...DEFAULT_BOOKING_SETTINGS, capacity: 2 },
      date: MONDAY,
      today: MONDAY,
      nowTime: "10:00",
      taken: new Map([
        ["11:00", 2],
        ["11:30", 1],
      ]),
    })
    const at = (time: string) => slots.find((slot) => slot.time === time)?.available
    expect(at("09:30")).toBe(false)
    expect(at("10:00")).toBe(false)
    expect(at("10:30")).toBe(true)
    expect(at("11:00")).toBe(false)
    expect(at("11:30")).toBe(true)
  })

  it("tells a past, an unoffered, a full and an open slot apart", () => {
    const input = {
      settings: DEFAULT_BOOKING_SETTINGS,
      date: MONDAY,
      today: MONDAY,
      nowTime: "12:00",
      taken: new Map([["15:00", 1]]),
    }
    expect(slotVerdict(input, "11:00")).toBe("past")
    expect(slotVerdict(input, "15:15")).toBe("notOffered")
    expect(slotVerdict(input, "15:00")).toBe("full")
    expect(slotVerdict(input, "15:30")).toBe("open")
  })
})

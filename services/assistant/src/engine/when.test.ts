import { describe, expect, it } from "vitest"
import { findDate, findTime, findWhen } from "./when.ts"

// 2026-11-23 is a Monday.
const TODAY = "2026-11-23"

describe("findDate", () => {
  it.each([
    ["2026-11-25 please", "2026-11-25"],
    ["today if possible", "2026-11-23"],
    ["tomorrow", "2026-11-24"],
    ["the day after tomorrow", "2026-11-25"],
    ["on Friday", "2026-11-27"],
    ["next monday", "2026-11-30"],
    ["26 November", "2026-11-26"],
    ["Nov 27th", "2026-11-27"],
    ["3rd of January", "2027-01-03"],
    ["march 2", "2027-03-02"],
  ])("reads %j as %s", (text, date) => {
    expect(findDate(text, TODAY)).toBe(date)
  })

  it.each(["sometime soon", "2026-02-30", "at 10am"])("reads no date in %j", (text) => {
    expect(findDate(text, TODAY)).toBeUndefined()
  })
})

describe("findTime", () => {
  it.each([
    ["at 10:30", "10:30"],
    ["14:00 works", "14:00"],
    ["2pm", "14:00"],
    ["2:30 pm", "14:30"],
    ["10 am please", "10:00"],
    ["12am", "00:00"],
    ["12pm", "12:00"],
    ["around noon", "12:00"],
    ["9.00 a.m.", undefined],
  ])("reads %j as %s", (text, time) => {
    expect(findTime(text)).toBe(time)
  })

  it.each(["on 2026-11-25", "24:00", "13pm", "10 people"])("reads no time in %j", (text) => {
    expect(findTime(text)).toBeUndefined()
  })
})

describe("findWhen's earliest", () => {
  it.each(["the first one", "first available please", "earliest", "whatever is soonest", "the first slot"])(
    "hears %j as the earliest slot",
    (text) => {
      expect(findWhen(text, TODAY).earliest).toBe(true)
    },
  )

  it.each(["it's my first visit", "first, a question", "at first I thought"])(
    "does not hear %j as the earliest slot",
    (text) => {
      expect(findWhen(text, TODAY).earliest).toBe(false)
    },
  )
})

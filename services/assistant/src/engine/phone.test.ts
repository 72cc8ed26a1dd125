import { describe, expect, it } from "vitest"
import { extractPhone } from "./phone.ts"

describe("extractPhone", () => {
  it.each([
    ["call me on +1 (415) 555-0100", "14155550100"],
    ["my number is 415-555-0100", "4155550100"],
    ["415.555.0100 is best", "4155550100"],
    ["reach me at 4155550100 please", "4155550100"],
    ["+44 20 7946 0958", "442079460958"],
    ["+49 30 901820", "4930901820"],
    ["(020) 7946-0958", "02079460958"],
    ["mobile: +33 6 12 34 56 78", "33612345678"],
    ["+91 98765 43210 anytime", "919876543210"],
    ["555-1234", "5551234"],
    ["I'm Dana, 555 123 4567, want a demo", "5551234567"],
    ["+61 2 9374 4000", "61293744000"],
    ["text 0049-170-1234567", "00491701234567"],
    ["my phone is 123456789012345", "123456789012345"],
  ])("finds the number in %j as %s", (text, digits) => {
    expect(extractPhone(text)).toBe(digits)
  })

  it.each([
    ["can I book for 2026-11-24?", "an ISO date"],
    ["how about 24.11.2026 at 10:00", "a dotted date and a time"],
    ["11/24/2026 works", "a US date"],
    ["24-11-2026 please", "a dashed date"],
    ["what does it cost? $1,250.00 is too much", "a price with a sign"],
    ["the quote said 1250000 EUR", "a price with a currency word"],
    ["my order #12345678 has not arrived", "an order number with #"],
    ["order number 98765432 is late", "an order number named by a word"],
    ["invoice 2026-004512 is wrong", "an invoice number"],
    ["tracking: 1Z999AA10123456784", "a tracking code"],
    ["ticket no. 99812345", "a ticket number"],
    ["call me at 12345", "too few digits"],
    ["my number is 1234567890123456789", "too many digits"],
    ["we open at 9:00 and close at 17:30", "clock times"],
    ["I need 3 rooms for 12 people", "small numbers"],
    ["ABC1234567 is my code", "digits glued to letters"],
    ["hello there", "no digits at all"],
  ])("finds no phone in %j (%s)", (text) => {
    expect(extractPhone(text)).toBeUndefined()
  })
})

describe("extractPhone on hostile input", () => {
  it.each([
    ["a 4,096-digit run", "1".repeat(4096)],
    ["4,096 characters of dotted digits", "1.".repeat(2048)],
    ["4,096 characters of spaced digits", "1 ".repeat(2048)],
  ])("stays linear on %s", (_, text) => {
    const started = performance.now()
    expect(extractPhone(text)).toBeUndefined()
    expect(performance.now() - started).toBeLessThan(50)
  })
})

import { isInPlan } from "@parley/number-plan"
import { type CountryCode, parsePhoneNumberFromString } from "libphonenumber-js"
import { describe, expect, it } from "vitest"
import { readPhoneNumber } from "./phone-number.ts"

describe("reading a recipient's number", () => {
  it("reads national numbers with the organization's country and international ones as written", () => {
    expect(readPhoneNumber("(415) 555-0110", "US")).toEqual({ digits: "14155550110" })
    expect(readPhoneNumber("07700 900456", "GB")).toEqual({ digits: "447700900456" })
    expect(readPhoneNumber("+44 (0) 7700 900456", "US")).toEqual({ digits: "447700900456" })
    expect(readPhoneNumber("0049 30 1234567", "US")).toEqual({ digits: "49301234567" })
    // Bare international digits a national reading finds impossible stay international.
    expect(readPhoneNumber("447700900456", "US")).toEqual({ digits: "447700900456" })
    // Neither a Swiss number nor a possible international one: refused, never sent to the wrong country.
    expect(readPhoneNumber("4155550110", "CH")).toHaveProperty("error")
  })

  it("refuses, saying why, what is not a number or not a possible one", () => {
    expect(readPhoneNumber("", "US")).toEqual({ error: "is empty" })
    expect(readPhoneNumber("call me", "US")).toMatchObject({ error: expect.stringContaining("not a phone number") })
    expect(readPhoneNumber("12345", "US")).toMatchObject({ error: expect.stringContaining("7–15 digits") })
    expect(readPhoneNumber("+999 1234 5678", "US")).toEqual({
      error: "+999 1234 5678 is not a number in any country's plan",
    })
  })

  it("refuses a number of a right length that no country's plan has, and keeps fictional ranges", () => {
    // Ten digits are a possible length in GB, but no GB number starts with 4; nor is it Swiss.
    expect(readPhoneNumber("(415) 555-0110", "GB")).toEqual({
      error: "(415) 555-0110 is not a number in GB's plan nor an international one",
    })
    // No North American area code starts with 1, fast path or not.
    for (const written of ["+1 123 456 7890", "11234567890", "1234567890"]) {
      expect(readPhoneNumber(written, "US"), written).toHaveProperty("error")
    }
    expect(readPhoneNumber("+1 123 456 7890", "GB")).toEqual({
      error: "+1 123 456 7890 is not a number in any country's plan",
    })
    // Ranges kept for fiction are in the plans.
    expect(readPhoneNumber("07700 900456", "GB")).toEqual({ digits: "447700900456" })
    expect(readPhoneNumber("+44 7700 900123", "DE")).toEqual({ digits: "447700900123" })
    expect(readPhoneNumber("(415) 555-0199", "US")).toEqual({ digits: "14155550199" })
    expect(readPhoneNumber("+1 415 555 0101", "GB")).toEqual({ digits: "14155550101" })
  })

  it("reads the North American plan's numbers exactly as libphonenumber and the number plans do, fast path or not", () => {
    let seed = 7
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31
      return seed / 2 ** 31
    }
    const digits = (n: number) => Array.from({ length: n }, () => Math.floor(random() * 10)).join("")
    const countries: ReadonlyArray<CountryCode> = ["US", "CA", "JM", "GB", "DE"]
    for (let i = 0; i < 20_000; i++) {
      const country = countries[i % countries.length] ?? "US"
      const forms = [`+1 ${digits(10)}`, `1${digits(10)}`, digits(10), `(${digits(3)}) ${digits(3)}-${digits(4)}`]
      const written = forms[i % forms.length] as string
      // `00…` is read as the international prefix, a rule of ours (tested above).
      if (written.replace(/\D/g, "").startsWith("00")) continue
      const read = readPhoneNumber(written, country)
      const plain = written.replace(/\D/g, "")
      const national = written.startsWith("+") ? undefined : parsePhoneNumberFromString(written, country)
      const asInternational = parsePhoneNumberFromString(`+${plain}`)
      const expected =
        national !== undefined && isInPlan(national)
          ? national.number.slice(1)
          : asInternational !== undefined && isInPlan(asInternational)
            ? asInternational.number.slice(1)
            : undefined
      if (expected === undefined) expect(read, written).toHaveProperty("error")
      else expect(read, `${written} in ${country}`).toEqual({ digits: expected })
    }
  })
})

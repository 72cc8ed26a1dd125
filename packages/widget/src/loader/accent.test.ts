import { describe, expect, it } from "vitest"
import { DEFAULT_ACCENT_RGB, luminance, readableAccent, textOn } from "./accent.ts"

const contrast = (a: readonly [number, number, number], b: readonly [number, number, number]) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number]
  return (hi + 0.05) / (lo + 0.05)
}
const rgbOfHex = (hex: string): [number, number, number] =>
  [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)) as [number, number, number]

describe("the text drawn on the accent colour", () => {
  it("is white on the default accent, with AA contrast", () => {
    expect(textOn(DEFAULT_ACCENT_RGB)).toBe("#ffffff")
    expect(contrast(DEFAULT_ACCENT_RGB, [255, 255, 255])).toBeGreaterThan(4.5)
  })

  it("is dark on a pale brand colour and white on a dark one", () => {
    expect(textOn([255, 212, 0])).toBe("#111111")
    expect(textOn([240, 240, 240])).toBe("#111111")
    expect(textOn([15, 61, 62])).toBe("#ffffff")
  })

  it("keeps 4.5:1 for any colour a business picks, darkening only the mid-tones that cannot have it", () => {
    for (const hex of ["#ff0000", "#00ff00", "#0000ff", "#ff00ff", "#808080", "#e91e63", "#009688", "#ffc107"]) {
      const { accent, text } = readableAccent(rgbOfHex(hex))
      expect(contrast(accent, rgbOfHex(text)), hex).toBeGreaterThanOrEqual(4.5)
    }
    // A colour that already has it is kept exactly.
    expect(readableAccent([15, 61, 62]).accent).toEqual([15, 61, 62])
    expect(readableAccent([255, 212, 0])).toEqual({ accent: [255, 212, 0], text: "#111111" })
    // Pure red has 4.0:1 with white and 5.2:1 with #111: kept, with dark text.
    expect(readableAccent([255, 0, 0])).toEqual({ accent: [255, 0, 0], text: "#111111" })
  })
})

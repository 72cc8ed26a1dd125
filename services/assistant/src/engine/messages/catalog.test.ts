import { describe, expect, it } from "vitest"
import type { Catalog } from "./catalog.ts"
import { CATALOGS } from "./index.ts"

/** Pieces of a sentence, not sentences: they never start a reply. */
const FRAGMENTS = new Set(["weekRange", "closedDays"])

describe("every sentence of every language starts with a capital letter", () => {
  // What a business types is kept as typed ("consultation"); a day or time in lower case ("domingo").
  const argument = "consultation"
  for (const [language, catalog] of Object.entries(CATALOGS)) {
    it(language, () => {
      const sentences = Object.entries(catalog as Catalog)
        .filter(([key]) => !FRAGMENTS.has(key))
        .map(([key, write]) => [
          key,
          (write as (...args: Array<string>) => string)(argument, argument, argument, argument),
        ])
      expect(sentences.length).toBeGreaterThan(35)
      for (const [key, sentence] of sentences) {
        const first = /\p{L}/u.exec(sentence ?? "")?.[0] ?? ""
        expect(first === first.toLocaleUpperCase(), `${language}.${key}: ${sentence}`).toBe(true)
      }
      // The name stays as typed where it is not the start.
      expect(catalog.booked(undefined, argument, "x", "y")).toContain(argument)
    })
  }
})

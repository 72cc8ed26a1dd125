import { LANGUAGES } from "../src/engine/text.ts"

/** eld's n-gram database format: per n-gram, a weight per language id. */
export interface EldNgrams {
  readonly type: string
  readonly languages: Record<string, string>
  readonly isSubset: boolean
  readonly ngrams: Record<string, Record<string, number>>
}

/**
 * eld's "small" database (the one the engine was tuned on) cut to the engine's five languages, as
 * eld's own `saveSubset` cuts it: the languages' ids, weights and n-grams unchanged, n-grams no
 * language of the five has left out.
 */
export const eldSubset = async (): Promise<EldNgrams> => {
  const whole = new URL("../ngrams/small.js", import.meta.resolve("eld")) // eld/src/entries/dynamic.js
  const { ngramsData } = (await import(whole.href)) as { ngramsData: EldNgrams }
  const kept = Object.entries(ngramsData.languages).filter(([, code]) =>
    (LANGUAGES as ReadonlyArray<string>).includes(code),
  )
  const ids = new Set(kept.map(([id]) => id))
  const ngrams: Record<string, Record<string, number>> = {}
  for (const [ngram, weights] of Object.entries(ngramsData.ngrams)) {
    const mine = Object.entries(weights).filter(([id]) => ids.has(id))
    if (mine.length > 0) ngrams[ngram] = Object.fromEntries(mine)
  }
  return { type: ngramsData.type, languages: Object.fromEntries(kept), isSubset: true, ngrams }
}
